"""Turns keep the citations and quick replies the user saw, so a reloaded chat shows them again.

Revision ID: 0003_turn_citations
Revises: 0002_signoff
Create Date: 2026-12-03 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_turn_citations"
down_revision: str | None = "0002_signoff"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Nullable: turns stored before this revision have none (read back as empty lists).
    with op.batch_alter_table("turns") as batch:
        batch.add_column(sa.Column("citations", sa.JSON(none_as_null=True), nullable=True))
        batch.add_column(sa.Column("quick_replies", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("turns") as batch:
        batch.drop_column("quick_replies")
        batch.drop_column("citations")
