"""Concurrent conversations over HTTP (httpx AsyncClient, 127.0.0.1 only): each conversation sends its turns in
order, carrying the conversation id it was given; all conversations run at once. Bounded: a fixed number of
turns, a per-request timeout, and one overall timeout."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import httpx

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

    @property
    def ok(self) -> int:
        return len(self.latencies_ms)


async def _conversation(client: httpx.AsyncClient, turns: list[str], out: LoadResult) -> None:
    cid: str | None = None
    for text in turns:
        t0 = now_ms()
        try:
            response = await client.post("/v1/rag/query", json={"message": text, "conversation_id": cid})
        except httpx.HTTPError as exc:
            out.errors.append(f"{type(exc).__name__}: {exc}"[:200])
            continue
        elapsed = now_ms() - t0
        if response.status_code != 200:
            out.errors.append(f"HTTP {response.status_code}: {response.text[:160]}")
            continue
        body = response.json()
        cid = body["conversation_id"]
        out.conversation_ids.add(cid)
        out.latencies_ms.append(elapsed)
        out.outcomes[body["outcome"]] = out.outcomes.get(body["outcome"], 0) + 1
        if not body.get("persisted", True):
            out.not_persisted += 1


async def _run(base_url: str, conversations: list[list[str]], timeout_s: float, overall_s: float) -> LoadResult:
    out = LoadResult()
    limits = httpx.Limits(max_connections=len(conversations) + 5, max_keepalive_connections=len(conversations) + 5)
    async with httpx.AsyncClient(base_url=base_url, timeout=timeout_s, limits=limits) as client:
        t0 = now_ms()
        tasks = [asyncio.create_task(_conversation(client, turns, out)) for turns in conversations]
        done, pending = await asyncio.wait(tasks, timeout=overall_s)
        for task in pending:
            task.cancel()
        if pending:
            out.errors.append(f"{len(pending)} conversations did not finish within {overall_s:.0f} s")
        out.wall_s = (now_ms() - t0) / 1000
    return out


def run_load(base_url: str, conversations: list[list[str]], *, timeout_s: float = 30.0,
             overall_s: float = 120.0) -> LoadResult:
    if not base_url.startswith("http://127.0.0.1:"):
        raise ValueError("the load benchmark only talks to 127.0.0.1")
    return asyncio.run(_run(base_url, conversations, timeout_s, overall_s))
