"""The store's own sqlite3 connections for a turn's load and commit (engine/store/connections.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine.store.connections import SqliteConnections


def _pragma(connection: sqlite3.Connection, name: str) -> object:
    row = connection.execute(f"PRAGMA {name}").fetchone()
    return row[0]


def test_a_connection_is_configured_durable_in_wal_with_foreign_keys_and_no_implicit_begin(tmp_path: Path) -> None:
    conns = SqliteConnections(str(tmp_path / "store.db"), busy_timeout_ms=1234)
    held = conns.acquire()
    c = held.driver_connection
    assert (_pragma(c, "journal_mode"), _pragma(c, "synchronous"), _pragma(c, "foreign_keys"),
            _pragma(c, "busy_timeout")) == ("wal", 2, 1, 1234)
    assert c.isolation_level is None
    c.execute("CREATE TABLE t (x)")
    c.execute("INSERT INTO t VALUES (1)")
    assert not c.in_transaction  # autocommitted: nothing waits for a COMMIT the store did not issue
    held.close()
    conns.close()


def test_a_connection_given_back_is_the_next_one_handed_out(tmp_path: Path) -> None:
    conns = SqliteConnections(str(tmp_path / "store.db"), busy_timeout_ms=1000)
    first = conns.acquire()
    connection = first.driver_connection
    first.close()
    first.close()  # a second give-back does not put it on the stack twice
    assert conns.idle() == [connection]
    assert conns.acquire().driver_connection is connection
    conns.close()


def test_a_connection_left_in_a_transaction_or_invalidated_is_never_handed_out_again(tmp_path: Path) -> None:
    conns = SqliteConnections(str(tmp_path / "store.db"), busy_timeout_ms=1000)
    in_transaction = conns.acquire()
    in_transaction.driver_connection.execute("BEGIN IMMEDIATE")
    in_transaction.close()
    broken = conns.acquire()
    broken.invalidate(RuntimeError("lost"))
    broken.close()
    assert conns.idle() == []
    with pytest.raises(sqlite3.ProgrammingError):  # both were closed
        in_transaction.driver_connection.execute("SELECT 1")
    with pytest.raises(sqlite3.ProgrammingError):
        broken.driver_connection.execute("SELECT 1")
    conns.close()


def test_closing_closes_idle_connections_and_one_given_back_later(tmp_path: Path) -> None:
    conns = SqliteConnections(str(tmp_path / "store.db"), busy_timeout_ms=1000, keep_idle=1)
    a, b = conns.acquire(), conns.acquire()
    a.close()
    b.close()  # beyond keep_idle: closed at once
    assert conns.idle() == [a.driver_connection]
    held = conns.acquire()
    conns.close()
    held.close()
    for c in (a.driver_connection, b.driver_connection, held.driver_connection):
        with pytest.raises(sqlite3.ProgrammingError):
            c.execute("SELECT 1")
    with pytest.raises(sqlite3.ProgrammingError):
        conns.acquire()
