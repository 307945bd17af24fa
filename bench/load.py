"""Concurrent conversations over HTTP (127.0.0.1 only): each conversation sends its turns in order, carrying the
conversation id it was given; all conversations run at once. Bounded: a fixed number of turns, a per-request
timeout, and one overall timeout.

The client is a minimal HTTP/1.1 keep-alive client on asyncio streams (one connection per conversation), not
httpx: on a 2-core machine the load generator competes with the server it measures, and httpx's per-request
CPU took 39% of the machine in this benchmark. Its own CPU is still reported next to the figures."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field

from bench.timing import now_ms


@dataclass
class LoadResult:
    latencies_ms: list[float] = field(default_factory=list)
    """Per successful turn."""
    errors: list[str] = field(default_factory=list)
    conversation_ids: set[str] = field(default_factory=set)
    outcomes: dict[str, int] = field(default_factory=dict)
    not_persisted: int = 0
    wall_s: float = 0.0
    client_cpu_s: float = 0.0
    """CPU the load generator itself used: on a 2-core machine it competes with the server it measures."""

    @property
    def ok(self) -> int:
        return len(self.latencies_ms)


class _Connection:
    """One keep-alive HTTP/1.1 connection: POST a JSON body, read status + Content-Length body."""

    def __init__(self, host: str, port: int, timeout_s: float) -> None:
        self.host, self.port, self.timeout_s = host, port, timeout_s
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post_json(self, path: str, payload: dict[str, object]) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        body = json.dumps(payload, ensure_ascii=False).encode()
        head = (f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n").encode()
        self.writer.write(head + body)
        return await asyncio.wait_for(self._response(self.reader), self.timeout_s)

    @staticmethod
    async def _response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionError("server closed the connection")
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        return status, await reader.readexactly(length)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()


async def _conversation(base_url: str, turns: list[str], out: LoadResult, timeout_s: float) -> None:
    host, port = base_url.removeprefix("http://").rstrip("/").split(":")
    conn = _Connection(host, int(port), timeout_s)
    cid: str | None = None
    try:
        for text in turns:
            t0 = now_ms()
            try:
                status, raw = await conn.post_json("/v1/rag/query", {"message": text, "conversation_id": cid})
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
                out.errors.append(f"{type(exc).__name__}: {exc}"[:200])
                await conn.close()
                conn = _Connection(host, int(port), timeout_s)
                continue
            elapsed = now_ms() - t0
            if status != 200:
                out.errors.append(f"HTTP {status}: {raw[:160].decode(errors='replace')}")
                continue
            cid = _record(json.loads(raw), elapsed, out)
    finally:
        await conn.close()


def _record(body: dict[str, object], elapsed: float, out: LoadResult) -> str:
    """Count one successful reply; return the conversation id to send next."""
    cid = str(body["conversation_id"])
    out.conversation_ids.add(cid)
    out.latencies_ms.append(elapsed)
    outcome = str(body["outcome"])
    out.outcomes[outcome] = out.outcomes.get(outcome, 0) + 1
    if not body.get("persisted", True):
        out.not_persisted += 1
    return cid


async def _run(base_url: str, conversations: list[list[str]], timeout_s: float, overall_s: float) -> LoadResult:
    out = LoadResult()
    t0 = now_ms()
    cpu0 = time.process_time()
    tasks = [asyncio.create_task(_conversation(base_url, turns, out, timeout_s)) for turns in conversations]
    done, pending = await asyncio.wait(tasks, timeout=overall_s)
    for task in pending:
        task.cancel()
    if pending:
        out.errors.append(f"{len(pending)} conversations did not finish within {overall_s:.0f} s")
    out.wall_s = (now_ms() - t0) / 1000
    out.client_cpu_s = time.process_time() - cpu0
    return out


def run_load(base_url: str, conversations: list[list[str]], *, timeout_s: float = 30.0,
             overall_s: float = 120.0) -> LoadResult:
    if not base_url.startswith("http://127.0.0.1:"):
        raise ValueError("the load benchmark only talks to 127.0.0.1")
    return asyncio.run(_run(base_url, conversations, timeout_s, overall_s))
