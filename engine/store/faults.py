"""A fault-injecting wrapper around any ConversationStore, shipped for tests of the engine's fail paths.

    store = FaultyStore(SqlStore(url))
    store.fail_reads()          # every read raises StoreUnavailable until heal()
    store.fail_writes(times=1)  # only the next write fails
"""

from __future__ import annotations

import threading
from datetime import datetime
from typing import Any

from core.errors import StoreUnavailable
from engine.store.base import (
    CLAIM_LEASE_MS,
    HISTORY_LINES,
    ConversationSnapshot,
    ConversationStore,
    ConversationUpdate,
    IdempotentTurn,
    TurnRecord,
)

ALWAYS: int = -1


class _Switch:
    """How many more calls fail: 0 none, ALWAYS every one, n the next n."""

    def __init__(self) -> None:
        self.remaining = 0
        self.injected = 0

    def trip(self) -> bool:
        if self.remaining == 0:
            return False
        if self.remaining > 0:
            self.remaining -= 1
        self.injected += 1
        return True


class FaultyStore:
    """Delegates to `inner`, except that reads (load, history, turns, ping) or writes (commit_turn, delete,
    purge) raise StoreUnavailable while switched on. Thread-safe; `close` always reaches the inner store."""

    def __init__(self, inner: ConversationStore) -> None:
        self.inner = inner
        self._lock = threading.Lock()
        self._reads = _Switch()
        self._writes = _Switch()

    # ------------------------------------------------------------------------------------- switches

    def fail_reads(self, times: int | None = None) -> None:
        """Fail the next `times` reads, or every read when `times` is None."""
        with self._lock:
            self._reads.remaining = ALWAYS if times is None else max(times, 0)

    def fail_writes(self, times: int | None = None) -> None:
        """Fail the next `times` writes, or every write when `times` is None."""
        with self._lock:
            self._writes.remaining = ALWAYS if times is None else max(times, 0)

    def heal(self) -> None:
        with self._lock:
            self._reads.remaining = 0
            self._writes.remaining = 0

    @property
    def injected_read_failures(self) -> int:
        return self._reads.injected

    @property
    def injected_write_failures(self) -> int:
        return self._writes.injected

    def _check(self, switch: _Switch, what: str) -> None:
        with self._lock:
            tripped = switch.trip()
        if tripped:
            raise StoreUnavailable(f"injected fault: conversation store {what} failed")

    # ---------------------------------------------------------------------------------------- reads

    def load(self, conversation_id: str, owner: str | None) -> ConversationSnapshot | None:
        self._check(self._reads, "read")
        return self.inner.load(conversation_id, owner)

    def history(self, conversation_id: str, lines: int = HISTORY_LINES) -> list[str]:
        self._check(self._reads, "read")
        return self.inner.history(conversation_id, lines)

    def load_with_history(
        self, conversation_id: str, owner: str | None, lines: int = HISTORY_LINES
    ) -> tuple[ConversationSnapshot | None, list[str]]:
        self._check(self._reads, "read")
        return self.inner.load_with_history(conversation_id, owner, lines)

    def turns(self, conversation_id: str) -> list[TurnRecord]:
        self._check(self._reads, "read")
        return self.inner.turns(conversation_id)

    def ping(self) -> None:
        self._check(self._reads, "read")
        self.inner.ping()

    def turns_page(self, conversation_id: str, offset: int, limit: int) -> list[TurnRecord]:
        self._check(self._reads, "read")
        return self.inner.turns_page(conversation_id, offset, limit)

    def find_idempotent(self, key: str) -> IdempotentTurn | None:
        self._check(self._reads, "read")
        return self.inner.find_idempotent(key)

    # --------------------------------------------------------------------------------------- writes

    def commit_turn(
        self,
        conversation_id: str,
        owner: str | None,
        expected_version: int,
        update: ConversationUpdate,
        turn: TurnRecord,
    ) -> int:
        self._check(self._writes, "write")
        return self.inner.commit_turn(conversation_id, owner, expected_version, update, turn)

    def delete(self, conversation_id: str, owner: str | None) -> bool:
        self._check(self._writes, "write")
        return self.inner.delete(conversation_id, owner)

    def purge(self, older_than: datetime) -> int:
        self._check(self._writes, "write")
        return self.inner.purge(older_than)

    def save_reply(self, conversation_id: str, key: str, reply: dict[str, Any]) -> None:
        self._check(self._writes, "write")
        self.inner.save_reply(conversation_id, key, reply)

    def claim_turn(self, conversation_id: str, version: int, token: str, lease_ms: int = CLAIM_LEASE_MS) -> None:
        self._check(self._writes, "write")
        self.inner.claim_turn(conversation_id, version, token, lease_ms)

    def claim_owner(self, conversation_id: str, owner: str) -> bool:
        self._check(self._writes, "write")
        return self.inner.claim_owner(conversation_id, owner)

    def close(self) -> None:
        self.inner.close()
