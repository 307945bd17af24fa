"""Soak: many generated conversations through the real embedded engine, every safety invariant after every turn.

    python -m tests.soak --conversations 10000        # `make soak`

Prints the number of conversations, turns and invariant violations (expected: zero); exits 1 on any
violation, after writing each failing conversation to fixtures/transcripts/pending/ (docs/replay.md).
The checker is the one the property tests use (tests/invariants.py).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

from engine.runner import Engine
from engine.store.sql import SqlStore
from tests.engine_kit import EngineKit, run_checked
from tests.invariants import save_failing_transcript
from tests.strategies import transcripts

RESTART_EVERY = 500
"""Rebuild the engine (same database) every this many conversations, as a long-running server restarts."""


@dataclass
class _Run:
    engine: Engine
    conversations: int = 0
    turns: int = 0
    violations: int = 0


def soak(conversations: int, *, seed: int | None, show: int = 5) -> int:
    data_dir = Path(tempfile.mkdtemp(prefix="formulary-soak-"))
    kit = EngineKit(data_dir)
    url = kit.sqlite_url("soak.db")
    store = SqlStore(url)
    state = _Run(kit.engine(store))
    outcomes: Counter[str] = Counter()
    failures: list[str] = []
    started = time.perf_counter()

    @settings(max_examples=conversations, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), derandomize=seed is None)
    @given(turns=transcripts())
    def one(turns: list[str]) -> None:
        if state.conversations and state.conversations % RESTART_EVERY == 0:
            state.engine = kit.engine(store)
        replies, problems = run_checked(state.engine, kit.checker, turns)
        state.conversations += 1
        state.turns += len(replies)
        outcomes.update(f"{r.outcome}/{r.reason}" for r in replies)
        if problems:
            state.violations += len(problems)
            saved = save_failing_transcript(turns[: len(replies)], replies, problems)
            failures.append(f"{problems[0]} (saved as {saved})")
        if state.conversations % 1000 == 0:
            print(f"  … {state.conversations} conversations, {state.turns} turns, {state.violations} violations",
                  file=sys.stderr, flush=True)

    try:
        (one if seed is None else hypothesis_seed(seed)(one))()
    finally:
        store.close()
        kit.close()
        shutil.rmtree(data_dir, ignore_errors=True)
    elapsed = time.perf_counter() - started
    for line in failures[:show]:
        print(f"VIOLATION {line}")
    top = ", ".join(f"{k} {v}" for k, v in outcomes.most_common(8))
    print(f"outcomes: {top}")
    print(f"{state.conversations} conversations, {state.turns} turns, {state.violations} invariant violations "
          f"({elapsed:.0f} s)")
    return 1 if state.violations else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=10_000, help="how many generated conversations")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: derandomized, repeatable)")
    args = parser.parse_args(argv)
    return soak(args.conversations, seed=args.seed)


if __name__ == "__main__":
    sys.exit(main())
