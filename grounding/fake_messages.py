"""A scriptable fake of the Anthropic Messages API, shipped with the package for tests and benchmarks.

The real `anthropic` SDK talks real HTTP to it, so requests and replies go through the SDK's own
serialisation, retries and error mapping:

- in-process: `httpx2.MockTransport(fake.handler)` (or `fake.http_client()`) passed as the SDK's
  `http_client` (the SDK is built on `httpx2`, not `httpx`);
- over a socket: `FakeMessagesServer(fake)` on 127.0.0.1 with a free port, reached through
  `ANTHROPIC_BASE_URL` / `base_url=server.url`.

A script is a queue of replies, consumed one per request: `ToolReply` (forced tool use),
`TextReply` (text blocks with `search_result_location` citations, resolved against the search results the
request actually carried, as the real API does), `ErrorReply` (429/529/500/400 … with the real error body),
`TimeoutReply` (no answer in time), `RawReply` (anything, e.g. malformed JSON), `DripReply` (a slow
provider: one byte every N seconds). `fooled_model()` is a responder that answers a chosen frame and a
chosen citation whatever the turn says (the gates must hold against it). An entry may also be a
function of the recorded request. Every reply can carry a delay; a `latency` function adds a per-call delay
and `sleep` can be swapped for a simulated clock (the benchmark's scripted latencies).

Every request is recorded (`fake.requests`), so tests assert what the provider saw — e.g. that the 9th call
of a turn never arrived, or that quarantined text was never sent.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx2

# ---------------------------------------------------------------------------------------- requests


class _Server(ThreadingHTTPServer):
    # http.server's default listen backlog is 5: twenty simultaneous clients would overflow it and each wait
    # about a second for a SYN retry, which a load test would misread as the engine serialising turns.
    request_queue_size = 128
    daemon_threads = True


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the fake received it."""

    method: str
    path: str
    headers: Mapping[str, str]
    """Lower-cased names."""
    body: dict[str, Any]

    @property
    def search_results(self) -> list[dict[str, Any]]:
        """Every `search_result` block in request order (the order `search_result_index` counts)."""
        found: list[dict[str, Any]] = []
        for message in self.body.get("messages", []):
            content = message.get("content")
            if not isinstance(content, list):
                continue
            for block in content:
                if block.get("type") == "search_result":
                    found.append(block)
                elif block.get("type") == "tool_result" and isinstance(block.get("content"), list):
                    found += [b for b in block["content"] if b.get("type") == "search_result"]
        return found

    @property
    def api_key(self) -> str | None:
        """The credential sent, as `x-api-key` or as a bearer token (SDK versions differ)."""
        bearer = self.headers.get("authorization", "")
        return self.headers.get("x-api-key") or (bearer[7:] if bearer.lower().startswith("bearer ") else None)

    @property
    def forced_tool(self) -> str | None:
        choice = self.body.get("tool_choice") or {}
        return choice.get("name") if choice.get("type") == "tool" else None

    @property
    def tool_names(self) -> list[str]:
        return [t.get("name", "") for t in self.body.get("tools", [])]

    @property
    def system_text(self) -> str:
        system = self.body.get("system", "")
        if isinstance(system, str):
            return system
        return "".join(b.get("text", "") for b in system)

    @property
    def user_text(self) -> str:
        """The text blocks of the last user message (search results excluded)."""
        for message in reversed(self.body.get("messages", [])):
            if message.get("role") != "user":
                continue
            content = message.get("content")
            if isinstance(content, str):
                return content
            return "\n".join(b.get("text", "") for b in content if b.get("type") == "text")
        return ""

    @property
    def sent_text(self) -> str:
        """Everything textual the request carried (system, messages, search results), for 'never sent' checks."""
        return json.dumps(self.body, ensure_ascii=False)


# ----------------------------------------------------------------------------------------- replies


@dataclass(frozen=True)
class Cite:
    """A citation to resolve against the request's search results.

    Pick the search result by `index` or `source` (doc id), and the block range by `start`/`end` or by the
    first block containing `contains`. `cited_text` is filled from the request, as the real API does.
    """

    contains: str | None = None
    source: str | None = None
    index: int | None = None
    start: int | None = None
    end: int | None = None


@dataclass(frozen=True)
class Text:
    """One response text block, cited or not."""

    text: str
    cites: tuple[Cite, ...] = ()


def cited(text: str, *cites: Cite | str) -> Text:
    """A text block citing `cites` (a bare string means `Cite(contains=<it>)`)."""
    return Text(text, tuple(Cite(contains=c) if isinstance(c, str) else c for c in cites))


@dataclass(frozen=True)
class TextReply:
    parts: tuple[Text | str, ...]
    stop_reason: str = "end_turn"
    delay_s: float = 0.0
    usage: Mapping[str, int] | None = None


@dataclass(frozen=True)
class ToolReply:
    input: Mapping[str, Any]
    name: str | None = None
    """Tool name; None answers with the tool the request forced."""
    stop_reason: str = "tool_use"
    delay_s: float = 0.0
    usage: Mapping[str, int] | None = None


_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


@dataclass(frozen=True)
class ErrorReply:
    status: int
    message: str = ""
    error_type: str | None = None
    retry_after_ms: int | None = 1
    """Sent as `retry-after-ms` so the SDK's one retry does not back off for a second in tests."""
    delay_s: float = 0.0


@dataclass(frozen=True)
class TimeoutReply:
    """No answer in time: the transport raises a read timeout; the server holds the socket `seconds`."""

    seconds: float = 2.0


@dataclass(frozen=True)
class RawReply:
    status: int = 200
    body: str | Mapping[str, Any] = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


@dataclass(frozen=True)
class DripReply:
    """A slow provider: `reply` is sent one byte every `interval_s` (status and headers at once).

    A per-read timeout never fires on such a reply — each byte arrives in time — so only a deadline over
    the whole call bounds it (the budget's remaining time, grounding.anthropic_adapter)."""

    reply: TextReply | ToolReply | ErrorReply | RawReply
    interval_s: float = 5.0


Reply = TextReply | ToolReply | ErrorReply | TimeoutReply | RawReply | DripReply
Responder = Callable[[RecordedRequest], Reply]


def fooled_model(frame: Mapping[str, Any] | None = None, *, cite: str | None = None,
                 answer: str | None = None) -> Responder:
    """A fooled (or hostile) model: every call answers what the test chose, whatever the turn says.

    - understanding (`record_query_frame`): `frame`, as given;
    - generation: a text block `answer` (default: the cited text itself, word for word) citing the first
      search-result block that contains `cite` (default: the first block with " mg");
    - entailment (`record_entailment`): every claim entailed, nothing omitted.
    The gates must hold against it: code, not the model, decides which slot values and lines are real.
    """

    def respond(request: RecordedRequest) -> Reply:
        if request.forced_tool == "record_query_frame":
            return ToolReply(dict(frame or {}))
        if request.forced_tool == "record_entailment":
            return ToolReply({"claims": [{"index": 0, "entailed": True}], "omissions": []})
        if request.forced_tool:
            return ToolReply({})
        needle = cite if cite is not None else " mg"
        for i, result in enumerate(request.search_results):
            for k, block in enumerate(result.get("content", [])):
                if needle in block.get("text", ""):
                    return TextReply((Text(answer or block["text"], (Cite(index=i, start=k),)),))
        return TextReply(("Không tìm thấy thông tin trong Dược thư.",))

    return respond


def overloaded(times: int = 2) -> list[Reply]:
    """529 for every attempt of one logical call (the client makes 2 attempts)."""
    return [ErrorReply(529, "Overloaded") for _ in range(times)]


def rate_limited(times: int = 2) -> list[Reply]:
    return [ErrorReply(429, "Number of requests has exceeded your rate limit") for _ in range(times)]


def server_error(times: int = 2) -> list[Reply]:
    return [ErrorReply(500, "Internal server error") for _ in range(times)]


def timeouts(times: int = 2, seconds: float = 2.0) -> list[Reply]:
    return [TimeoutReply(seconds) for _ in range(times)]


class FakeScriptError(AssertionError):
    """The script cannot answer a request (exhausted, or a citation that matches nothing)."""


@dataclass
class _Response:
    status: int
    headers: dict[str, str]
    body: bytes


class FakeMessages:
    """The scripted Messages API. Thread-safe: one lock around the script and the request log."""

    def __init__(
        self,
        script: Iterable[Reply | Responder] = (),
        *,
        fallback: Responder | None = None,
        latency: Callable[[RecordedRequest], float] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        model: str = "claude-fake",
    ) -> None:
        self._script: deque[Reply | Responder] = deque(script)
        self._fallback = fallback
        self._latency = latency
        self._sleep = sleep
        self._model = model
        self._lock = threading.Lock()
        self._seen_systems: set[str] = set()
        self._ids = 0
        self.requests: list[RecordedRequest] = []
        self.errors: list[str] = []
        """Script problems, also answered as HTTP 400 so the test sees a failure, not a hang."""

    # ---------------------------------------------------------------------------------- scripting

    def push(self, *replies: Reply | Responder | Iterable[Reply]) -> FakeMessages:
        with self._lock:
            for r in replies:
                if isinstance(r, list | tuple):
                    self._script.extend(r)
                else:
                    self._script.append(r)  # type: ignore[arg-type]
        return self

    @property
    def pending(self) -> int:
        return len(self._script)

    # ------------------------------------------------------------------------------- transports

    def handler(self, request: httpx2.Request) -> httpx2.Response:
        """An `httpx2.MockTransport` handler."""
        recorded = _record(request.method, request.url.path, dict(request.headers), request.read())
        reply = self._next(recorded)
        if isinstance(reply, TimeoutReply):
            raise httpx2.ReadTimeout("fake Messages API: no reply within the read timeout", request=request)
        if isinstance(reply, DripReply):
            response = self._render(recorded, reply.reply)
            return httpx2.Response(response.status, headers=response.headers,
                                   content=self._drip(response.body, reply.interval_s))
        response = self._render(recorded, reply)
        return httpx2.Response(response.status, headers=response.headers, content=response.body)

    def _drip(self, body: bytes, interval_s: float) -> Iterator[bytes]:
        for i in range(len(body)):
            self._sleep(interval_s)
            yield body[i:i + 1]

    def transport(self) -> httpx2.MockTransport:
        return httpx2.MockTransport(self.handler)

    def http_client(self) -> httpx2.Client:
        return httpx2.Client(transport=self.transport())

    # ------------------------------------------------------------------------------------- core

    def _next(self, recorded: RecordedRequest) -> Reply:
        with self._lock:
            self.requests.append(recorded)
            entry = self._script.popleft() if self._script else self._fallback
        problem = _validate(recorded)
        if problem is None and entry is None:
            problem = f"script exhausted at request {len(self.requests)}"
        if problem is not None:
            self.errors.append(problem)
            return ErrorReply(400, f"fake Messages API: {problem}", retry_after_ms=None)
        assert entry is not None
        reply = entry(recorded) if callable(entry) else entry
        delay = getattr(reply, "delay_s", 0.0) + (self._latency(recorded) if self._latency else 0.0)
        if delay > 0:
            self._sleep(delay)
        return reply

    def _render(self, recorded: RecordedRequest, reply: Reply) -> _Response:
        if isinstance(reply, RawReply):
            body = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
            headers = {"content-type": "application/json", **reply.headers}
            return _Response(reply.status, headers, body.encode())
        if isinstance(reply, ErrorReply):
            error = {"type": reply.error_type or _ERROR_TYPES.get(reply.status, "api_error"),
                     "message": reply.message or f"HTTP {reply.status}"}
            headers = {"content-type": "application/json", "request-id": self._next_id("req")}
            if reply.retry_after_ms is not None:
                headers["retry-after-ms"] = str(reply.retry_after_ms)
            return _Response(reply.status, headers, json.dumps({"type": "error", "error": error}).encode())
        try:
            content = self._content(recorded, reply)  # type: ignore[arg-type]
        except FakeScriptError as exc:
            self.errors.append(str(exc))
            return self._render(recorded, ErrorReply(400, f"fake Messages API: {exc}", retry_after_ms=None))
        message = {
            "id": self._next_id("msg"),
            "type": "message",
            "role": "assistant",
            "model": recorded.body.get("model", self._model),
            "content": content,
            "stop_reason": reply.stop_reason,  # type: ignore[union-attr]
            "stop_sequence": None,
            "usage": dict(reply.usage) if reply.usage else self._usage(recorded, content),  # type: ignore[union-attr]
        }
        return _Response(200, {"content-type": "application/json", "request-id": self._next_id("req")},
                         json.dumps(message, ensure_ascii=False).encode())

    def _content(self, recorded: RecordedRequest, reply: TextReply | ToolReply) -> list[dict[str, Any]]:
        if isinstance(reply, ToolReply):
            name = reply.name or recorded.forced_tool
            if not name:
                raise FakeScriptError("ToolReply without a name, and the request forced no tool")
            return [{"type": "tool_use", "id": self._next_id("toolu"), "name": name, "input": dict(reply.input)}]
        blocks: list[dict[str, Any]] = []
        results = recorded.search_results
        for part in reply.parts:
            part = Text(part) if isinstance(part, str) else part
            block: dict[str, Any] = {"type": "text", "text": part.text}
            if part.cites:
                block["citations"] = [_resolve(c, results) for c in part.cites]
            blocks.append(block)
        return blocks

    def _usage(self, recorded: RecordedRequest, content: list[dict[str, Any]]) -> dict[str, int]:
        # Deterministic token estimates; a cached system prompt is "created" once, then "read".
        system = recorded.system_text
        blocks = recorded.body.get("system")
        cached = isinstance(blocks, list) and any(isinstance(b, dict) and b.get("cache_control") for b in blocks)
        usage = {"input_tokens": max(1, len(recorded.sent_text) // 4 - (len(system) // 4 if cached else 0)),
                 "output_tokens": max(1, len(json.dumps(content, ensure_ascii=False)) // 4)}
        if cached:
            with self._lock:
                first = system not in self._seen_systems
                self._seen_systems.add(system)
            usage["cache_creation_input_tokens" if first else "cache_read_input_tokens"] = max(1, len(system) // 4)
        return usage

    def _next_id(self, prefix: str) -> str:
        with self._lock:
            self._ids += 1
            return f"{prefix}_fake_{self._ids:05d}"


def _record(method: str, path: str, headers: dict[str, str], raw: bytes) -> RecordedRequest:
    try:
        body = json.loads(raw or b"{}")
    except ValueError:
        body = {"_unparseable": raw.decode(errors="replace")}
    lowered = {k.lower(): v for k, v in headers.items()}  # http.server keeps the sender's header case
    return RecordedRequest(method, path, lowered, body if isinstance(body, dict) else {"_body": body})


def _validate(r: RecordedRequest) -> str | None:
    """The request checks the real API would make that matter here."""
    if r.method != "POST" or not r.path.endswith("/v1/messages"):
        return f"unsupported endpoint {r.method} {r.path}"
    for key in ("model", "max_tokens", "messages"):
        if key not in r.body:
            return f"{key}: field required"
    if r.forced_tool and r.forced_tool not in r.tool_names:
        return f"tool_choice names {r.forced_tool!r}, which is not in tools"
    for sr in r.search_results:
        if not sr.get("source") or "title" not in sr or not sr.get("content"):
            return "search_result blocks need source, title and content"
    return None


def _resolve(cite: Cite, results: list[dict[str, Any]]) -> dict[str, Any]:
    if cite.index is not None:
        pool = [(cite.index, results[cite.index])] if 0 <= cite.index < len(results) else []
    else:
        pool = [(i, r) for i, r in enumerate(results) if cite.source in (None, r.get("source"))]
    if not pool:
        raise FakeScriptError(f"no search result for {cite}")
    for i, result in pool:
        texts = [b.get("text", "") for b in result.get("content", [])]
        if cite.contains is not None:
            hits = [k for k, t in enumerate(texts) if cite.contains in t]
            if not hits:
                continue
            start = cite.start if cite.start is not None else hits[0]
        else:
            start = cite.start or 0
        end = cite.end if cite.end is not None else start + 1
        if not 0 <= start < end <= len(texts):
            raise FakeScriptError(f"block range [{start}, {end}) outside search result {i}")
        return {
            "type": "search_result_location",
            "cited_text": "".join(texts[start:end]),
            "search_result_index": i,
            "source": result.get("source"),
            "title": result.get("title"),
            "start_block_index": start,
            "end_block_index": end,
        }
    raise FakeScriptError(f"no search result block contains {cite.contains!r}")


# ------------------------------------------------------------------------------------------ server


class FakeMessagesServer:
    """The fake over a real socket on 127.0.0.1 (a free port), for end-to-end tests via ANTHROPIC_BASE_URL."""

    def __init__(self, fake: FakeMessages | None = None, *, host: str = "127.0.0.1", port: int = 0) -> None:
        self.fake = fake or FakeMessages()
        self._host = host
        self._port = port
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("FakeMessagesServer is not started")
        return f"http://{self._host}:{self._server.server_address[1]}"

    @property
    def requests(self) -> list[RecordedRequest]:
        return self.fake.requests

    def start(self) -> FakeMessagesServer:
        fake = self.fake

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("content-length") or 0)
                recorded = _record("POST", self.path.split("?", 1)[0], dict(self.headers), self.rfile.read(length))
                reply = fake._next(recorded)
                if isinstance(reply, TimeoutReply):
                    time.sleep(reply.seconds)  # the client's read timeout fires first
                    reply = ErrorReply(504, "fake Messages API: answered after the timeout", retry_after_ms=None)
                interval = reply.interval_s if isinstance(reply, DripReply) else 0.0
                response = fake._render(recorded, reply.reply if isinstance(reply, DripReply) else reply)
                try:
                    self.send_response(response.status)
                    for k, v in response.headers.items():
                        self.send_header(k, v)
                    self.send_header("content-length", str(len(response.body)))
                    self.end_headers()
                    if not interval:
                        self.wfile.write(response.body)
                        return
                    for i in range(len(response.body)):
                        self.wfile.flush()
                        time.sleep(interval)
                        self.wfile.write(response.body[i:i + 1])
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timed out): nothing to answer

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return  # keep test output quiet

        server = _Server((self._host, self._port), Handler)
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, name="fake-messages", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeMessagesServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
