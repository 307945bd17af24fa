"""The turn's own long-lived sqlite3 connections to a SQLite database file (the store's hot path).

A turn's load and commit each need a connection for a few statements. Checked out of SQLAlchemy's pool, each of
those costs the pool's checkout and checkin (events, the connection record, reset-on-return) on top of the
SQL. Here they come from a stack of idle sqlite3 connections the store keeps open: a turn pops one, runs its
statements, and pushes it back. A connection is only ever used by one thread at a time (the one that popped it).

Every connection is configured as SQLAlchemy's connections to the same file are (`configure`, the one place the
store's SQLite pragmas are written; sql.py's connect hook calls it too): the busy timeout, WAL, foreign keys,
synchronous=FULL (a turn reported persisted survives power loss), and no implicit BEGIN (the store issues
BEGIN IMMEDIATE for a write, and runs a read as one autocommitted statement). Durability and the lease/version
semantics are the statements', unchanged; only how the connection is found differs.

PostgreSQL and in-memory SQLite stay on the SQLAlchemy pool (PostgreSQL needs its dropped-connection handling;
an in-memory database exists only on the pool's one shared connection).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from typing import Any

KEEP_IDLE = 10
"""Idle connections kept open (SQLAlchemy's pool_size for the same file); a connection returned beyond that is closed."""


def configure(connection: Any, busy_timeout_ms: int) -> None:
    """The store's settings on a new sqlite3 connection (its own or one of SQLAlchemy's pool)."""
    # The sqlite3 module's implicit BEGIN is off: the store decides where a transaction begins.
    connection.isolation_level = None
    cursor = connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")  # set first: the next may wait
        _enable_wal(cursor, busy_timeout_ms)  # readers never block the one writer
        cursor.execute("PRAGMA foreign_keys = ON")  # ON DELETE CASCADE of turns
        # Every commit syncs the WAL (SQLite's default, stated: a turn reported persisted survives power loss).
        # Only a turn's lease is committed at NORMAL, on its own (SqlStore.claim_turn).
        cursor.execute("PRAGMA synchronous = FULL")
    finally:
        cursor.close()


def _enable_wal(cursor: Any, busy_timeout_ms: int) -> None:
    """Switch a database to WAL, retrying while another process does the same.

    On a brand-new file, several processes opening it at once race to change the journal mode; SQLite may
    answer SQLITE_BUSY at once instead of waiting for the busy timeout (seen in CI with four concurrent
    openers). Once one of them has switched, WAL is persistent and the others see it.
    """
    deadline = time.monotonic() + busy_timeout_ms / 1000
    delay = 0.01
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if time.monotonic() >= deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.25)


class HeldConnection:
    """One connection while a turn holds it, with the members of SQLAlchemy's pooled connection the store uses:
    `driver_connection`, `invalidate(exc)` (close it: it never goes back) and `close()` (give it back)."""

    __slots__ = ("_owner", "driver_connection")

    def __init__(self, connection: sqlite3.Connection, owner: SqliteConnections) -> None:
        self.driver_connection = connection
        self._owner: SqliteConnections | None = owner

    def invalidate(self, exc: BaseException | None = None) -> None:
        owner, self._owner = self._owner, None
        if owner is not None:
            owner.discard(self.driver_connection)

    def close(self) -> None:
        owner, self._owner = self._owner, None
        if owner is not None:
            owner.release(self.driver_connection)


class SqliteConnections:
    """The store's own sqlite3 connections to one database file: a stack of idle ones, opened on demand."""

    def __init__(self, database: str, busy_timeout_ms: int, keep_idle: int = KEEP_IDLE) -> None:
        self.database = database
        self.busy_timeout_ms = busy_timeout_ms
        self.keep_idle = keep_idle
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._closed = False

    def acquire(self) -> HeldConnection:
        """An idle connection (the most recently used: its pages are warm), or a new one."""
        with self._lock:
            if self._closed:
                raise sqlite3.ProgrammingError("the store is closed")
            connection = self._idle.pop() if self._idle else None
        if connection is None:
            connection = sqlite3.connect(self.database, check_same_thread=False, isolation_level=None)
            try:
                configure(connection, self.busy_timeout_ms)
            except BaseException:
                connection.close()
                raise
        return HeldConnection(connection, self)

    def release(self, connection: sqlite3.Connection) -> None:
        """Back on the stack; closed instead when the store is closed, the stack is full, or a transaction is
        still open on it (never handed to the next turn in the middle of this one's)."""
        with self._lock:
            if not self._closed and len(self._idle) < self.keep_idle and not connection.in_transaction:
                self._idle.append(connection)
                return
        connection.close()

    def discard(self, connection: sqlite3.Connection) -> None:
        with contextlib.suppress(sqlite3.Error):  # closing a broken connection: nothing more to do with it
            connection.close()

    def idle(self) -> list[sqlite3.Connection]:
        """The idle connections (tests check their settings)."""
        with self._lock:
            return list(self._idle)

    def close(self) -> None:
        """Close every idle connection; one held by a turn now is closed when that turn gives it back."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()
