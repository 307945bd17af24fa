"""`formulary-fsm review --out DIR [--lang vi|en] [--check] [--conversation ID]`."""

from __future__ import annotations

import argparse
from pathlib import Path

from core.errors import ConversationNotFound, StoreError
from engine.config import Settings, load_settings
from engine.fingerprint import spec_fingerprint
from engine.review.examples import collect_examples
from engine.review.export import drift, write_export, write_overlay
from engine.signoff import signoffs_of
from engine.store.base import SignOff
from engine.wiring import open_store, spec_from


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, default=Path("docs/review"), help="output directory")
    parser.add_argument("--lang", choices=["vi", "en"], default="vi", help="label language")
    parser.add_argument("--check", action="store_true", help="only report whether --out matches the running spec")
    parser.add_argument("--conversation", metavar="ID", help="draw this stored conversation's path over the diagram")
    parser.add_argument("--no-examples", action="store_true",
                        help="skip the example conversations (they run the golden transcripts; a few seconds)")


def _signoffs(settings: Settings, fingerprint: str) -> list[SignOff] | None:
    """The recorded sign-offs of this fingerprint; None when the database cannot be read (the page says so)."""
    try:
        store = open_store(settings)
    except StoreError:
        return None
    try:
        return signoffs_of(store, fingerprint)
    except StoreError:
        return None
    finally:
        store.close()


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
        signoffs = _signoffs(settings, spec_fingerprint(spec))
        examples = None if args.no_examples else collect_examples(spec, settings)
        messages = write_export(spec, args.out, args.lang, signoffs=signoffs, examples=examples)
        print(f"review export written to {args.out}")
        if signoffs is None:
            messages.append("the sign-offs could not be read (the page says so)")
    for m in messages:
        print(f"note: {m}")
    return 0
