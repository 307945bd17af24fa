"""HTTP load (issues 8, 22): 50 concurrent conversations × 10 turns, loopback, offline providers, two setups.

- the default (`make run`): `formulary-fsm serve --workers 1` on SQLite under DATA_DIR;
- the scale-out: `formulary-fsm serve --workers 2` on a fresh PostgreSQL schema (DATABASE_URL).

Both use the embedded Qdrant Edge index, the offline providers and the default turn pool (WORKER_THREADS
unset: sized for the store); each setup is also run with its former default (32 threads on SQLite, 16 on
PostgreSQL), beside it. 50 conversations run at once, each sending its 10 turns in order
(follow-ups carry the conversation id). Each conversation's turns are a slice of the golden transcripts'
user turns and the labelled texts, so the load mixes answers, clarifications, abstentions and follow-ups.
Afterwards the turns table is counted: every successful reply must be a stored turn (no lost turns).
"""

from __future__ import annotations

import sqlite3
import tempfile
import threading
from pathlib import Path

from bench.engines import offline_env
from bench.fixture import conversations
from bench.load import LoadResult, run_load
from bench.pg import count_turns, fresh_schema, postgres_problem
from bench.results import Distribution, GroupResult, at_least, at_most, exactly
from bench.server import Server, connections_per_worker

TITLE = "HTTP load: 50 concurrent conversations × 10 turns, loopback: 1 worker on SQLite, 2 workers on PostgreSQL"
CONVERSATIONS = 50
TURNS_EACH = 10
TARGET_PG_TURNS_PER_S = 200.0
TARGET_PG_P99_MS = 250.0
TARGET_SQLITE_P99_MS = 300.0


def conversation_scripts(n: int, turns_each: int) -> list[list[str]]:
    """`n` conversations of `turns_each` turns, cut in order from the flattened realistic mix."""
    flat = [t for conv in conversations() for t in conv]
    return [[flat[(i * turns_each + j) % len(flat)] for j in range(turns_each)] for i in range(n)]


def _sqlite_turns(db: Path, conversation_ids: list[str]) -> int:
    with sqlite3.connect(db) as conn:
        marks = ",".join("?" * len(conversation_ids))
        row = conn.execute(f"SELECT count(*) FROM turns WHERE conversation_id IN ({marks})", conversation_ids).fetchone()
    return int(row[0]) if row else 0


def _serve(env: dict[str, str], workers: int, log: Path) -> tuple[LoadResult, LoadResult, list[str], list[int]]:
    split: list[int] = []
    with Server(env, workers=workers, log=log) as server:
        # Warm the workers (first requests import lazily and warm caches); these conversations are not counted.
        warm = run_load(server.url, conversation_scripts(10, 2))
        # One second into the load, which worker holds which of the keep-alive connections (they stay put).
        probe = threading.Timer(1.0, lambda: split.extend(connections_per_worker(server)))
        probe.start()
        load = run_load(server.url, conversation_scripts(CONVERSATIONS, TURNS_EACH), overall_s=150)
        probe.cancel()
        probe.join()
    return warm, load, sorted(load.conversation_ids), split


def _report(result: GroupResult, label: str, load: LoadResult, warm: LoadResult, stored: int,
            split: list[int]) -> tuple[float, float]:
    throughput = load.ok / load.wall_s if load.wall_s else 0.0
    p99 = float("inf")
    if load.latencies_ms:
        latency = Distribution.of(load.latencies_ms)
        result.figures[f"{label}: turn latency over HTTP (client-side, under load)"] = latency
        p99 = latency.p99
    result.values.update({
        f"{label}: successful replies": load.ok, f"{label}: errors": len(load.errors),
        f"{label}: lost turns (successful replies − stored turns)": load.ok - stored,
        f"{label}: replies saying not persisted": load.not_persisted, f"{label}: wall clock, s": round(load.wall_s, 2),
        f"{label}: load generator CPU share of the machine":
            f"{load.client_cpu_s / (2 * load.wall_s):.0%}" if load.wall_s else "",
        f"{label}: throughput, turns/s": round(throughput, 1),
        f"{label}: connections held by each worker process, 1 s into the load": " / ".join(map(str, split)),
    })
    if warm.errors:
        result.notes.append(f"{label}: warm-up errors: {warm.errors[:3]}")
    result.notes += [f"{label}: error: {e}" for e in load.errors[:3]]
    result.targets += [
        exactly(8, f"{label}: errors", len(load.errors), 0),
        exactly(8, f"{label}: lost turns (successful replies − turns in the database)", load.ok - stored, 0),
    ]
    return throughput, p99


def run() -> GroupResult:
    result = GroupResult(group="http", title=TITLE)
    result.setup = {
        "default": "formulary-fsm serve --workers 1 on 127.0.0.1, SQLite under DATA_DIR, WORKER_THREADS unset "
                   "(the store-sized default); then the same with WORKER_THREADS=32 (the former default)",
        "scale-out": "formulary-fsm serve --workers 2 (each worker on its own SO_REUSEPORT socket), DATABASE_URL = "
                     "PostgreSQL (fresh schema), WORKER_THREADS unset (the store-sized default); then the same with "
                     "WORKER_THREADS=16 (the former default)",
        "both": "Qdrant Edge fixture index; rules + extractive + lexical",
        "client": f"minimal asyncio HTTP/1.1 keep-alive client (bench/load.py), {CONVERSATIONS} conversations at "
                  f"once × {TURNS_EACH} turns each, in order; warm-up 10 conversations × 2 turns, not counted",
    }
    sqlite_p99 = {}
    for label, extra in (("SQLite, 1 worker", {}), ("SQLite, 1 worker, 32 threads", {"WORKER_THREADS": "32"})):
        with tempfile.TemporaryDirectory(prefix="bench-http-") as tmp:
            data_dir = Path(tmp)
            warm, load, ids, split = _serve(offline_env(data_dir, **extra), 1, data_dir / "serve.log")
            stored = _sqlite_turns(data_dir / "formulary.db", ids) if ids else 0
        throughput, sqlite_p99[label] = _report(result, label, load, warm, stored, split)
    result.targets.append(at_most(22, "SQLite, 1 worker (the make run default): p99 under load",
                                  sqlite_p99["SQLite, 1 worker"], TARGET_SQLITE_P99_MS, "ms", label="p99 ",
                                  fmt="{:.0f}"))
    problem = postgres_problem()
    if problem:
        result.status = "partial"
        result.notes.append(problem)
        result.targets.append(at_least(22, "PostgreSQL, 2 workers: throughput", None, TARGET_PG_TURNS_PER_S, "turns/s"))
        return result
    measured: dict[str, tuple[float, float]] = {}
    for label, extra in (("PostgreSQL, 2 workers", {}), ("PostgreSQL, 2 workers, 16 threads", {"WORKER_THREADS": "16"})):
        with tempfile.TemporaryDirectory(prefix="bench-http-") as tmp, fresh_schema("bench_http") as (url, schema):
            data_dir = Path(tmp)
            warm, load, ids, split = _serve(offline_env(data_dir, DATABASE_URL=url, **extra), 2,
                                            data_dir / "serve.log")
            stored = count_turns(schema, ids)
        measured[label] = _report(result, label, load, warm, stored, split)
    label = "PostgreSQL, 2 workers"
    throughput, p99 = measured[label]
    result.targets += [
        at_least(22, f"{label}: throughput (50 × 10 over HTTP)", throughput, TARGET_PG_TURNS_PER_S, "turns/s",
                 fmt="{:.0f}"),
        at_most(22, f"{label}: p99 under load", p99, TARGET_PG_P99_MS, "ms", label="p99 ", fmt="{:.0f}"),
    ]
    if throughput < TARGET_PG_TURNS_PER_S or p99 > TARGET_PG_P99_MS:
        result.notes.append(
            "The load is closed-loop: 50 conversations each wait for their reply, so the mean latency is about "
            "50 ÷ throughput (Little's law), and throughput is bounded by the CPU a turn costs (see the turn "
            "group): the load generator, the supervisor, the workers and PostgreSQL share the 2 cores.")
    return result
