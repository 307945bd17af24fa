"""The SQL conversation store (SQLAlchemy 2 Core): SQLite embedded, PostgreSQL (psycopg 3) for scale-out.

A turn's own round trips (load, load with history, the lease, the commit) run as plain SQL with bound
parameters (hot_path.py) on a DBAPI connection: on a SQLite file, one of the store's own long-lived sqlite3
connections (connections.py); on PostgreSQL and in-memory SQLite, the pool's. Everything else is SQLAlchemy Core.

Semantics are MemoryStore's, which the same contract suite checks. Concurrency is optimistic on the
conversation's version: `commit_turn` is one short transaction (conditional UPDATE + INSERT), so no lock is
ever held across the LLM calls of a turn. Every vendor error is translated here into the project's
StoreUnavailable / StoreConflict; nothing above this module sees a SQLAlchemy or DBAPI type.
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import psycopg
import sqlalchemy as sa
from pydantic_core import to_json, to_jsonable_python
from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.pool import StaticPool

from core.errors import ConfigurationError, StoreConflict, StoreError, StoreUnavailable
from engine.store.base import (
    CLAIM_LEASE_MS,
    HISTORY_LINES,
    ConversationSnapshot,
    ConversationUpdate,
    IdempotentTurn,
    SignOff,
    TurnRecord,
)
from engine.store.connections import HeldConnection, SqliteConnections, configure
from engine.store.hot_path import HotPath, dbapi_error, raw_translated
from engine.store.idempotency import current_key
from engine.store.migrate import migrate
from engine.store.recent import RecentConversations, Remembered
from engine.store.schema import conversations, signoffs, turns

T = TypeVar("T")

_TURN_COLUMNS = [col for col in turns.c if col.name not in ("conversation_id", "idempotency_key", "reply")]

SQLITE_BUSY_TIMEOUT_MS = 10_000
"""How long a SQLite writer waits for another process's write transaction before giving up."""

PG_CONNECT_TIMEOUT_S = 5
"""An unreachable PostgreSQL fails a request in seconds, not after the OS TCP timeout."""

_CONFLICT_SQLSTATES = frozenset({"40001", "40P01"})  # serialization failure, deadlock detected

_WRITE = "formulary_write"
"""Connection execution option: this transaction writes (SQLite takes the write lock at BEGIN)."""


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def _rollback(fairy: Any, dbapi: Any, *, sqlite: bool) -> None:
    """End a failed hot-path transaction; a connection that cannot even roll back leaves the pool."""
    try:
        if not sqlite:
            dbapi.rollback()
        elif dbapi.in_transaction:
            dbapi.execute("ROLLBACK")
    except Exception as exc:  # noqa: BLE001 - the original error is the one raised
        fairy.invalidate(exc)


_SESSION_ENDED = frozenset({"57P01", "57P02", "57P03"})
"""admin_shutdown, crash_shutdown, cannot_connect_now: the server ended (or is ending) this session."""


def _connection_lost(dbapi: Any, exc: BaseException) -> bool:
    """psycopg: the session this pooled connection held is gone (the server restarted or ended it, the socket
    broke); any SQLSTATE of class 08 (connection exception) too."""
    if getattr(dbapi, "broken", False) or getattr(dbapi, "closed", False):
        return True
    sqlstate = str(getattr(exc, "sqlstate", "") or "")
    return sqlstate in _SESSION_ENDED or sqlstate.startswith("08")


def _restore_transactions(fairy: Any, dbapi: Any) -> None:
    """psycopg back out of autocommit after a single-statement read; a connection that cannot leaves the pool
    (every other use of the pool expects transactions)."""
    try:
        dbapi.autocommit = False
    except Exception as exc:  # noqa: BLE001 - the connection is discarded instead
        fairy.invalidate(exc)


def _restore_full_sync(fairy: Any, dbapi: Any) -> None:
    """Back to synchronous=FULL after a non-durable transaction; a connection that cannot leaves the pool (no
    later turn may commit on a connection left at NORMAL)."""
    try:
        dbapi.execute("PRAGMA synchronous = FULL")
    except Exception as exc:  # noqa: BLE001 - the connection is discarded instead
        fairy.invalidate(exc)


def utcnow() -> datetime:
    return datetime.now(UTC)


def normalize_url(url: str) -> URL:
    """Parse a database URL; plain `postgresql://` (and `postgres://`) mean psycopg 3, the driver installed."""
    try:
        parsed = make_url(url)
    except sa_exc.ArgumentError as exc:
        raise ConfigurationError(f"DATABASE_URL is not a valid SQLAlchemy URL: {url!r}") from exc
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise ConfigurationError(
            f"DATABASE_URL backend {parsed.get_backend_name()!r} is not supported; use sqlite:///path or "
            "postgresql+psycopg://user@host/db"
        )
    return parsed


def with_search_path(url: str, schema: str) -> str:
    """The URL whose connections use `schema` first (PostgreSQL only): isolates tests and tenants."""
    parsed = normalize_url(url)
    return parsed.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)


def _clean(text: str) -> str:
    # PostgreSQL text cannot hold NUL; replace it on both backends so they store the same thing.
    return text.replace("\x00", "\ufffd")


def _dumps(value: object) -> str:
    # One pass in pydantic-core (UTF-8, no ASCII escaping), not a walk to plain objects and then json.dumps:
    # the turn's trace is the largest value a turn writes. NaN/inf (never in a trace) fall back to json.dumps.
    try:
        return to_json(value).decode()
    except (TypeError, ValueError):
        return json.dumps(to_jsonable_python(value), ensure_ascii=False)


# The history statement (SqlStore.history, outside the turn's hot path) is built once per window size and
# executed with a bound parameter: SQLAlchemy finds its compiled form in its cache.
_t = turns.c


@functools.lru_cache(maxsize=8)
def _history_statement(limit: int) -> sa.Select[Any]:
    # Newest turns first through the (conversation_id, seq) key, LIMIT the window: the cost of loading
    # history is the same at turn 10 and at turn 1,000.
    return (
        sa.select(_t.user_text, _t.reply_text)
        .where(_t.conversation_id == sa.bindparam("b_id"))
        .order_by(_t.seq.desc())
        .limit(limit)
    )


def _vendor_message(exc: BaseException) -> str:
    """A short cause without the SQL or its parameters (user text must not leak into traces or logs)."""
    orig = getattr(exc, "orig", None) or exc
    first_line = (str(orig).strip().splitlines() or [""])[0]
    return f"{type(orig).__name__}: {first_line}"[:300]


def _is_conflict(exc: sa_exc.DBAPIError) -> bool:
    if isinstance(exc, sa_exc.IntegrityError):
        return True  # duplicate conversation id or turn seq: another turn took it first
    return getattr(exc.orig, "sqlstate", None) in _CONFLICT_SQLSTATES


@contextmanager
def translated(action: str, conversation_id: str | None = None) -> Iterator[None]:
    """Translate every SQLAlchemy/DBAPI error raised inside into StoreConflict or StoreUnavailable."""
    try:
        yield
    except StoreError:
        raise
    except sa_exc.DBAPIError as exc:
        if _is_conflict(exc):
            raise StoreConflict(
                f"conversation {conversation_id} changed while this turn ran; resend the turn"
            ) from exc
        raise StoreUnavailable(f"conversation store could not {action}: {_vendor_message(exc)}") from exc
    except (sa_exc.SQLAlchemyError, sqlite3.Error, psycopg.Error) as exc:
        raise StoreUnavailable(f"conversation store could not {action}: {_vendor_message(exc)}") from exc


def create_store_engine(url: URL, *, busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS) -> Engine:
    """A SQLAlchemy engine configured for the store: SQLite pragmas and BEGIN control, PostgreSQL timeouts."""
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url, busy_timeout_ms)
    connect_args: dict[str, Any] = {}
    if "connect_timeout" not in url.query:
        connect_args["connect_timeout"] = PG_CONNECT_TIMEOUT_S
    return sa.create_engine(
        url,
        json_serializer=_dumps,
        # No pool_pre_ping: it cost a round trip before every statement, half of a turn's round trips (bench http,
        # PostgreSQL p99). A connection the server dropped (a restart) is found by the statement itself: the hot
        # path discards it and runs the statement once more on a fresh one (SqlStore._statement), and
        # SQLAlchemy's own paths invalidate the pool at the first disconnect they see.
        pool_size=10,
        max_overflow=20,
        connect_args=connect_args,
    )


def _sqlite_engine(url: URL, busy_timeout_ms: int) -> Engine:
    in_memory = url.database in (None, "", ":memory:")
    if in_memory:
        # One shared connection, or every pooled connection would see its own empty database.
        engine = sa.create_engine(
            url, json_serializer=_dumps, poolclass=StaticPool, connect_args={"check_same_thread": False}
        )
    else:
        assert url.database is not None
        Path(url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(
            url,
            json_serializer=_dumps,
            pool_size=10,
            max_overflow=20,
            connect_args={"check_same_thread": False},
        )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # pysqlite's own implicit BEGIN is off; SQLAlchemy's "begin" event below decides the BEGIN kind. The
        # same settings as the hot path's own connections (connections.configure).
        configure(dbapi_connection, busy_timeout_ms)

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        # A write takes SQLite's write lock at BEGIN (waiting up to busy_timeout), so it never has to upgrade
        # a read snapshot that another writer made stale; reads stay deferred and never block.
        immediate = connection.get_execution_options().get(_WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


class SqlStore:
    """The ConversationStore on SQLite or PostgreSQL. Opening it migrates the schema to head."""

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], datetime] = utcnow,
        busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS,
        run_migrations: bool = True,
    ) -> None:
        self.url = normalize_url(url)
        self._clock = clock
        # SQLite has one writer. Threads of this process queue for it here, in order, instead of in SQLite's
        # busy handler, which polls with sleeps of up to 100 ms while the lock may already be free (the tail
        # of a loaded server). Other processes still wait in the busy handler.
        self._sqlite_writer = threading.RLock() if self.backend == "sqlite" else None
        try:
            self._engine = create_store_engine(self.url, busy_timeout_ms=busy_timeout_ms)
        except (sa_exc.ArgumentError, sa_exc.NoSuchModuleError) as exc:
            raise ConfigurationError(f"DATABASE_URL cannot be used: {_vendor_message(exc)}") from exc
        if run_migrations:
            try:
                self._migrate(busy_timeout_ms)
            except StoreError:
                self._engine.dispose()
                raise
        self._file, self._identity = self._sqlite_file()
        self._file_name = str(self._file) if self._file is not None else ""
        self._hot = HotPath(self.backend, _dumps)
        # A file database: the turn's load, lease and commit on the store's own long-lived sqlite3 connections
        # (connections.py), not a pool checkout per statement. PostgreSQL keeps the pool (and the retry on a
        # dropped connection, _statement); an in-memory database exists only on the pool's shared connection.
        self._conns = (SqliteConnections(str(self.url.database), busy_timeout_ms)
                       if self._file is not None and not self.url.query else None)
        # A SQLite file: the conversations this process committed or read last, checked against their row by a
        # primary-key lookup before a turn's read uses them (recent.py).
        self._recent = RecentConversations() if self._conns is not None else None

    def _connect(self) -> HeldConnection | Any:
        """The hot path's connection: `driver_connection`, `invalidate(exc)`, `close()` (give it back)."""
        return self._conns.acquire() if self._conns is not None else self._engine.raw_connection()

    def _sqlite_file(self) -> tuple[Path | None, tuple[int, int] | None]:
        """The SQLite database file and its (device, inode) at open; (None, None) for memory or PostgreSQL."""
        if self.backend != "sqlite" or self.url.database in (None, "", ":memory:"):
            return None, None
        path = Path(str(self.url.database)).expanduser()
        try:
            st = path.stat()
        except OSError:
            return path, None
        return path, (st.st_dev, st.st_ino)

    def _check_file(self) -> None:
        """Raise StoreUnavailable when the database file was removed or replaced since the store opened it.

        SQLite keeps writing to an unlinked file through its open descriptors: without this check, turns
        after `rm -rf DATA_DIR` report persisted=true and /ready says ok, and everything is gone at restart.
        """
        if self._file is None or self._identity is None:
            return
        try:
            st = os.stat(self._file_name)  # the path's text, computed once: Path.stat rebuilds it on every call
        except FileNotFoundError:
            raise StoreUnavailable(f"the database file {self._file} was removed; restore it or restart the "
                                   "server (turns are not being saved)") from None
        except OSError as exc:
            raise StoreUnavailable(f"the database file {self._file} cannot be read: {exc.strerror}") from None
        if (st.st_dev, st.st_ino) != self._identity:
            raise StoreUnavailable(f"the database file {self._file} was replaced by another file; restart the "
                                   "server to use it (turns are not being saved)")

    def _migrate(self, busy_timeout_ms: int) -> None:
        """Upgrade to head. On SQLite, processes opening a brand-new file together can get "database is
        locked" before the busy handler applies (journal-mode switch, WAL recovery): retried until the busy
        timeout, since the first opener finishes the schema and the others then find it at head."""
        deadline = time.monotonic() + busy_timeout_ms / 1000
        delay = 0.02
        while True:
            try:
                with translated("migrate the schema"):
                    migrate(self._engine)
                return
            except StoreUnavailable as exc:
                locked = self.backend == "sqlite" and "locked" in str(exc)
                if not locked or time.monotonic() >= deadline:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, 0.5)

    @property
    def backend(self) -> str:
        """'sqlite' or 'postgresql'."""
        return self.url.get_backend_name()

    def __repr__(self) -> str:
        return f"SqlStore({self.url.render_as_string(hide_password=True)!r})"

    @contextmanager
    def _write(self, action: str, conversation_id: str | None = None) -> Iterator[Connection]:
        self._check_file()
        with self._writer(), translated(action, conversation_id), self._engine.connect() as conn:
            conn.execution_options(**{_WRITE: True})
            with conn.begin():
                yield conn

    @contextmanager
    def _writer(self) -> Iterator[None]:
        if self._sqlite_writer is None:
            yield
            return
        with self._sqlite_writer:
            yield

    @contextmanager
    def _raw(self, action: str, conversation_id: str | None, *, write: bool, durable: bool = True) -> Iterator[Any]:
        """A DBAPI cursor on the hot path's connection (`_connect`), in one transaction committed on exit.

        SQLite: BEGIN IMMEDIATE for a write (the write lock at BEGIN, as `_write`), a deferred BEGIN for a
        read, behind the same in-process writer queue. PostgreSQL: the driver's implicit transaction.
        `durable=False` (a lease, never a turn): the commit does not wait for the disk — SQLite
        synchronous=NORMAL for this one transaction (WAL: the frames reach the disk with the next synced
        commit or checkpoint; never OFF, the database cannot be corrupted), PostgreSQL
        `SET LOCAL synchronous_commit = off`. Every other write stays synchronous=FULL / synchronous_commit on.
        """
        self._check_file()
        with self._writer() if write else _nothing(), translated(action, conversation_id), \
                raw_translated(action, conversation_id):
            fairy = self._connect()
            dbapi: Any = fairy.driver_connection
            try:
                cursor = dbapi.cursor()
                if self._hot.sqlite:
                    if not durable:
                        cursor.execute("PRAGMA synchronous = NORMAL")
                    cursor.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                elif not durable:
                    cursor.execute("SET LOCAL synchronous_commit = off")
                try:
                    yield cursor
                except BaseException:
                    _rollback(fairy, dbapi, sqlite=self._hot.sqlite)
                    raise
                if self._hot.sqlite:
                    cursor.execute("COMMIT")
                else:
                    dbapi.commit()
            except BaseException:
                _rollback(fairy, dbapi, sqlite=self._hot.sqlite)
                raise
            finally:
                if self._hot.sqlite and not durable:
                    _restore_full_sync(fairy, dbapi)
                fairy.close()

    def _statement(self, action: str, conversation_id: str | None, run: Callable[[Any], T]) -> T:
        """`run(cursor)` as ONE statement (`_one`). On PostgreSQL a pooled connection the server dropped (a
        restarted server, an idle timeout) fails the statement: the pool is emptied and the statement runs once
        more on a fresh connection, so a restart costs no turn. Running it again is safe whether or not the
        first attempt reached the server: the read has no effect, the lease's WHERE admits the same token again,
        and the turn's write is conditional on the version (or the insert on the id): had the first attempt
        committed, the second matches no row and reports a conflict — never a second copy of the turn."""
        if self._conns is not None:
            return self._file_read(action, conversation_id, run)
        attempts = 1 if self._hot.sqlite else 2
        for attempt in range(1, attempts + 1):
            lost: list[BaseException] = []
            try:
                with self._one(action, conversation_id, lost) as cursor:
                    return run(cursor)
            except StoreUnavailable:
                if not lost or attempt == attempts:
                    raise
                # A lost session is rarely alone (a restart ends them all): the pool's other connections are
                # closed too, so the retry, and every later statement, gets a new one.
                self._engine.dispose()
        raise AssertionError("unreachable: the last attempt returns or raises")

    # A SQLite file's hot path, as plain code: the store's own connection (connections.py), the statements, the
    # sqlite3 errors translated once (hot_path.dbapi_error) — what `_one` and `_raw` do for SQLite, without the pool
    # and without a chain of context managers around every statement.

    def _file_read(self, action: str, conversation_id: str | None, run: Callable[[Any], T]) -> T:
        """`run(cursor)` as ONE autocommitted statement (the turn's read: one consistent snapshot), as `_one`."""
        assert self._conns is not None
        self._check_file()
        try:
            held = self._conns.acquire()
            connection = held.driver_connection
            try:
                cursor = connection.cursor()
                try:
                    return run(cursor)
                finally:
                    cursor.close()
            except BaseException:
                _rollback(held, connection, sqlite=True)
                raise
            finally:
                held.close()
        except sqlite3.Error as exc:
            raise dbapi_error(exc, action, conversation_id) from exc

    def _file_write(self, action: str, conversation_id: str | None, run: Callable[[Any], T], *,
                    durable: bool = True) -> T:
        """`run(cursor)` in one BEGIN IMMEDIATE … COMMIT behind the in-process writer queue, as `_raw(write=True)`;
        `durable=False` (the lease only) at synchronous=NORMAL for this transaction, FULL again after it."""
        assert self._conns is not None and self._sqlite_writer is not None
        self._check_file()
        with self._sqlite_writer:
            try:
                held = self._conns.acquire()
                connection = held.driver_connection
                try:
                    cursor = connection.cursor()
                    if not durable:
                        cursor.execute("PRAGMA synchronous = NORMAL")
                    cursor.execute("BEGIN IMMEDIATE")
                    result = run(cursor)
                    cursor.execute("COMMIT")
                    return result
                except BaseException:
                    _rollback(held, connection, sqlite=True)
                    raise
                finally:
                    if not durable:
                        _restore_full_sync(held, connection)
                    held.close()
            except sqlite3.Error as exc:
                raise dbapi_error(exc, action, conversation_id) from exc

    @contextmanager
    def _one(self, action: str, conversation_id: str | None,
             lost: list[BaseException] | None = None) -> Iterator[Any]:
        """A DBAPI cursor for ONE statement that is its own transaction (the turn's read: a single SELECT sees one
        consistent snapshot on both backends; on PostgreSQL also the turn's write and its lease, each one
        statement). SQLite (reads only): the connection is in autocommit (no BEGIN/COMMIT calls); PostgreSQL:
        psycopg's autocommit for this statement (no BEGIN and COMMIT round trips; the statement commits as any
        transaction does, synchronous_commit on), restored before the connection goes back to the pool."""
        self._check_file()
        with translated(action, conversation_id), raw_translated(action, conversation_id):
            fairy = self._connect()
            dbapi: Any = fairy.driver_connection
            autocommit = not self._hot.sqlite
            try:
                if autocommit:
                    dbapi.autocommit = True
                cursor = dbapi.cursor()
                try:
                    yield cursor
                finally:
                    cursor.close()
            except BaseException as exc:
                if lost is not None and not self._hot.sqlite and _connection_lost(dbapi, exc):
                    fairy.invalidate(exc)
                    lost.append(exc)
                else:
                    _rollback(fairy, dbapi, sqlite=self._hot.sqlite)
                raise
            finally:
                if autocommit and not lost:
                    _restore_transactions(fairy, dbapi)
                fairy.close()

    @contextmanager
    def _read(self, action: str) -> Iterator[Connection]:
        self._check_file()
        with translated(action), self._engine.connect() as conn:
            yield conn

    # ------------------------------------------------------------------------------------------ reads

    def load(self, conversation_id: str, owner: str | None) -> ConversationSnapshot | None:
        snapshot, _ = self._statement("load the conversation", conversation_id, lambda cursor: self._hot.load_with_history(
            cursor, _clean(conversation_id), _clean(owner) if owner is not None else None, 0))
        return snapshot

    def history(self, conversation_id: str, lines: int = HISTORY_LINES) -> list[str]:
        with self._read("load the history") as conn:
            return self._history(conn, conversation_id, lines)

    def load_with_history(
        self, conversation_id: str, owner: str | None, lines: int = HISTORY_LINES
    ) -> tuple[ConversationSnapshot | None, list[str]]:
        # One statement (the snapshot and its history window: the history is of the snapshot's version), on one
        # pooled connection, with no BEGIN/COMMIT around it. The DBAPI hot path (hot_path.py).
        cid = _clean(conversation_id)
        wanted = _clean(owner) if owner is not None else None
        turns = (lines + 1) // 2 if lines > 0 else 0
        snapshot: ConversationSnapshot | None = None
        rows: Sequence[tuple[str, str]] | None = None
        if self._recent is not None:
            snapshot, rows = self._remembered(conversation_id, cid, wanted, turns)
        if rows is None:
            snapshot, rows, stored_at = self._statement("load the conversation", conversation_id,
                                                        lambda cursor: self._hot.load_row(cursor, cid, wanted, turns))
            if self._recent is not None and snapshot is not None:
                self._recent.remember(cid, Remembered(snapshot, stored_at, tuple(rows), turns))
        out: list[str] = []
        for user_text, reply_text in reversed(rows):
            out += [f"Người dùng: {user_text}", f"Trợ lý: {reply_text}"]
        return snapshot, out[-lines:] if lines > 0 else []

    def _remembered(self, conversation_id: str, cid: str, owner: str | None, turns: int,
                    ) -> tuple[ConversationSnapshot | None, Sequence[tuple[str, str]] | None]:
        """What this process remembers of the conversation, when its row is still the one remembered (recent.py):
        the snapshot and history window it would read in full, or None for the window when it must (a miss)."""
        assert self._recent is not None
        entry = self._recent.get(cid)
        if entry is None or entry.turns != turns:
            return None, None
        state = self._statement("load the conversation", conversation_id,
                                lambda cursor: self._hot.row_state(cursor, cid))
        if state != entry.key():
            self._recent.forget(cid)
            return None, None
        # The row is the one remembered: its owner decides as the full read's does (another owner's is not there).
        if entry.snapshot.owner != owner:
            return None, []
        return entry.snapshot, entry.window

    @staticmethod
    def _history(conn: Connection, conversation_id: str, lines: int) -> list[str]:
        if lines <= 0:
            return []
        rows = conn.execute(_history_statement((lines + 1) // 2), {"b_id": _clean(conversation_id)}).all()
        out: list[str] = []
        for user_text, reply_text in reversed(rows):
            out += [f"Người dùng: {user_text}", f"Trợ lý: {reply_text}"]
        return out[-lines:]

    def turns(self, conversation_id: str) -> list[TurnRecord]:
        t = turns.c
        query = sa.select(*_TURN_COLUMNS).where(t.conversation_id == _clean(conversation_id)).order_by(t.seq)
        with self._read("load the turns") as conn:
            rows = conn.execute(query).mappings().all()
        return [TurnRecord.model_validate(dict(row)) for row in rows]

    def turns_page(self, conversation_id: str, offset: int, limit: int) -> list[TurnRecord]:
        t = turns.c
        # Through the (conversation_id, seq) key: a page costs the same at turn 10 and at turn 3,000.
        query = (
            sa.select(*_TURN_COLUMNS)
            .where(t.conversation_id == _clean(conversation_id), t.seq > max(offset, 0))
            .order_by(t.seq)
            .limit(max(limit, 0))
        )
        with self._read("load the turns") as conn:
            rows = conn.execute(query).mappings().all()
        return [TurnRecord.model_validate(dict(row)) for row in rows]

    def find_idempotent(self, key: str) -> IdempotentTurn | None:
        t, c = turns.c, conversations.c
        query = (
            sa.select(*_TURN_COLUMNS, t.conversation_id, t.reply, c.owner)
            .join(conversations, c.id == t.conversation_id)
            .where(t.idempotency_key == _clean(key))
        )
        with self._read("look up the idempotency key") as conn:
            row = conn.execute(query).mappings().first()
        if row is None:
            return None
        record = TurnRecord.model_validate({k: row[k] for k in (col.name for col in _TURN_COLUMNS)})
        return IdempotentTurn(conversation_id=row["conversation_id"], owner=row["owner"], turn=record,
                              reply=row["reply"])

    def save_reply(self, conversation_id: str, key: str, reply: dict[str, Any]) -> None:
        t = turns.c
        with self._write("save the reply", conversation_id) as conn:
            conn.execute(sa.update(turns)
                         .where(t.conversation_id == _clean(conversation_id), t.idempotency_key == _clean(key))
                         .values(reply=reply))

    def claim_turn(self, conversation_id: str, version: int, token: str, lease_ms: int = CLAIM_LEASE_MS) -> None:
        if version <= 0:
            return
        now = self._clock()
        # The lease is committed without waiting for the disk (durable=False): it only guards this process's
        # run against a concurrent one and expires by itself; after a crash a lost lease is what expiry would
        # give anyway. The turn's own commit is durable and keeps the version check, the real guarantee.
        def claim(cursor: Any) -> int | None:
            return self._hot.claim(cursor, _clean(conversation_id), version, token, now,
                                   now - timedelta(milliseconds=lease_ms))

        if self._conns is not None:
            current = self._file_write("claim the turn", conversation_id, claim, durable=False)
        elif self._hot.sqlite:
            with self._raw("claim the turn", conversation_id, write=True, durable=False) as cursor:
                current = claim(cursor)
        else:
            current = self._statement("claim the turn", conversation_id, claim)
        if current is None:
            return
        if current != version:
            raise StoreConflict(f"conversation {conversation_id} changed (expected version {version}); "
                                "resend the turn")
        raise StoreConflict(f"another turn on conversation {conversation_id} is running; "
                            "wait for its reply, then send this one")

    def claim_owner(self, conversation_id: str, owner: str) -> bool:
        c = conversations.c
        with self._write("claim the conversation", conversation_id) as conn:
            result = conn.execute(sa.update(conversations)
                                  .where(c.id == _clean(conversation_id), c.owner.is_(None))
                                  .values(owner=_clean(owner)))
        return result.rowcount > 0

    def ping(self) -> None:
        with self._read("answer a ping") as conn:
            conn.execute(sa.select(conversations.c.id).limit(1)).all()

    # ----------------------------------------------------------------------------------------- writes

    def commit_turn(
        self,
        conversation_id: str,
        owner: str | None,
        expected_version: int,
        update: ConversationUpdate,
        turn: TurnRecord,
    ) -> int:
        now = self._clock()
        key = current_key()
        # One transaction (conditional UPDATE or INSERT, then the turn's INSERT, the idempotency key with it:
        # a retry sees the key, or conflicts on its unique index), on the DBAPI hot path (hot_path.py).
        # PostgreSQL: the write is one statement in autocommit (hot_path.Statements.commit_update), one round trip.
        cid, owner_id = _clean(conversation_id), _clean(owner) if owner is not None else None

        def write(cursor: Any) -> tuple[int, Any]:
            return self._hot.commit(cursor, cid, owner_id, expected_version, update, turn, now, key, _clean)

        if self._conns is not None:
            try:
                seq, stamp = self._file_write("write the turn", conversation_id, write)
            except BaseException:
                if self._recent is not None:
                    self._recent.forget(cid)
                raise
            if self._recent is not None:
                # Committed: the row is now what this commit wrote (the next turn's read checks it is still so).
                # `now` as the row reads back: the stored text is UTC with microseconds, nothing dropped.
                self._recent.committed(cid, owner_id, expected_version, _clean(update.state), update,
                                       (_clean(turn.user_text), _clean(turn.reply_text)), seq, stamp,
                                       now.astimezone(UTC), (HISTORY_LINES + 1) // 2)
        elif self._hot.sqlite:
            with self._raw("write the turn", conversation_id, write=True) as cursor:
                write(cursor)
        else:
            self._statement("write the turn", conversation_id, write)
        return expected_version + 1

    def delete(self, conversation_id: str, owner: str | None) -> bool:
        c = conversations.c
        visible = c.owner.is_(None) if owner is None else c.owner == _clean(owner)
        # Turns go with it: ON DELETE CASCADE (SQLite: foreign_keys=ON on every connection).
        with self._write("delete the conversation", conversation_id) as conn:
            result = conn.execute(sa.delete(conversations).where(c.id == _clean(conversation_id), visible))
        if self._recent is not None:
            self._recent.forget(_clean(conversation_id))
        return result.rowcount > 0

    def purge(self, older_than: datetime) -> int:
        with self._write("purge old conversations") as conn:
            result = conn.execute(sa.delete(conversations).where(conversations.c.updated_at < older_than))
        return int(result.rowcount)

    # --------------------------------------------------------------------------------------- sign-offs

    def record_signoff(self, signoff: SignOff) -> SignOff:
        stored = signoff.model_copy(update={"signed_at": self._clock()})
        with self._write("record the sign-off") as conn:
            conn.execute(sa.insert(signoffs).values(
                spec_fingerprint=_clean(stored.spec_fingerprint), signed_by=_clean(stored.signed_by),
                role=_clean(stored.role) if stored.role else None, note=_clean(stored.note) if stored.note else None,
                signed_at=stored.signed_at))
        return stored

    def signoffs(self, spec_fingerprint: str) -> list[SignOff]:
        s = signoffs.c
        query = (sa.select(s.spec_fingerprint, s.signed_by, s.role, s.note, s.signed_at)
                 .where(s.spec_fingerprint == _clean(spec_fingerprint)).order_by(s.signed_at, s.id))
        with self._read("read the sign-offs") as conn:
            rows = conn.execute(query).mappings().all()
        return [SignOff.model_validate(dict(row)) for row in rows]

    def close(self) -> None:
        if self._conns is not None:
            self._conns.close()
        self._engine.dispose()
