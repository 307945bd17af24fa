"""Idempotency keys and replies on turns; the turn lease on conversations.

Revision ID: 0004_idempotency
Revises: 0003_turn_citations
Create Date: 2026-12-03 00:00:00

- turns.idempotency_key (unique) and turns.reply: a retried `POST /v1/rag/query` with the same
  Idempotency-Key returns the stored reply and runs nothing;
- conversations.claim_token / claim_version / claimed_at: `claim_turn` leases a conversation's version
  to one turn before its first provider call, so a turn that would lose the optimistic-concurrency race
  is refused before it spends anything.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_idempotency"
down_revision: str | None = "0003_turn_citations"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("turns") as batch:
        batch.add_column(sa.Column("idempotency_key", sa.String(), nullable=True))
        batch.add_column(sa.Column("reply", sa.JSON(none_as_null=True), nullable=True))
    op.create_index("ix_turns_idempotency_key", "turns", ["idempotency_key"], unique=True)
    with op.batch_alter_table("conversations") as batch:
        batch.add_column(sa.Column("claim_token", sa.String(), nullable=True))
        batch.add_column(sa.Column("claim_version", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("conversations") as batch:
        batch.drop_column("claimed_at")
        batch.drop_column("claim_version")
        batch.drop_column("claim_token")
    op.drop_index("ix_turns_idempotency_key", table_name="turns")
    with op.batch_alter_table("turns") as batch:
        batch.drop_column("reply")
        batch.drop_column("idempotency_key")
