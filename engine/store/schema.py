"""The SQL schema of the conversation store, as SQLAlchemy Core tables (one schema for SQLite and PostgreSQL).

The Alembic migrations in engine/migrations/versions/ create exactly these tables; a test compares the two.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Dialect

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Deterministic constraint names, so later batch migrations on SQLite can refer to them."""


class UtcDateTime(sa.TypeDecorator[datetime]):
    """Timezone-aware UTC timestamps on both backends.

    PostgreSQL keeps the offset (timestamptz); SQLite has no timezone type, so values are stored as naive
    UTC and made aware again on the way out. Either way callers only ever see aware UTC datetimes.
    """

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _json() -> sa.JSON:
    # none_as_null: a missing frame/pending is SQL NULL, not the JSON literal 'null'.
    return sa.JSON(none_as_null=True)


metadata = sa.MetaData(naming_convention=NAMING)

conversations = sa.Table(
    "conversations",
    metadata,
    sa.Column("id", sa.String(), primary_key=True),
    sa.Column("owner", sa.String(), nullable=True),
    sa.Column("state", sa.String(), nullable=False),
    sa.Column("frame", _json(), nullable=True),
    sa.Column("pending", _json(), nullable=True),
    sa.Column("clarify_streak", sa.Integer(), nullable=False),
    sa.Column("spec_fingerprint", sa.String(), nullable=False),
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("turn_count", sa.Integer(), nullable=False),
    sa.Column("created_at", UtcDateTime(), nullable=False),
    sa.Column("updated_at", UtcDateTime(), nullable=False),
    # The turn lease (claim_turn): which turn may run on this version, and since when (0002).
    sa.Column("claim_token", sa.String(), nullable=True),
    sa.Column("claim_version", sa.Integer(), nullable=True),
    sa.Column("claimed_at", UtcDateTime(), nullable=True),
    # Retention purges by age.
    sa.Index(None, "updated_at"),
)

turns = sa.Table(
    "turns",
    metadata,
    sa.Column(
        "conversation_id",
        sa.String(),
        sa.ForeignKey("conversations.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("seq", sa.Integer(), nullable=False),
    sa.Column("user_text", sa.Text(), nullable=False),
    sa.Column("reply_text", sa.Text(), nullable=False),
    sa.Column("outcome", sa.String(), nullable=False),
    sa.Column("reason", sa.String(), nullable=False),
    sa.Column("frame", _json(), nullable=True),
    sa.Column("trace", _json(), nullable=False),
    sa.Column("evidence_ids", _json(), nullable=False),
    sa.Column("created_at", UtcDateTime(), nullable=False),
    # The reply as the user saw it, for a reload (added in 0003; NULL on older turns).
    sa.Column("citations", _json(), nullable=True),
    sa.Column("quick_replies", _json(), nullable=True),
    # The client's Idempotency-Key for this turn and the reply it was sent (0002): a retried turn with the
    # same key gets this reply back. UNIQUE: of two racing retries of a new conversation only one is stored.
    sa.Column("idempotency_key", sa.String(), nullable=True),
    sa.Column("reply", _json(), nullable=True),
    sa.Index(None, "idempotency_key", unique=True),
    # The key is UNIQUE(conversation_id, seq): a turn number is taken once, so of two racing turns only one
    # lands. Its index, scanned backwards, is also the history query's index
    # (WHERE conversation_id = ? ORDER BY seq DESC LIMIT n): the cost of a turn does not grow with its length.
    sa.PrimaryKeyConstraint("conversation_id", "seq"),
)

signoffs = sa.Table(
    "signoffs",
    metadata,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("spec_fingerprint", sa.String(), nullable=False),
    sa.Column("signed_by", sa.String(), nullable=False),
    sa.Column("role", sa.String(), nullable=True),
    sa.Column("note", sa.Text(), nullable=True),
    sa.Column("signed_at", UtcDateTime(), nullable=False),
    # The server's start-up gate and the review page look sign-offs up by fingerprint.
    sa.Index(None, "spec_fingerprint"),
)
