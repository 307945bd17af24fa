"""The conversation-store protocol and its records.

The records are typed end to end (`QueryFrame`, `Pending`, `Trace`); only an adapter (engine/store/sql.py) turns
them into stored JSON and back, in the same JSON shape as before, so an existing database still loads.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field, field_validator

from engine.reply import Trace
from states.frame import Pending, QueryFrame

HISTORY_LINES = 12
"""Last 12 lines (6 turns) of history per turn, whatever the conversation's length."""


class ConversationSnapshot(BaseModel):
    id: str
    owner: str | None = None
    state: str = "ready"
    frame: QueryFrame | None = None
    pending: Pending | None = None
    clarify_streak: int = 0
    spec_fingerprint: str = ""
    version: int = 0
    turn_count: int = 0
    created_at: datetime | None = None
    updated_at: datetime | None = None


class ConversationUpdate(BaseModel):
    state: str
    frame: QueryFrame | None
    pending: Pending | None
    clarify_streak: int
    spec_fingerprint: str


class TurnRecord(BaseModel):
    seq: int
    user_text: str
    reply_text: str
    outcome: str
    reason: str
    frame: QueryFrame | None = None
    trace: Trace = Field(default_factory=Trace)
    evidence_ids: list[str] = Field(default_factory=list)
    citations: list[dict[str, Any]] = Field(default_factory=list)
    """The reply's citations as the user saw them (doc id, drug, section, quote, page): a reload shows them again."""
    quick_replies: list[str] = Field(default_factory=list)
    created_at: datetime | None = None

    @field_validator("citations", "quick_replies", mode="before")
    @classmethod
    def _none_is_empty(cls, v: object) -> object:
        return [] if v is None else v  # turns stored before these columns existed


class IdempotentTurn(BaseModel):
    """A turn stored under an Idempotency-Key, and the reply body it was sent (None if not yet saved)."""

    conversation_id: str
    owner: str | None = None
    turn: TurnRecord
    reply: dict[str, Any] | None = None


CLAIM_LEASE_MS = 120_000
"""How long a turn's claim on a conversation version holds before another turn may take it over (a turn
that died mid-way must not lock its conversation forever). Longer than any turn's budget."""


class ConversationStore(Protocol):
    def load(self, conversation_id: str, owner: str | None) -> ConversationSnapshot | None:
        """The conversation, or None if it does not exist (or belongs to another owner)."""
        ...

    def history(self, conversation_id: str, lines: int = HISTORY_LINES) -> list[str]:
        """The last `lines` history lines ("Người dùng: …" / "Trợ lý: …"), oldest first."""
        ...

    def load_with_history(
        self, conversation_id: str, owner: str | None, lines: int = HISTORY_LINES
    ) -> tuple[ConversationSnapshot | None, list[str]]:
        """`load` and `history` together: what a turn reads before it runs (one round trip where possible)."""
        ...

    def commit_turn(
        self,
        conversation_id: str,
        owner: str | None,
        expected_version: int,
        update: ConversationUpdate,
        turn: TurnRecord,
    ) -> int:
        """Write the turn and the new conversation state atomically; return the new version.

        `expected_version` 0 creates the conversation. Raises StoreConflict when another turn committed
        first (nothing of this turn is written) and StoreUnavailable when the write fails.
        """
        ...

    def turns(self, conversation_id: str) -> list[TurnRecord]:
        ...

    def delete(self, conversation_id: str, owner: str | None) -> bool:
        ...

    def purge(self, older_than: datetime) -> int:
        ...

    def ping(self) -> None:
        """Raise StoreUnavailable if the store cannot serve."""
        ...

    # -- hardening (issue #19): bounded reads, idempotent retries, turn claims, ownership ---------------

    def turns_page(self, conversation_id: str, offset: int, limit: int) -> list[TurnRecord]:
        """Turns seq offset+1 … offset+limit, oldest first (a bounded read of a long conversation)."""
        ...

    def find_idempotent(self, key: str) -> IdempotentTurn | None:
        """The turn stored under Idempotency-Key `key`, whoever owns it (the caller checks the owner)."""
        ...

    def save_reply(self, conversation_id: str, key: str, reply: dict[str, Any]) -> None:
        """Attach the reply body sent for the turn stored under `key` (what a retry gets back)."""
        ...

    def claim_turn(self, conversation_id: str, version: int, token: str, lease_ms: int = CLAIM_LEASE_MS) -> None:
        """Lease `version` of the conversation to the turn `token`, before its first provider call.

        Raises StoreConflict when the conversation is already past `version`, or another live turn holds
        `version`: that turn would lose the commit race anyway, so it is refused before it spends anything.
        Version 0 (a new conversation) has nothing to race for and always succeeds.
        """
        ...

    def claim_owner(self, conversation_id: str, owner: str) -> bool:
        """Give an ownerless conversation (created with auth off) to `owner`; False if none such exists."""
        ...

    def close(self) -> None:
        ...


class SignOff(BaseModel):
    """A reviewer's sign-off of one spec fingerprint (the machine exactly as exported for review)."""

    spec_fingerprint: str
    signed_by: str
    role: str | None = None
    note: str | None = None
    signed_at: datetime | None = None


@runtime_checkable
class SignOffStore(Protocol):
    def record_signoff(self, signoff: SignOff) -> SignOff:
        """Store a sign-off (signed_at set by the store); return it as stored."""
        ...

    def signoffs(self, spec_fingerprint: str) -> list[SignOff]:
        """Every sign-off of this fingerprint, oldest first."""
        ...
