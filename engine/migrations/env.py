"""Alembic environment: always run programmatically by engine.store.migrate on a connection it passes in.

SQLite has almost no ALTER TABLE, so every migration runs in batch mode there (copy-and-move), which lets
later revisions alter columns and constraints the same way on both backends.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from engine.store.schema import metadata

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError(
        "engine migrations run through engine.store.migrate.migrate(engine) (SqlStore does it on open), "
        "not from the alembic command line"
    )

context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
