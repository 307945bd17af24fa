"""`formulary-fsm bench [--group NAME]`: run the benchmarks (`python -m bench.run`) from a source checkout.

The benchmarks live in the repository's `bench/` folder, not in the installed package; this command runs
them with the same interpreter, from the checkout's root, and writes bench/results.json and RESULTS.md.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--group", default="all",
                        help="machine, understanding, turn, store, llm, retrieval, http, concurrency, or all")


def run(args: argparse.Namespace) -> int:
    if not (REPO_ROOT / "bench" / "run.py").is_file():
        raise SystemExit(f"formulary-fsm bench: no bench/ folder under {REPO_ROOT}; run it from a source checkout")
    return subprocess.call([sys.executable, "-m", "bench.run", "--group", args.group], cwd=REPO_ROOT)
