"""Real databases for store tests: a SQLite file, or a fresh PostgreSQL schema that is dropped afterwards.

PostgreSQL is expected at 127.0.0.1:5432 (trust auth). When it does not answer the test is skipped locally
and *fails* under CI (`CI` set), so a CI run can never pass without having exercised PostgreSQL.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest

from engine.store.sql import with_search_path

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def require_postgres() -> None:
    """Skip (locally) or fail (CI) when PostgreSQL does not answer."""
    try:
        with psycopg.connect(_libpq(POSTGRES_URL), connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        message = f"PostgreSQL at {POSTGRES_URL} does not answer: {exc}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@contextmanager
def fresh_postgres_schema() -> Iterator[str]:
    """A database URL whose connections live in a new, empty schema; the schema is dropped on exit.

    The URL carries the schema as libpq `options=-csearch_path=…`, so it can be handed to a subprocess
    (DATABASE_URL) and every worker lands in the same private schema.
    """
    require_postgres()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(_libpq(POSTGRES_URL), autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield with_search_path(POSTGRES_URL, schema)
    finally:
        with psycopg.connect(_libpq(POSTGRES_URL), autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def execute_raw(url: str, sql: str) -> None:
    """Run one statement behind the store's back (to simulate damage an operator or outage could cause)."""
    from engine.store.sql import create_store_engine, normalize_url

    engine = create_store_engine(normalize_url(url))
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql(sql)
    finally:
        engine.dispose()
