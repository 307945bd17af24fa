"""The turn's two store round trips (load with history, commit) on the DBAPI connection, with bound parameters.

Every turn reads its conversation and history and commits one conditional UPDATE (or INSERT) plus one turn
INSERT. Through SQLAlchemy Core each of those statements costs its execution context, result wrappers and
type processors (bind and result) on every call, more than the SQL itself on SQLite. Here the same
statements are plain SQL text written once per process and run on a DBAPI connection (a SQLite file: the
store's own sqlite3 connections, connections.py; else the pool's `Engine.raw_connection()`; the same connect-time
pragmas, the same BEGIN IMMEDIATE on SQLite), with the values bound as parameters, encoded exactly as the
SQLAlchemy column types store them:

- JSON columns: the same pydantic-core encoder as the engine's `json_serializer` (`none_as_null`: a missing
  frame or pending is SQL NULL), each record encoded once;
- timestamps: naive UTC text in SQLAlchemy's SQLite format, aware datetimes on PostgreSQL (timestamptz).

Durability is unchanged: one transaction, committed before the call returns (SQLite WAL with its default
synchronous=FULL: the WAL is synced at every commit). The rest of the store (admin reads, sign-offs, purge)
stays on SQLAlchemy. Vendor errors are translated here as in `sql.translated`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TypeVar

import psycopg
from pydantic import BaseModel
from pydantic_core import from_json

from core.errors import StoreConflict, StoreError, StoreUnavailable
from engine.store.base import ConversationSnapshot, ConversationUpdate, TurnRecord
from states.frame import Pending, QueryFrame

_SNAPSHOT = ("id", "owner", "state", "frame", "pending", "clarify_streak", "spec_fingerprint", "version",
             "turn_count", "created_at", "updated_at")
_UPDATED = ("state", "frame", "pending", "clarify_streak", "spec_fingerprint")
_TURN = ("conversation_id", "seq", "user_text", "reply_text", "outcome", "reason", "frame", "trace", "evidence_ids",
         "citations", "quick_replies", "created_at", "idempotency_key")
_CONFLICT_SQLSTATES = frozenset({"40001", "40P01"})  # serialization failure, deadlock detected

SQLITE_TIMESTAMP = "%Y-%m-%d %H:%M:%S.%f"
"""SQLAlchemy's SQLite DATETIME storage format (naive UTC): rows written here and there read alike."""


class Statements:
    """The hot path's SQL for one paramstyle (`?` for sqlite3, `%s` for psycopg)."""

    def __init__(self, mark: str) -> None:
        def marks(n: int) -> str:
            return ", ".join([mark] * n)

        self.load = f"SELECT {', '.join(_SNAPSHOT)} FROM conversations WHERE id = {mark}"
        # The snapshot and its newest turns in one statement (one read snapshot on both backends, no BEGIN/COMMIT,
        # one round trip on PostgreSQL): the history window as one JSON array of [seq, user, reply] in the row.
        pairs = ("json_group_array(json_array(seq, user_text, reply_text))" if mark == "?" else
                 "json_agg(json_build_array(seq, user_text, reply_text))")
        self.load_with_history = (
            f"SELECT {', '.join(_SNAPSHOT)}, (SELECT {pairs} FROM (SELECT seq, user_text, reply_text "
            f"FROM turns WHERE conversation_id = conversations.id ORDER BY seq DESC LIMIT {mark}) AS recent) "
            f"FROM conversations WHERE id = {mark}")
        self.insert_conversation = (f"INSERT INTO conversations ({', '.join(_SNAPSHOT)}) "
                                    f"VALUES ({marks(len(_SNAPSHOT))})")
        sets = ", ".join(f"{name} = {mark}" for name in _UPDATED)
        self.update_conversation = (f"UPDATE conversations SET version = version + 1, turn_count = turn_count + 1, "
                                    f"updated_at = {mark}, {sets} WHERE id = {mark} AND version = {mark} "
                                    "RETURNING turn_count")
        self.insert_turn = f"INSERT INTO turns ({', '.join(_TURN)}) VALUES ({marks(len(_TURN))})"
        self.claim = (f"UPDATE conversations SET claim_token = {mark}, claim_version = {mark}, claimed_at = {mark} "
                      f"WHERE id = {mark} AND version = {mark} AND (claim_token IS NULL OR claim_version != {mark} "
                      f"OR claim_token = {mark} OR claimed_at < {mark})")
        self.version = f"SELECT version FROM conversations WHERE id = {mark}"
        # What identifies the row's state (recent.py): every commit bumps the version and stamps updated_at.
        self.row_state = f"SELECT version, owner, updated_at FROM conversations WHERE id = {mark}"
        # PostgreSQL only: the turn's write as ONE statement in autocommit (its own transaction, committed durably
        # with synchronous_commit on, in one round trip instead of BEGIN, UPDATE, INSERT, COMMIT): the
        # conversation's conditional UPDATE (or its INSERT) in a data-modifying CTE, the turn's INSERT reading the
        # seq from it. No row updated (another turn committed first) inserts no turn and returns no row.
        # Parameters in a SELECT list have no target type: the JSON and timestamp ones are cast.
        types = {"frame": "::json", "trace": "::json", "evidence_ids": "::json", "citations": "::json",
                 "quick_replies": "::json", "created_at": "::timestamptz"}
        turn_values = ", ".join(f"{mark}{types.get(name, '')}" for name in _TURN[2:])
        turn_insert = f"INSERT INTO turns ({', '.join(_TURN)}) SELECT c.id, c.turn_count, {turn_values} FROM c"
        self.commit_update = (f"WITH c AS (UPDATE conversations SET version = version + 1, turn_count = turn_count + 1, "
                              f"updated_at = {mark}, {sets} WHERE id = {mark} AND version = {mark} "
                              f"RETURNING id, turn_count) {turn_insert} RETURNING seq")
        self.commit_insert = (f"WITH c AS ({self.insert_conversation} RETURNING id, turn_count) {turn_insert} "
                              "RETURNING seq")
        # The lease without waiting for the disk, as `SET LOCAL synchronous_commit = off` in a transaction does:
        # set_config(…, true) is local to the statement's own transaction, and it is a condition of the row being
        # updated, so no lease is written by a transaction that would commit synchronously.
        self.claim_async = f"{self.claim} AND set_config('synchronous_commit', 'off', true) IS NOT NULL"


SQLITE = Statements("?")
POSTGRESQL = Statements("%s")


def _timestamp_sqlite(value: datetime) -> str:
    # SQLITE_TIMESTAMP's text, written by isoformat (microseconds always present): half strftime's cost.
    return value.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")


def _timestamp_pg(value: datetime) -> datetime:
    return value.astimezone(UTC)


def _read_timestamp(value: Any) -> datetime | None:
    if value is None:
        return None
    parsed = datetime.fromisoformat(value) if isinstance(value, str) else value
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


M = TypeVar("M", bound=BaseModel)


def _read_model(model: type[M], value: Any) -> M | None:
    """A stored JSON record as `model`: the text validated as JSON in one pass (no dict in between); a decoded
    value (psycopg) validated as Python; NULL is None."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)):
        return model.model_validate_json(value)
    return model.model_validate(value)


def _read_json(value: Any) -> Any:
    # sqlite3 returns the stored text; psycopg has already decoded a json column.
    return from_json(value) if isinstance(value, (str, bytes)) else value


@contextmanager
def raw_translated(action: str, conversation_id: str | None) -> Iterator[None]:
    """DBAPI errors of the hot path as StoreConflict (a duplicate key, a serialization failure) or
    StoreUnavailable, the same translation `sql.translated` makes of SQLAlchemy's wrapped errors."""
    try:
        yield
    except StoreError:
        raise
    except (sqlite3.Error, psycopg.Error) as exc:
        raise dbapi_error(exc, action, conversation_id) from exc


def dbapi_error(exc: sqlite3.Error | psycopg.Error, action: str, conversation_id: str | None) -> StoreError:
    """The project's error for a DBAPI error of the hot path (`raw_translated`, and the SQLite file path's plain
    code, which raises it `from exc`)."""
    if isinstance(exc, (sqlite3.IntegrityError, psycopg.IntegrityError)) or (
            isinstance(exc, psycopg.Error) and getattr(exc, "sqlstate", None) in _CONFLICT_SQLSTATES):
        return StoreConflict(f"conversation {conversation_id} changed while this turn ran; resend the turn")
    return StoreUnavailable(f"conversation store could not {action}: {_message(exc)}")


def _message(exc: BaseException) -> str:
    first_line = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first_line}"[:300]


class HotPath:
    """Load-with-history, lease and commit on the DBAPI connection the store hands it (SqlStore._connect)."""

    def __init__(self, backend: str, dumps: Callable[[object], str]) -> None:
        self.sqlite = backend == "sqlite"
        self.sql = SQLITE if self.sqlite else POSTGRESQL
        self._dumps = dumps
        self._timestamp: Callable[[datetime], Any] = _timestamp_sqlite if self.sqlite else _timestamp_pg

    def _json(self, value: object) -> str | None:
        return None if value is None else self._dumps(value)

    # ------------------------------------------------------------------------------------------ read

    def load_with_history(self, cursor: Any, conversation_id: str, owner: str | None,
                          turns: int) -> tuple[ConversationSnapshot | None, list[tuple[str, str]]]:
        """The snapshot and its newest `turns` turns (user, reply), newest first: ONE statement, which the caller
        runs on its own (a single SELECT reads one consistent snapshot; no BEGIN/COMMIT around it)."""
        snapshot, window, _ = self.load_row(cursor, conversation_id, owner, turns)
        return snapshot, window

    def row_state(self, cursor: Any, conversation_id: str) -> tuple[int, str | None, Any] | None:
        """The row's (version, owner, updated_at as stored), or None when there is no such conversation: one
        primary-key lookup (recent.py checks what it remembers against it)."""
        cursor.execute(self.sql.row_state, (conversation_id,))
        row = cursor.fetchone()
        return None if row is None else (int(row[0]), row[1], row[2])

    def load_row(self, cursor: Any, conversation_id: str, owner: str | None, turns: int,
                 ) -> tuple[ConversationSnapshot | None, list[tuple[str, str]], Any]:
        """`load_with_history`, and the row's `updated_at` as stored (None when not found)."""
        if turns > 0:
            cursor.execute(self.sql.load_with_history, (turns, conversation_id))
        else:
            cursor.execute(self.sql.load, (conversation_id,))
        row = cursor.fetchone()
        # Exact owner match, as SqlStore._load: a conversation of another owner (or none) is not there.
        if row is None or row[1] != owner:
            return None, [], None
        values = dict(zip(_SNAPSHOT, row[:len(_SNAPSHOT)], strict=True))
        stored_at = values["updated_at"]
        # The stored JSON text validated in one pass (SQLite); psycopg has already decoded it into a dict.
        values["frame"] = _read_model(QueryFrame, values["frame"])
        values["pending"] = _read_model(Pending, values["pending"])
        values["created_at"] = _read_timestamp(values["created_at"])
        values["updated_at"] = _read_timestamp(values["updated_at"])
        snapshot = ConversationSnapshot.model_validate(values)
        if turns <= 0:
            return snapshot, [], stored_at
        window = _read_json(row[len(_SNAPSHOT)]) or []
        # Ordered by seq here: an aggregate's input order is not something SQL promises.
        return snapshot, [(user, reply) for _, user, reply in sorted(window, key=lambda t: -int(t[0]))], stored_at

    # ----------------------------------------------------------------------------------------- write

    def claim(self, cursor: Any, conversation_id: str, version: int, token: str, now: datetime,
              expired_before: datetime) -> int | None:
        """One conditional UPDATE: of several turns that loaded the same version exactly one gets the lease.
        None when this turn holds it; else the conversation's current version (None if it is gone)."""
        # PostgreSQL runs it in autocommit: the statement itself makes its commit asynchronous (claim_async).
        cursor.execute(self.sql.claim if self.sqlite else self.sql.claim_async, (
            token, version, self._timestamp(now), conversation_id, version, version, token,
            self._timestamp(expired_before)))
        if cursor.rowcount == 1:
            return None
        cursor.execute(self.sql.version, (conversation_id,))
        row = cursor.fetchone()
        return -1 if row is None else int(row[0])

    def commit(self, cursor: Any, conversation_id: str, owner: str | None, expected_version: int,
               update: ConversationUpdate, turn: TurnRecord, now: datetime, key: str | None,
               clean: Callable[[str], str]) -> tuple[int, Any]:
        """The conditional UPDATE (or the INSERT of a new conversation) and the turn's INSERT. SQLite: three
        statements, the caller owns the transaction (BEGIN IMMEDIATE … COMMIT). PostgreSQL: one statement, which
        the caller runs in autocommit (it is its own transaction). Returns the turn's seq (the conversation's new
        turn count) and `updated_at` as written."""
        stamp = self._timestamp(now)
        frame = self._json(update.frame)
        updated = (clean(update.state), frame, self._json(update.pending), update.clarify_streak,
                   update.spec_fingerprint)
        turn_values = (
            clean(turn.user_text), clean(turn.reply_text), clean(turn.outcome),
            # The runner hands the same frame to both rows: encoded once.
            clean(turn.reason), frame if turn.frame is update.frame else self._json(turn.frame),
            self._dumps(turn.trace), self._dumps(turn.evidence_ids),
            self._dumps(turn.citations), self._dumps(turn.quick_replies), stamp,
            clean(key) if key is not None else None)
        if not self.sqlite:
            if expected_version == 0:
                cursor.execute(self.sql.commit_insert, (
                    conversation_id, owner, *updated, 1, 1, stamp, stamp, *turn_values))
            else:
                cursor.execute(self.sql.commit_update, (stamp, *updated, conversation_id, expected_version,
                                                        *turn_values))
            written = cursor.fetchone()
            if written is None:
                raise StoreConflict(f"conversation {conversation_id} changed (expected version {expected_version}); "
                                    "resend the turn")
            return int(written[0]), stamp
        if expected_version == 0:
            cursor.execute(self.sql.insert_conversation, (
                conversation_id, owner, *updated, 1, 1, stamp, stamp))
            seq = 1
        else:
            cursor.execute(self.sql.update_conversation, (stamp, *updated, conversation_id, expected_version))
            seq_row = cursor.fetchone()
            if seq_row is None:
                raise StoreConflict(f"conversation {conversation_id} changed (expected version {expected_version}); "
                                    "resend the turn")
            seq = int(seq_row[0])
        cursor.execute(self.sql.insert_turn, (conversation_id, seq, *turn_values))
        return seq, stamp
