"""`formulary-fsm signoff --by NAME [--role ROLE] [--note TEXT] [--fingerprint FP] [--list]`.

Records, in the conversation database, that NAME signed the spec this configuration runs (its fingerprint,
as printed on review.html). With --fingerprint the sign-off is refused unless it is the running one, so a
reviewer cannot sign a machine other than the one they read.
"""

from __future__ import annotations

import argparse

from core.errors import InvalidInput
from engine.config import load_settings
from engine.fingerprint import spec_fingerprint
from engine.signoff import signoffs_of
from engine.store.base import SignOff, SignOffStore
from engine.wiring import open_store, spec_from

MAX_NAME = 200
MAX_NOTE = 2000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--by", metavar="NAME", help="who signs (required unless --list)")
    parser.add_argument("--role", metavar="ROLE", help='e.g. "Dược sĩ lâm sàng", "Bác sĩ"')
    parser.add_argument("--note", metavar="TEXT", help="a remark kept with the sign-off")
    parser.add_argument("--fingerprint", metavar="FP",
                        help="the fingerprint read on review.html; refused if it is not the running spec's")
    parser.add_argument("--list", action="store_true", help="only list the sign-offs of the running spec")


def _text(value: str | None, name: str, limit: int) -> str | None:
    if value is None:
        return None
    value = value.strip()
    if len(value) > limit:
        raise InvalidInput(f"{name} is {len(value)} characters long; at most {limit}")
    return value or None


def _line(s: SignOff) -> str:
    when = s.signed_at.strftime("%Y-%m-%d %H:%M UTC") if s.signed_at else ""
    role = f" ({s.role})" if s.role else ""
    note = f" — {s.note}" if s.note else ""
    return f"  {when}  {s.signed_by}{role}{note}"


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    fingerprint = spec_fingerprint(spec_from(settings))
    if args.fingerprint is not None and args.fingerprint.strip() != fingerprint:
        raise InvalidInput(f"--fingerprint {args.fingerprint.strip()[:80]} is not the spec this configuration "
                           f"runs ({fingerprint}); regenerate the review (make review) and read it again")
    by = _text(args.by, "--by", MAX_NAME)
    if not args.list and by is None:
        raise InvalidInput("--by NAME is required: who signs the spec")
    store = open_store(settings)
    try:
        if not args.list:
            assert by is not None and isinstance(store, SignOffStore)
            stored = store.record_signoff(SignOff(spec_fingerprint=fingerprint, signed_by=by,
                                                  role=_text(args.role, "--role", MAX_NAME),
                                                  note=_text(args.note, "--note", MAX_NOTE)))
            print(f"signed: spec {fingerprint} by {stored.signed_by}")
        found = signoffs_of(store, fingerprint)
    finally:
        store.close()
    print(f"sign-offs of spec {fingerprint}: {len(found)}")
    for s in found:
        print(_line(s))
    return 0
