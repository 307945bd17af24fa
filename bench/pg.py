"""A private PostgreSQL schema per benchmark, dropped afterwards, so runs never see each other's rows."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from bench.environment import POSTGRES_URL


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def postgres_problem() -> str | None:
    """None when PostgreSQL answers at POSTGRES_URL, else why not."""
    import psycopg

    try:
        with psycopg.connect(_libpq(POSTGRES_URL), connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return f"PostgreSQL at {POSTGRES_URL} does not answer: {exc}"
    return None


@contextmanager
def fresh_schema(prefix: str = "bench") -> Iterator[tuple[str, str]]:
    """(database URL whose connections use a new empty schema, the schema name); dropped on exit."""
    import psycopg

    from engine.store.sql import with_search_path

    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(_libpq(POSTGRES_URL), autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield with_search_path(POSTGRES_URL, schema), schema
    finally:
        with psycopg.connect(_libpq(POSTGRES_URL), autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def count_turns(schema: str, conversation_ids: list[str]) -> int:
    import psycopg

    with psycopg.connect(_libpq(POSTGRES_URL)) as conn:
        row = conn.execute(f'SELECT count(*) FROM "{schema}".turns WHERE conversation_id = ANY(%s)',
                           (conversation_ids,)).fetchone()
    return int(row[0]) if row else 0
