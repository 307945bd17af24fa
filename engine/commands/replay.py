"""`formulary-fsm replay`: check transcripts against the machine, or re-run a stored conversation.

    formulary-fsm replay fixtures/transcripts/            # golden transcripts; last line "N passed, M failed"
    formulary-fsm replay my.jsonl --json                  # machine-readable results
    formulary-fsm replay --conversation 3f2c…             # audit: what would it do under the current spec?

Each conversation runs through a fresh engine on its own temporary SQLite store, over the index under
DATA_DIR (the fixture formulary's is built when there is none). Providers are the offline ones (rules,
extractive, lexical) unless --configured-providers is given.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core.errors import ConversationNotFound, InvalidInput
from engine.config import Settings, load_settings
from engine.replay import ReplaySummary, load_transcripts, run_transcripts
from engine.runner import Engine
from engine.store.sql import SqlStore
from engine.stored_replay import replay_stored
from engine.wiring import build_engine, open_index, open_store
from retrieval.index import FormularyIndex

OFFLINE = {"answer_provider": "extractive", "understanding_provider": "rules", "verifier": "lexical"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", metavar="FILE_OR_DIR",
                        help="transcript files (JSON Lines), or directories whose *.jsonl files are replayed")
    parser.add_argument("--json", action="store_true",
                        help="print the results as one JSON document instead of text")
    parser.add_argument("--conversation", metavar="ID",
                        help="re-run a stored conversation (from DATABASE_URL / DATA_DIR) against the current spec "
                             "with its recorded provider outputs; report where route, outcome or reason now differ")
    parser.add_argument("--configured-providers", action="store_true",
                        help="use the providers configured in the environment instead of the offline ones")
    parser.epilog = ("Counts are TURNS: a turn passes when every expectation it states holds. "
                     "Exit status 1 when any turn fails (or, with --conversation, when any turn now differs).")


def _settings(args: argparse.Namespace) -> Settings:
    return load_settings() if args.configured_providers else load_settings(**OFFLINE)


class FreshEngines:
    """Engines, each on its own new SQLite database under one temporary directory, sharing one opened index."""

    def __init__(self, settings: Settings, index: FormularyIndex, directory: Path) -> None:
        self.settings = settings
        self.index = index
        self.directory = directory
        self._n = 0

    @contextmanager
    def __call__(self) -> Iterator[Engine]:
        self._n += 1
        store = SqlStore(f"sqlite:///{(self.directory / f'conversation-{self._n}.db').as_posix()}")
        try:
            yield build_engine(self.settings, index=self.index, store=store).engine
        finally:
            store.close()


def run(args: argparse.Namespace) -> int:
    if args.conversation:
        return _replay_stored(args)
    if not args.paths:
        raise InvalidInput("give transcript files or directories, or --conversation ID")
    transcripts = load_transcripts(args.paths)
    settings = _settings(args)
    index = open_index(settings, progress=False)
    try:
        with tempfile.TemporaryDirectory(prefix="formulary-replay-") as tmp:
            results = []
            for result in run_transcripts(transcripts, FreshEngines(settings, index, Path(tmp))):
                results.append(result)
                if not result.passed and not args.json:
                    print(result.line(), flush=True)
    finally:
        index.close()
    summary = ReplaySummary.of(results)
    if args.json:
        print(summary.model_dump_json(indent=2))
    else:
        print(summary.last_line())
    return 1 if summary.failed else 0


def _replay_stored(args: argparse.Namespace) -> int:
    settings = _settings(args)
    source = open_store(settings)
    try:
        if source.load(args.conversation, None) is None and not source.turns(args.conversation):
            raise ConversationNotFound(f"no stored conversation {args.conversation}")
        turns = source.turns(args.conversation)
    finally:
        source.close()
    index = open_index(settings, progress=False)
    try:
        with tempfile.TemporaryDirectory(prefix="formulary-audit-") as tmp:
            store = SqlStore(f"sqlite:///{Path(tmp) / 'replay.db'}")
            try:
                engine = build_engine(settings, index=index, store=store).engine
                diffs = replay_stored(engine, turns)
            finally:
                store.close()
    finally:
        index.close()
    changed = sum(bool(d.changed) for d in diffs)
    if args.json:
        print(json.dumps({"conversation": args.conversation, "unchanged": len(diffs) - changed, "changed": changed,
                          "turns": [d.model_dump() for d in diffs]}, ensure_ascii=False, indent=2))
    else:
        for d in diffs:
            print(d.line())
        print(f"{len(diffs) - changed} unchanged, {changed} changed")
    sys.stdout.flush()
    return 1 if changed else 0
