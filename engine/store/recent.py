"""The conversations this process committed last, remembered so the next turn's read is one primary-key lookup.

A turn reads its conversation (snapshot and history window) right after the previous turn of the same
conversation committed, usually in the same process. The full read (hot_path.HotPath.load_with_history) runs the
history subquery, builds and parses its JSON, and validates the stored frame; here the process keeps what it
committed (the snapshot as that commit left the row, and the newest turns' text), and a read asks the database
only for the row's `version`, `owner` and `updated_at`. When those are the ones this process wrote, the row and
its turns are exactly what it remembers (every write of a conversation's state or turns is a commit, which bumps
the version and stamps `updated_at`; an owner claim changes `owner`; a deleted row is not found); anything else
— another process's commit, a claimed owner, a row deleted and made again — is a miss, read in full.

The database stays the one source of truth: nothing here is read without that check, a write never goes through
here, and losing the whole memory (a restart, an eviction) only costs the full read again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from engine.store.base import ConversationSnapshot, ConversationUpdate

KEEP = 1024
"""Conversations remembered (least recently used forgotten first): a few hundred KB at most."""


@dataclass(frozen=True)
class Remembered:
    snapshot: ConversationSnapshot
    """The snapshot as the row holds it (the frame and pending as committed: they read back equal)."""
    updated_at: str
    """The row's `updated_at` exactly as stored (the text the commit wrote): with version and owner, its identity."""
    window: tuple[tuple[str, str], ...]
    """The newest turns' (user text, reply text) as stored, newest first, at most `turns` of them."""
    turns: int
    """The history window's size in turns (a read asking for another size reads in full)."""

    def key(self) -> tuple[int, str | None, str]:
        return self.snapshot.version, self.snapshot.owner, self.updated_at


class RecentConversations:
    """Thread-safe, bounded: what `SqlStore` read or committed last, per conversation id."""

    def __init__(self, keep: int = KEEP) -> None:
        self._keep = keep
        self._entries: OrderedDict[str, Remembered] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, conversation_id: str) -> Remembered | None:
        with self._lock:
            entry = self._entries.get(conversation_id)
            if entry is not None:
                self._entries.move_to_end(conversation_id)
            return entry

    def remember(self, conversation_id: str, entry: Remembered) -> None:
        with self._lock:
            self._entries[conversation_id] = entry
            self._entries.move_to_end(conversation_id)
            while len(self._entries) > self._keep:
                self._entries.popitem(last=False)

    def forget(self, conversation_id: str) -> None:
        with self._lock:
            self._entries.pop(conversation_id, None)

    def committed(self, conversation_id: str, owner: str | None, expected_version: int, state: str,
                  update: ConversationUpdate,
                  turn: tuple[str, str], turn_count: int, stamp: str, stamped_at: datetime,
                  default_turns: int) -> None:
        """After a commit (its transaction committed): the row as it now is. `owner` is the one a new conversation
        is created with (an existing row keeps its own); `state` the stored state (`update`'s, as written);
        `turn` the stored (user, reply) text; `stamp` the stored
        `updated_at` text and `stamped_at` its reading. A commit on a version this memory does not hold is
        forgotten instead (the next read is a full one)."""
        created_at: datetime | None
        window: tuple[tuple[str, str], ...]
        with self._lock:
            before = self._entries.get(conversation_id)
            if expected_version == 0:
                created_at, window, turns = stamped_at, (), default_turns
            elif before is not None and before.snapshot.version == expected_version:
                owner, created_at = before.snapshot.owner, before.snapshot.created_at
                window, turns = before.window, before.turns
            else:
                self._entries.pop(conversation_id, None)
                return
        snapshot = ConversationSnapshot(
            id=conversation_id,
            owner=owner,
            state=state,
            frame=update.frame,
            pending=update.pending,
            clarify_streak=update.clarify_streak,
            spec_fingerprint=update.spec_fingerprint,
            version=expected_version + 1,
            turn_count=turn_count,
            created_at=created_at,
            updated_at=stamped_at,
        )
        self.remember(conversation_id, Remembered(snapshot, stamp, (turn, *window)[:turns], turns))
