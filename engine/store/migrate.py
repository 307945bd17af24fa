"""Run the packaged Alembic migrations to head, safely when several processes start at once.

The whole upgrade runs in one transaction that first takes a lock every other starter waits on:
PostgreSQL an advisory transaction lock, SQLite its write lock (BEGIN IMMEDIATE + busy timeout). The
second process then finds the schema at head and does nothing; upgrading is idempotent.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine

import engine.migrations

MIGRATIONS_DIR = Path(engine.migrations.__file__).parent

PG_MIGRATION_LOCK = 0x666F726D756C6172
"""Advisory lock key ("formular" in ASCII) held while one process migrates a PostgreSQL database."""

_WRITE = "formulary_write"  # engine.store.sql's execution option: SQLite BEGIN IMMEDIATE


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(db: Engine) -> str | None:
    with db.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def migrate(db: Engine) -> None:
    """Upgrade the database behind `db` to the head revision (a no-op when it is already there)."""
    config = alembic_config()
    with db.connect() as conn:
        conn.execution_options(**{_WRITE: True})
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_MIGRATION_LOCK})
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
