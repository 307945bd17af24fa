"""`formulary-fsm review --out DIR [--lang vi|en] [--check] [--conversation ID]`."""

from __future__ import annotations

import argparse
from pathlib import Path

from core.errors import ConversationNotFound
from engine.config import load_settings
from engine.review.export import drift, write_export, write_overlay
from engine.wiring import open_store, spec_from


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, default=Path("docs/review"), help="output directory")
    parser.add_argument("--lang", choices=["vi", "en"], default="vi", help="label language")
    parser.add_argument("--check", action="store_true", help="only report whether --out matches the running spec")
    parser.add_argument("--conversation", metavar="ID", help="draw this stored conversation's path over the diagram")


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    spec = spec_from(settings)
    if args.check:
        problems = drift(spec, args.out, args.lang)
        for p in problems:
            print(p)
        print("review export is current" if not problems else f"{len(problems)} file(s) out of date")
        return 1 if problems else 0
    if args.conversation:
        store = open_store(settings)
        try:
            turns = [t.model_dump(mode="json") for t in store.turns(args.conversation)]
        finally:
            store.close()
        if not turns:
            raise ConversationNotFound(f"no stored turns for conversation {args.conversation}")
        messages = write_overlay(spec, turns, args.out, args.lang)
        print(f"path overlay of {len(turns)} turn(s) written to {args.out}")
    else:
        messages = write_export(spec, args.out, args.lang)
        print(f"review export written to {args.out}")
    for m in messages:
        print(f"note: {m}")
    return 0
