"""An in-process store with the SQL store's semantics (versions, conflicts, owners) for unit tests."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from typing import Any

from core.errors import StoreConflict
from engine.store.base import (
    CLAIM_LEASE_MS,
    HISTORY_LINES,
    ConversationSnapshot,
    ConversationUpdate,
    IdempotentTurn,
    SignOff,
    TurnRecord,
)
from engine.store.idempotency import current_key


class MemoryStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conversations: dict[str, ConversationSnapshot] = {}
        self._turns: dict[str, list[TurnRecord]] = {}
        self._signoffs: list[SignOff] = []
        self._keys: dict[str, tuple[str, int]] = {}
        """Idempotency-Key → (conversation id, seq)."""
        self._replies: dict[str, dict[str, Any]] = {}
        self._claims: dict[str, tuple[int, str, float]] = {}
        """Conversation id → (version, turn token, monotonic seconds claimed)."""

    def load(self, conversation_id: str, owner: str | None) -> ConversationSnapshot | None:
        with self._lock:
            snap = self._conversations.get(conversation_id)
            # Exact owner match: an ownerless conversation (auth off) is invisible to every key.
            if snap is None or snap.owner != owner:
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
        key = current_key()
        with self._lock:
            if key is not None and key in self._keys:
                raise StoreConflict(f"a turn with Idempotency-Key {key!r} is already stored; resend to get its reply")
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
            if key is not None:
                self._keys[key] = (conversation_id, stored.seq)
            return snap.version

    def turns(self, conversation_id: str) -> list[TurnRecord]:
        with self._lock:
            return [t.model_copy(deep=True) for t in self._turns.get(conversation_id, [])]

    def delete(self, conversation_id: str, owner: str | None) -> bool:
        with self._lock:
            snap = self._conversations.get(conversation_id)
            if snap is None or snap.owner != owner:
                return False
            del self._conversations[conversation_id]
            self._forget(conversation_id)
            return True

    def _forget(self, conversation_id: str) -> None:
        self._turns.pop(conversation_id, None)
        self._claims.pop(conversation_id, None)
        for key in [k for k, (cid, _) in self._keys.items() if cid == conversation_id]:
            del self._keys[key]
            self._replies.pop(key, None)

    def purge(self, older_than: datetime) -> int:
        with self._lock:
            old = [k for k, v in self._conversations.items() if v.updated_at and v.updated_at < older_than]
            for k in old:
                del self._conversations[k]
                self._forget(k)
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
    def turns_page(self, conversation_id: str, offset: int, limit: int) -> list[TurnRecord]:
        with self._lock:
            page = self._turns.get(conversation_id, [])[max(offset, 0):max(offset, 0) + max(limit, 0)]
            return [t.model_copy(deep=True) for t in page]

    def find_idempotent(self, key: str) -> IdempotentTurn | None:
        with self._lock:
            found = self._keys.get(key)
            if found is None:
                return None
            cid, seq = found
            snap = self._conversations[cid]
            turn = next(t for t in self._turns[cid] if t.seq == seq)
            return IdempotentTurn(conversation_id=cid, owner=snap.owner, turn=turn.model_copy(deep=True),
                                  reply=self._replies.get(key))

    def save_reply(self, conversation_id: str, key: str, reply: dict[str, Any]) -> None:
        with self._lock:
            if self._keys.get(key, ("", 0))[0] == conversation_id:
                self._replies[key] = dict(reply)

    def claim_turn(self, conversation_id: str, version: int, token: str, lease_ms: int = CLAIM_LEASE_MS) -> None:
        if version <= 0:
            return
        now = time.monotonic()
        with self._lock:
            snap = self._conversations.get(conversation_id)
            if snap is None or snap.version != version:
                raise StoreConflict(f"conversation {conversation_id} changed (expected version {version}); "
                                    "resend the turn")
            held = self._claims.get(conversation_id)
            if held is not None and held[0] == version and held[1] != token and now - held[2] < lease_ms / 1000:
                raise StoreConflict(f"another turn on conversation {conversation_id} is running; "
                                    "wait for its reply, then send this one")
            self._claims[conversation_id] = (version, token, now)

    def claim_owner(self, conversation_id: str, owner: str) -> bool:
        with self._lock:
            snap = self._conversations.get(conversation_id)
            if snap is None or snap.owner is not None:
                return False
            self._conversations[conversation_id] = snap.model_copy(update={"owner": owner})
            return True

    def close(self) -> None:
        return None
