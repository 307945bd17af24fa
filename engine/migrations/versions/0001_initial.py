"""Conversations and their turns.

Revision ID: 0001
Revises:
Create Date: 2025-01-01 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# Frozen copies of engine/store/schema.py at this revision (a test checks they still match).


def _json() -> sa.JSON:
    return sa.JSON(none_as_null=True)


def upgrade() -> None:
    op.create_table(
        "conversations",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("owner", sa.String(), nullable=True),
        sa.Column("state", sa.String(), nullable=False),
        sa.Column("frame", _json(), nullable=True),
        sa.Column("pending", _json(), nullable=True),
        sa.Column("clarify_streak", sa.Integer(), nullable=False),
        sa.Column("spec_fingerprint", sa.String(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("turn_count", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_conversations"),
    )
    op.create_index("ix_conversations_updated_at", "conversations", ["updated_at"])
    op.create_table(
        "turns",
        sa.Column("conversation_id", sa.String(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("user_text", sa.Text(), nullable=False),
        sa.Column("reply_text", sa.Text(), nullable=False),
        sa.Column("outcome", sa.String(), nullable=False),
        sa.Column("reason", sa.String(), nullable=False),
        sa.Column("frame", _json(), nullable=True),
        sa.Column("trace", _json(), nullable=False),
        sa.Column("evidence_ids", _json(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["conversation_id"],
            ["conversations.id"],
            name="fk_turns_conversation_id_conversations",
            ondelete="CASCADE",
        ),
        # UNIQUE(conversation_id, seq), and the history query's index (scanned newest first).
        sa.PrimaryKeyConstraint("conversation_id", "seq", name="pk_turns"),
    )


def downgrade() -> None:
    op.drop_table("turns")
    op.drop_index("ix_conversations_updated_at", table_name="conversations")
    op.drop_table("conversations")
