"""The one module that owns the `anthropic` client.

Everything vendor-specific stops here: the SDK client and its timeouts, the Messages wire shapes, usage
accounting, and the translation of SDK exceptions into the project's hierarchy (core.errors).
Callers (the Claude understander, generator and verifier) see plain dicts and small dataclasses.

Every call:
1. `budget.require(call_site)` immediately before the request, so the 9th call of a turn is never sent;
2. a read timeout of min(20 s, the budget's remaining time) and 2 attempts in all (the SDK retries
   408/429/5xx/529 and connection errors once), and a deadline over the whole call: the turn waits for it
   no longer than the budget's remaining time, whatever the provider does (a slow drip of bytes never
   trips a per-read timeout). A call past its deadline is abandoned on a worker thread (it ends at its
   own timeouts) and the turn abstains with budget_exhausted;
3. records an `LlmCall` (site, duration, usage, error) into the budget; the runner copies those into the
   turn trace;
4. returns the raw provider output alongside the parsed result, so the runner can store it for replay.

The long, stable system prompts carry `cache_control: ephemeral`: tools + system form the cached prefix,
and only the per-turn user message varies.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anthropic
import httpx2
from pydantic import BaseModel, ValidationError

from core.budget import LlmCall, RequestBudget, monotonic_ms
from core.errors import (
    AnswerGenerationUnavailable,
    ProviderOutputInvalid,
    ProviderRequestRejected,
    ProviderUnavailable,
    RequestBudgetExhausted,
)

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 5.0
MIN_CALL_TIMEOUT_S = 0.05
"""A per-attempt timeout never below this (httpx treats 0 as 'no wait at all', which reads as a bug)."""
CALL_THREADS = 64
"""At most this many provider calls in flight per client (abandoned ones included): past it, a turn waits
for a slot no longer than its deadline."""
CACHE_EPHEMERAL: dict[str, str] = {"type": "ephemeral"}

M = TypeVar("M", bound=BaseModel)

_counts_lock = threading.Lock()
_call_counts: Counter[tuple[str, str]] = Counter()
"""Every provider call this process sent, by (call site, ok|error): also the calls of turns that were then
discarded (a commit conflict), which the per-turn metrics never see."""


def call_counts() -> dict[tuple[str, str], int]:
    with _counts_lock:
        return dict(_call_counts)


def _count(call_site: str, ok: bool) -> None:
    with _counts_lock:
        _call_counts[(call_site, "ok" if ok else "error")] += 1


@dataclass(frozen=True)
class ToolSpec:
    """One client tool, used with forced tool choice as a structured-output channel."""

    name: str
    description: str
    input_schema: dict[str, Any]

    def param(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}


@dataclass(frozen=True)
class SearchResult:
    """One `search_result` content block: a source id, a title, and its citable text blocks."""

    source: str
    title: str
    texts: tuple[str, ...]

    def param(self) -> dict[str, Any]:
        return {
            "type": "search_result",
            "source": self.source,
            "title": self.title,
            "content": [{"type": "text", "text": t} for t in self.texts],
            "citations": {"enabled": True},
        }


@dataclass(frozen=True)
class CitedSpan:
    """A `search_result_location` citation: whole text blocks [start, end) of one search result."""

    search_result_index: int
    source: str
    cited_text: str
    start_block_index: int
    end_block_index: int


@dataclass(frozen=True)
class TextPart:
    """One response text block and the spans it cites (none for connective text)."""

    text: str
    citations: tuple[CitedSpan, ...] = ()


@dataclass(frozen=True)
class CitedReply:
    """A parsed search-results reply, with the raw message kept for replay."""

    parts: tuple[TextPart, ...]
    stop_reason: str | None
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return "".join(p.text for p in self.parts)


# ------------------------------------------------------------------------------------- error mapping


def translate_error(exc: anthropic.AnthropicError, call_site: str) -> AnswerGenerationUnavailable:
    """Map an SDK exception onto the project's hierarchy (the only place that knows SDK error types)."""
    err: AnswerGenerationUnavailable
    if isinstance(exc, anthropic.APITimeoutError):
        err = ProviderUnavailable(f"{call_site}: provider timed out")
    elif isinstance(exc, anthropic.APIConnectionError):
        err = ProviderUnavailable(f"{call_site}: cannot reach the provider ({exc})")
    elif isinstance(exc, anthropic.APIResponseValidationError):
        err = ProviderOutputInvalid(f"{call_site}: the provider's response does not match the Messages schema")
    elif isinstance(exc, anthropic.APIStatusError):
        status = exc.status_code
        detail = exc.api_message or exc.type or ""
        # 408 (request timeout), 429 (rate limit), 529 (overloaded) and any 5xx are transient: the provider is
        # unavailable. Every other 4xx is our fault (bad key, bad request): a configuration or request bug.
        if status in (408, 429) or status >= 500:
            err = ProviderUnavailable(f"{call_site}: provider unavailable (HTTP {status} {detail})".rstrip())
        else:
            err = ProviderRequestRejected(f"{call_site}: provider rejected the request (HTTP {status} {detail})")
    elif isinstance(exc, anthropic.CredentialsError):
        err = ProviderRequestRejected(f"{call_site}: provider credentials are unusable ({exc})")
    else:
        err = ProviderUnavailable(f"{call_site}: provider error ({type(exc).__name__})")
    err.call_site = call_site
    return err


def output_invalid(call_site: str, problem: str) -> ProviderOutputInvalid:
    err = ProviderOutputInvalid(f"{call_site}: {problem}")
    err.call_site = call_site
    return err


def parse_tool_input(model: type[M], data: Mapping[str, Any], call_site: str) -> M:
    """Validate a tool input against its pydantic model; a schema violation is invalid provider output."""
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '<root>'}: {e['msg']}" for e in exc.errors())
        raise output_invalid(call_site, f"tool input violates the schema: {problems}") from None


def _usage(message: Any) -> dict[str, int]:
    usage = getattr(message, "usage", None)
    if usage is None:
        return {}
    keys = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
    return {k: int(v) for k in keys if isinstance(v := getattr(usage, k, None), int)}


def _malformed(message: Any) -> str | None:
    """Why a parsed reply is not a usable Messages reply (the SDK does not validate responses by default)."""
    if getattr(message, "type", None) != "message" or not isinstance(getattr(message, "content", None), list):
        return "the provider's response is not a Messages reply"
    if message.stop_reason in ("max_tokens", "refusal", "model_context_window_exceeded"):
        return f"the reply stopped early (stop_reason={message.stop_reason})"
    return None


def cached_system(system: str) -> list[dict[str, Any]]:
    """The system prompt as one text block marked as a prompt-cache breakpoint."""
    return [{"type": "text", "text": system, "cache_control": CACHE_EPHEMERAL}]


# ------------------------------------------------------------------------------------------- client


class ClaudeClient:
    """A thin, budgeted, error-translating wrapper around `anthropic.Anthropic().messages.create`."""

    def __init__(
        self, client: anthropic.Anthropic, *, model: str, max_tokens: int, clock: Callable[[], float] = monotonic_ms,
        read_timeout_s: float = 20.0,
    ) -> None:
        self._client = client
        self.model = model
        self.max_tokens = max_tokens
        self.read_timeout_s = read_timeout_s
        self._clock = clock
        self._slots = threading.BoundedSemaphore(CALL_THREADS)
        self._reach: tuple[float, str | None] | None = None

    @classmethod
    def from_settings(
        cls,
        *,
        api_key: str,
        base_url: str | None,
        model: str,
        max_tokens: int,
        read_timeout_s: float = 20.0,
        max_attempts: int = 2,
        http_client: httpx2.Client | None = None,
    ) -> ClaudeClient:
        """Build the client from settings. `base_url=None` lets the SDK read ANTHROPIC_BASE_URL."""
        timeout = httpx2.Timeout(read_timeout_s, connect=CONNECT_TIMEOUT_S)
        sdk = anthropic.Anthropic(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max(0, max_attempts - 1),  # "2 attempts in all" = one retry
            http_client=http_client,
        )
        return cls(sdk, model=model, max_tokens=max_tokens, read_timeout_s=read_timeout_s)

    def close(self) -> None:
        self._client.close()

    def reachable(self, timeout_s: float = 1.0, cache_s: float = 10.0) -> str | None:
        """None when the provider's host accepts a TCP connection, else why not. Cached `cache_s` seconds.

        For /ready: a configured provider whose URL does not answer cannot serve a turn, and saying "ok"
        would send traffic to a deployment that can only abstain. Never sends a Messages request (no cost).
        """
        now = time.monotonic()
        if self._reach is not None and now - self._reach[0] < cache_s:
            return self._reach[1]
        url = self._client.base_url
        host = url.host or "localhost"
        port = url.port or (443 if url.scheme == "https" else 80)
        problem: str | None = None
        try:
            socket.create_connection((host, port), timeout=timeout_s).close()
        except OSError as exc:
            problem = f"cannot reach {url.scheme}://{host}:{port} ({exc.strerror or type(exc).__name__})"
        self._reach = (now, problem)
        return problem

    def _timeout(self, remaining_s: float) -> httpx2.Timeout:
        """Each attempt's timeouts: the configured ones, cut to the time the turn has left."""
        cap = max(MIN_CALL_TIMEOUT_S, remaining_s)
        return httpx2.Timeout(min(self.read_timeout_s, cap), connect=min(CONNECT_TIMEOUT_S, cap))

    def _send(self, call_site: str, budget: RequestBudget, params: dict[str, Any]) -> Any:
        """The SDK call, waited for no longer than the budget's remaining time."""
        remaining_s = budget.remaining_ms() / 1000.0
        deadline = time.monotonic() + max(MIN_CALL_TIMEOUT_S, remaining_s)
        outcome: dict[str, Any] = {}
        done = threading.Event()

        def call() -> None:
            try:
                outcome["message"] = self._client.messages.create(
                    model=self.model, max_tokens=self.max_tokens, timeout=self._timeout(remaining_s), **params)
            except BaseException as exc:  # handed to the waiting turn, which translates it
                outcome["error"] = exc
            finally:
                done.set()
                self._slots.release()

        # A daemon thread per call (bounded by the semaphore): an abandoned call must hold neither the turn
        # nor the process's shutdown; it ends at its own timeouts.
        if not self._slots.acquire(timeout=max(0.0, deadline - time.monotonic())):
            raise self._past_deadline(call_site, remaining_s)
        threading.Thread(target=call, name=f"provider-{call_site}", daemon=True).start()
        if not done.wait(max(0.0, deadline - time.monotonic())):
            raise self._past_deadline(call_site, remaining_s)
        if "error" in outcome:
            raise outcome["error"]
        return outcome["message"]

    @staticmethod
    def _past_deadline(call_site: str, remaining_s: float) -> RequestBudgetExhausted:
        err = RequestBudgetExhausted(f"wall-clock budget spent during {call_site}: no provider reply within the "
                                     f"{remaining_s * 1000:.0f} ms the turn had left")
        err.call_site = call_site
        return err

    # ------------------------------------------------------------------------------------ raw call

    def create(self, call_site: str, budget: RequestBudget, **params: Any) -> Any:
        """One Messages call: budget check first, then the request, then usage and latency recorded."""
        budget.require(call_site)  # raises RequestBudgetExhausted before anything is sent
        started = self._clock()
        err: AnswerGenerationUnavailable | None = None
        cause: BaseException | None = None
        message: Any = None
        try:
            message = self._send(call_site, budget, params)
        except RequestBudgetExhausted as exc:
            _count(call_site, ok=False)
            budget.record(LlmCall(call_site, self._clock() - started, ok=False, error=str(exc)))
            log.warning("provider call abandoned at the turn's deadline: %s", exc)
            raise
        except anthropic.AnthropicError as exc:
            err, cause = translate_error(exc, call_site), exc
        except ValueError as exc:  # a 2xx whose body is not JSON at all
            err, cause = output_invalid(call_site, f"the provider's response is not JSON ({exc})"), exc
        if err is None:
            problem = _malformed(message)
            if problem is not None:
                err = output_invalid(call_site, problem)
        elapsed = self._clock() - started
        _count(call_site, ok=err is None)
        if err is not None:
            budget.record(LlmCall(call_site, elapsed, ok=False, usage=_usage(message), error=str(err)))
            log.warning("provider call failed: %s", err)
            raise err from cause
        budget.record(LlmCall(call_site, elapsed, ok=True, usage=_usage(message)))
        return message

    # -------------------------------------------------------------------------------- structured

    def call_tool(
        self,
        call_site: str,
        system: str,
        messages: Sequence[Mapping[str, Any]],
        tool: ToolSpec,
        budget: RequestBudget,
    ) -> dict[str, Any]:
        """Forced tool use: the tool's input is the structured output. Returns it (the raw provider output)."""
        message = self.create(
            call_site,
            budget,
            system=cached_system(system),
            messages=list(messages),
            tools=[tool.param()],
            tool_choice={"type": "tool", "name": tool.name},
        )
        for block in message.content:
            if getattr(block, "type", None) == "tool_use" and getattr(block, "name", None) == tool.name:
                data = block.input
                if not isinstance(data, dict):
                    raise output_invalid(call_site, f"tool {tool.name} input is not an object")
                return data
        raise output_invalid(call_site, f"the reply has no {tool.name} tool call")

    def call_with_search_results(
        self,
        call_site: str,
        system: str,
        query: str,
        blocks: Sequence[SearchResult],
        budget: RequestBudget,
    ) -> CitedReply:
        """Ask over `search_result` blocks with citations enabled; map the reply's text and its citations."""
        content: list[dict[str, Any]] = [b.param() for b in blocks]
        content.append({"type": "text", "text": query})
        message = self.create(
            call_site,
            budget,
            system=cached_system(system),
            messages=[{"role": "user", "content": content}],
        )
        try:
            parts = [_text_part(block, len(blocks), call_site) for block in message.content
                     if getattr(block, "type", None) == "text"]
        except (AttributeError, TypeError) as exc:  # a block missing its fields (responses are not validated)
            raise output_invalid(call_site, f"malformed text block or citation ({exc})") from exc
        return CitedReply(tuple(parts), message.stop_reason, raw=message.model_dump(mode="json", exclude_none=True))


def _text_part(block: Any, n_results: int, call_site: str) -> TextPart:
    spans: list[CitedSpan] = []
    for c in block.citations or ():
        if getattr(c, "type", None) != "search_result_location":
            raise output_invalid(call_site, f"unexpected citation type {getattr(c, 'type', None)!r}")
        if not 0 <= c.search_result_index < n_results:
            raise output_invalid(call_site, f"citation of search result {c.search_result_index}, "
                                            f"only {n_results} were sent")
        spans.append(CitedSpan(c.search_result_index, c.source, c.cited_text, c.start_block_index, c.end_block_index))
    if not isinstance(block.text, str):
        raise output_invalid(call_site, "a text block without text")
    return TextPart(block.text, tuple(spans))
