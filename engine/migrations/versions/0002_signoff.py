"""Sign-offs: who signed which spec fingerprint, and when.

Revision ID: 0002_signoff
Revises: 0001
Create Date: 2026-12-03 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_signoff"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "signoffs",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("spec_fingerprint", sa.String(), nullable=False),
        sa.Column("signed_by", sa.String(), nullable=False),
        sa.Column("role", sa.String(), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("signed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_signoffs"),
    )
    op.create_index("ix_signoffs_spec_fingerprint", "signoffs", ["spec_fingerprint"])


def downgrade() -> None:
    op.drop_index("ix_signoffs_spec_fingerprint", table_name="signoffs")
    op.drop_table("signoffs")
