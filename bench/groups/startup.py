"""Cold start and ingest: how long until a server answers, and how long the real formulary text takes to index.

- cold start: `formulary-fsm serve --workers 1` from process start to `/ready` answering 200 (polled every
  20 ms), then its first turn; on an empty data directory (the fixture index is built at start-up) and on
  one whose index already exists (a restart), alternating, a few times each;
- ingest: `formulary-fsm ingest` of ../shared/realtext/ (the real formulary excerpts kept beside the
  repository, never inside it) as JSON Lines and as Markdown, each as a whole process; then a server on the
  ingested index answers a question about one of its drugs. Skipped, saying so, when the folder is absent.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.engines import offline_env
from bench.results import Distribution, GroupResult
from bench.server import REPO_ROOT, Server

TITLE = "cold start (process start → ready → first turn) and ingest of the real formulary text"
REPEATS = 3
REALTEXT = REPO_ROOT.parent / "shared" / "realtext"
FIRST_TURN = "Chống chỉ định của paracetamol là gì?"


def _start_to_ready(data_dir: Path) -> tuple[float, float]:
    """(seconds from spawn to ready, first turn's milliseconds)."""
    t0 = time.monotonic()
    with Server(offline_env(data_dir), workers=1, log=data_dir / "serve.log").start(poll_s=0.02) as server:
        ready_s = time.monotonic() - t0
        with httpx.Client(timeout=30) as client:
            t1 = time.monotonic()
            client.post(f"{server.url}/v1/rag/query", json={"message": FIRST_TURN}).raise_for_status()
            first_ms = (time.monotonic() - t1) * 1000
    return ready_s, first_ms


def _cold_start(result: GroupResult) -> None:
    fresh_s: list[float] = []
    restart_s: list[float] = []
    first_ms: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        for i in range(REPEATS):
            fresh_dir = Path(tmp) / f"fresh-{i}"
            fresh_dir.mkdir()
            ready, _ = _start_to_ready(fresh_dir)  # builds the fixture index first
            fresh_s.append(ready)
            ready, first = _start_to_ready(fresh_dir)  # the same directory again: a restart
            restart_s.append(ready)
            first_ms.append(first)
    result.figures["serve: start → ready, empty data dir (index built at start-up)"] = Distribution.of(fresh_s, "s")
    result.figures["serve: start → ready, index present (a restart)"] = Distribution.of(restart_s, "s")
    result.figures["first turn after ready (restart)"] = Distribution.of(first_ms)


def _ingest(result: GroupResult) -> None:
    if not REALTEXT.is_dir():
        result.notes.append(f"ingest of the real formulary text skipped: {REALTEXT} is absent on this machine")
        return
    sources = {"JSON Lines": sorted(REALTEXT.glob("*.jsonl")), "Markdown": [REALTEXT / "md"]}
    with tempfile.TemporaryDirectory(prefix="bench-ingest-") as tmp:
        for label, paths in sources.items():
            paths = [p for p in paths if p.exists()]
            if not paths:
                result.notes.append(f"no {label} files in {REALTEXT}")
                continue
            data_dir = Path(tmp) / label.replace(" ", "_")
            t0 = time.monotonic()
            done = subprocess.run([sys.executable, "-m", "engine.cli", "ingest", "--json", "--no-progress",
                                   *map(str, paths)], cwd=REPO_ROOT, env=offline_env(data_dir),
                                  capture_output=True, text=True, timeout=120)
            seconds = time.monotonic() - t0
            if done.returncode != 0:
                result.notes.append(f"ingest of {label} failed: {done.stderr.strip()[-300:]}")
                continue
            summary = json.loads(done.stdout.strip().splitlines()[-1])
            result.values[f"ingest {label} (whole process), s"] = round(seconds, 2)
            result.values[f"ingest {label}: monographs / chunks"] = f"{summary['monographs']} / {summary['chunks']}"
            if summary.get("errors"):
                result.notes.append(f"ingest of {label} reported: {summary['errors'][:3]}")
        answered = Path(tmp) / "JSON_Lines"
        if answered.is_dir():
            with Server(offline_env(answered), workers=1) as server, httpx.Client(timeout=30) as client:
                body = client.post(f"{server.url}/v1/rag/query", json={"message": FIRST_TURN}).json()
            result.values["a turn on the ingested real text: outcome"] = f"{body['outcome']} ({body['reason']})"


def run() -> GroupResult:
    result = GroupResult(group="startup", title=TITLE)
    result.setup = {
        "cold start": f"formulary-fsm serve --workers 1, offline providers, SQLite; {REPEATS}× an empty data dir, "
                      "then the same dir again (index present); /ready polled every 20 ms",
        "ingest": f"formulary-fsm ingest --json of {REALTEXT} (JSON Lines, then Markdown), each a whole process",
    }
    _cold_start(result)
    _ingest(result)
    return result
