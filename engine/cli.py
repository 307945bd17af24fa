"""`formulary-fsm` — one subcommand per module in engine/commands/ (add_arguments + run)."""

from __future__ import annotations

import argparse
import importlib
import sys

from core.errors import EngineError

COMMANDS = {
    "serve": "Serve the HTTP chat backend (uvicorn)",
    "chat": "Chat in the terminal with the same engine",
    "ingest": "Build the formulary index under DATA_DIR from JSON Lines or Markdown",
    "understand": "Print what the machine understood of one turn (the frame, as JSON)",
    "replay": "Replay transcripts, or a stored conversation, and check expectations",
    "review": "Export the machine for clinical review (diagram, routing table, fingerprint)",
    "signoff": "Record a reviewer's sign-off of the running spec fingerprint (checked by REQUIRE_SIGNOFF=true)",
    "bench": "Run the benchmarks (writes bench/results.json and bench/RESULTS.md)",
    "purge": "Delete conversations older than the retention limit",
    "claim": "Give a conversation created with auth off to one API key (admin)",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="formulary-fsm", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in COMMANDS.items():
        module = importlib.import_module(f"engine.commands.{name}")
        command_parser = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(command_parser)
    args = parser.parse_args(argv)
    module = importlib.import_module(f"engine.commands.{args.command}")
    try:
        return int(module.run(args) or 0)
    except EngineError as exc:
        print(f"formulary-fsm {args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
