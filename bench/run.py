"""`python -m bench.run --group NAME|all`: run benchmark groups, one subprocess each, and write the results.

Each group runs in a fresh interpreter (`python -m bench.run --worker NAME --out FILE`), so one group's
imports, caches, threads and heap never colour another's figures, and a group that hangs is killed at its
time limit instead of stalling the run. Groups run one after another (never two at once on 2 cores).

A run of one group replaces that group's entry in bench/results.json and keeps the others, so RESULTS.md
always shows the latest figure of every group, each with the date it was measured.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from datetime import UTC, datetime
from importlib import import_module
from pathlib import Path

from bench import environment
from bench.groups import GROUPS
from bench.report import render
from bench.results import GroupResult, Results

BENCH_DIR = Path(__file__).resolve().parent
RESULTS_JSON = BENCH_DIR / "results.json"
RESULTS_MD = BENCH_DIR / "RESULTS.md"
TOTAL_BUDGET_S = 570.0
"""`make bench` must finish within 10 minutes on a 2-core machine; keep a margin for start-up and writing."""
TIME_LIMIT_S: dict[str, float] = {
    "machine": 60, "understanding": 45, "turn": 90, "orchestration": 75, "scale": 150, "store": 90, "llm": 90,
    "retrieval": 200, "http": 150, "concurrency": 90, "startup": 120,
}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# ------------------------------------------------------------------------------------------- worker side


def run_worker(group: str, out: Path) -> int:
    """Inside the group's own process: run it and write its GroupResult as JSON to `out`."""
    module = import_module(f"bench.groups.{group}")
    started, t0 = _now(), time.monotonic()
    try:
        result: GroupResult = module.run()
    except Exception as exc:
        result = GroupResult(group=group, title=getattr(module, "TITLE", ""), status="failed",
                             error=f"{type(exc).__name__}: {exc}",
                             notes=[line for line in traceback.format_exc().splitlines()[-6:]])
    result.group = group
    result.title = result.title or getattr(module, "TITLE", "")
    result.started_at = started
    result.duration_s = round(time.monotonic() - t0, 2)
    out.write_text(result.model_dump_json(indent=1), encoding="utf-8")
    return 0


# ------------------------------------------------------------------------------------------- parent side


def _spawn(group: str, limit_s: float) -> GroupResult:
    with tempfile.TemporaryDirectory(prefix=f"bench-{group}-") as tmp:
        out = Path(tmp) / "result.json"
        cmd = [sys.executable, "-m", "bench.run", "--worker", group, "--out", str(out)]
        started, t0 = _now(), time.monotonic()
        # Its own session, so a timeout ends the group and every server it started, and nothing else.
        proc = subprocess.Popen(cmd, cwd=BENCH_DIR.parent, start_new_session=True)
        try:
            proc.wait(timeout=limit_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            return GroupResult(group=group, status="timed_out", started_at=started,
                               duration_s=round(time.monotonic() - t0, 2),
                               error=f"the group did not finish within its {limit_s:.0f} s limit")
        if out.is_file():
            return GroupResult.model_validate_json(out.read_text(encoding="utf-8"))
        return GroupResult(group=group, status="failed", started_at=started,
                           duration_s=round(time.monotonic() - t0, 2),
                           error=f"the group's process exited with {proc.returncode} and wrote no result")


def _load_previous() -> Results:
    try:
        return Results.model_validate_json(RESULTS_JSON.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Results()


def run_groups(groups: list[str]) -> Results:
    t0 = time.monotonic()
    results = _load_previous()
    results.environment = environment.describe()
    for group in groups:
        left = TOTAL_BUDGET_S - (time.monotonic() - t0)
        limit = min(TIME_LIMIT_S.get(group, 120), left)
        if limit < 10:
            results.groups[group] = GroupResult(group=group, status="skipped", started_at=_now(),
                                                error="no time left in the 10-minute budget")
            continue
        print(f"bench: {group} (limit {limit:.0f} s) …", file=sys.stderr, flush=True)
        result = _spawn(group, limit)
        results.groups[group] = result
        met = sum(1 for t in result.targets if t.met)
        print(f"bench: {group}: {result.status} in {result.duration_s:.1f} s; targets met {met}/"
              f"{len(result.targets)}" + (f"; {result.error}" if result.error else ""), file=sys.stderr, flush=True)
        _write(results)  # after every group, so an interrupted run keeps what it measured
    info: dict[str, object] = {"groups": groups, "finished_at": _now(),
                               "duration_s": round(time.monotonic() - t0, 1), "budget_s": TOTAL_BUDGET_S}
    # The whole run's figures stay beside a later single-group run, which only replaces its own group.
    results.run = info if groups == list(GROUPS) else {**results.run, "latest_partial_run": info}
    _write(results)
    return results


def _write(results: Results) -> None:
    RESULTS_JSON.write_text(json.dumps(results.model_dump(mode="json"), indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
    RESULTS_MD.write_text(render(results), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.splitlines()[0])
    parser.add_argument("--group", default="all", help=f"one of {', '.join(GROUPS)}, or all (default)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return run_worker(args.worker, args.out)
    names = list(GROUPS) if args.group == "all" else [g.strip() for g in args.group.split(",") if g.strip()]
    unknown = [g for g in names if g not in GROUPS]
    if unknown:
        parser.error(f"unknown group {', '.join(unknown)}; choose from {', '.join(GROUPS)} or all")
    run_groups(names)
    print(f"bench: wrote {RESULTS_JSON.relative_to(BENCH_DIR.parent)} and {RESULTS_MD.relative_to(BENCH_DIR.parent)}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
