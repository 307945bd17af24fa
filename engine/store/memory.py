"""An in-process store with the SQL store's semantics (versions, conflicts, owners) for unit tests."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

from core.errors import StoreConflict
from engine.store.base import HISTORY_LINES, ConversationSnapshot, ConversationUpdate, SignOff, TurnRecord


class MemoryStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conversations: dict[str, ConversationSnapshot] = {}
        self._turns: dict[str, list[TurnRecord]] = {}
        self._signoffs: list[SignOff] = []

    def load(self, conversation_id: str, owner: str | None) -> ConversationSnapshot | None:
        with self._lock:
            snap = self._conversations.get(conversation_id)
            if snap is None or (snap.owner is not None and snap.owner != owner):
                return None
            return snap.model_copy(deep=True)

    def history(self, conversation_id: str, lines: int = HISTORY_LINES) -> list[str]:
        if lines <= 0:
            return []
        with self._lock:
            # Enough turns (two lines each) to cover `lines`, newest last; the SQL store's LIMIT window.
            turns = self._turns.get(conversation_id, [])[-((lines + 1) // 2):]
        out: list[str] = []
        for t in turns:
            out += [f"Người dùng: {t.user_text}", f"Trợ lý: {t.reply_text}"]
        return out[-lines:]

    def load_with_history(
        self, conversation_id: str, owner: str | None, lines: int = HISTORY_LINES
    ) -> tuple[ConversationSnapshot | None, list[str]]:
        snapshot = self.load(conversation_id, owner)
        return snapshot, (self.history(conversation_id, lines) if snapshot is not None else [])

    def commit_turn(
        self,
        conversation_id: str,
        owner: str | None,
        expected_version: int,
        update: ConversationUpdate,
        turn: TurnRecord,
    ) -> int:
        now = datetime.now(UTC)
        with self._lock:
            current = self._conversations.get(conversation_id)
            current_version = current.version if current else 0
            if current_version != expected_version:
                raise StoreConflict(
                    f"conversation {conversation_id} changed (version {current_version}, expected "
                    f"{expected_version}); resend the turn"
                )
            snap = ConversationSnapshot(
                id=conversation_id,
                owner=current.owner if current else owner,
                created_at=current.created_at if current else now,
                updated_at=now,
                version=expected_version + 1,
                turn_count=(current.turn_count if current else 0) + 1,
                **dict(update.model_copy(deep=True)),
            )
            self._conversations[conversation_id] = snap
            # The store numbers turns (seq = turn count), as the SQL store does; the caller's seq is a hint.
            stored = turn.model_copy(deep=True, update={"seq": snap.turn_count, "created_at": now})
            self._turns.setdefault(conversation_id, []).append(stored)
            return snap.version

    def turns(self, conversation_id: str) -> list[TurnRecord]:
        with self._lock:
            return [t.model_copy(deep=True) for t in self._turns.get(conversation_id, [])]

    def delete(self, conversation_id: str, owner: str | None) -> bool:
        with self._lock:
            snap = self._conversations.get(conversation_id)
            if snap is None or (snap.owner is not None and snap.owner != owner):
                return False
            del self._conversations[conversation_id]
            self._turns.pop(conversation_id, None)
            return True

    def purge(self, older_than: datetime) -> int:
        with self._lock:
            old = [k for k, v in self._conversations.items() if v.updated_at and v.updated_at < older_than]
            for k in old:
                del self._conversations[k]
                self._turns.pop(k, None)
            return len(old)

    def ping(self) -> None:
        return None

    def record_signoff(self, signoff: SignOff) -> SignOff:
        stored = signoff.model_copy(update={"signed_at": datetime.now(UTC)})
        with self._lock:
            self._signoffs.append(stored)
        return stored

    def signoffs(self, spec_fingerprint: str) -> list[SignOff]:
        with self._lock:
            return [s for s in self._signoffs if s.spec_fingerprint == spec_fingerprint]

    def close(self) -> None:
        return None
