"""The real embedded engine for property, stateful and soak runs: one index built and opened per process,
engines and SQLite stores made cheaply on top of it."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.config import Settings
from engine.reply import Reply
from engine.runner import Engine
from engine.spec import MachineSpec, build_spec
from engine.store.sql import SqlStore
from engine.wiring import build_engine, open_index
from tests.invariants import ChunkBook, InvariantChecker

OFFLINE: dict[str, Any] = {"answer_provider": "extractive", "understanding_provider": "rules", "verifier": "lexical"}


class EngineKit:
    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.settings = Settings(data_dir=data_dir, **OFFLINE)
        # Builds the fixture formulary's index under data_dir when there is none; opens a read-only copy.
        self.index = open_index(self.settings)
        self.chunks = ChunkBook.from_index(self.index)
        self.spec = build_spec()
        self.checker = InvariantChecker(self.spec, self.chunks)
        self._n = 0
        # Conversation databases on tmpfs when there is one: the runs commit thousands of turns, and fsync on a
        # disk would dominate them. The store code is the same; only the file lives in memory.
        shm = Path("/dev/shm")
        self.db_dir = Path(tempfile.mkdtemp(prefix="formulary-db-", dir=shm if shm.is_dir() else data_dir))

    def sqlite_url(self, name: str | None = None) -> str:
        self._n += 1
        return f"sqlite:///{(self.db_dir / (name or f'conversations-{self._n}.db')).as_posix()}"

    def engine(self, store: Any, *, spec: MachineSpec | None = None, **settings: Any) -> Engine:
        s = self.settings.model_copy(update=settings) if settings else self.settings
        return build_engine(s, index=self.index, store=store, spec=spec).engine

    def close(self) -> None:
        self.index.close()
        shutil.rmtree(self.db_dir, ignore_errors=True)


def run_checked(engine: Engine, checker: InvariantChecker, turns: Sequence[str]) -> tuple[list[Reply], list[str]]:
    """Run one new conversation; stop at the first turn that breaks an invariant."""
    conversation = checker.conversation()
    replies: list[Reply] = []
    cid: str | None = None
    for text in turns:
        reply = engine.handle(text, cid)
        cid = reply.conversation_id
        replies.append(reply)
        problems = conversation.after_turn(text, reply)
        if problems:
            return replies, [f"turn {len(replies)} «{text}»: {p}" for p in problems]
    return replies, []


def reopen(url: str) -> SqlStore:
    """The same database through a new store object (the schema is already at head)."""
    return SqlStore(url, run_migrations=False)
