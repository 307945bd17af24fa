"""`formulary-fsm serve`. TODO: implemented by its issue."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    return None


def run(args: argparse.Namespace) -> int:
    raise SystemExit("formulary-fsm serve: not implemented yet")
