"""The turn's two store round trips (load with history, commit) on the DBAPI connection, with bound parameters.

Every turn reads its conversation and history and commits one conditional UPDATE (or INSERT) plus one turn
INSERT. Through SQLAlchemy Core each of those statements costs its execution context, result wrappers and
type processors (bind and result) on every call, more than the SQL itself on SQLite. Here the same
statements are plain SQL text written once per process and run on the pooled DBAPI connection
(`Engine.raw_connection()`: the same pool, the same connect-time pragmas, the same BEGIN IMMEDIATE on
SQLite), with the values bound as parameters, encoded exactly as the SQLAlchemy column types store them:

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
from typing import Any

import psycopg
from pydantic_core import from_json

from core.errors import StoreConflict, StoreError, StoreUnavailable
from engine.store.base import ConversationSnapshot, ConversationUpdate, TurnRecord

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
        self.history = (f"SELECT user_text, reply_text FROM turns WHERE conversation_id = {mark} "
                        f"ORDER BY seq DESC LIMIT {mark}")
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


SQLITE = Statements("?")
POSTGRESQL = Statements("%s")


def _timestamp_sqlite(value: datetime) -> str:
    return value.astimezone(UTC).replace(tzinfo=None).strftime(SQLITE_TIMESTAMP)


def _timestamp_pg(value: datetime) -> datetime:
    return value.astimezone(UTC)


def _read_timestamp(value: Any) -> datetime | None:
    if value is None:
        return None
    parsed = datetime.fromisoformat(value) if isinstance(value, str) else value
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


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
    except (sqlite3.IntegrityError, psycopg.IntegrityError) as exc:
        raise StoreConflict(f"conversation {conversation_id} changed while this turn ran; resend the turn") from exc
    except psycopg.Error as exc:
        if getattr(exc, "sqlstate", None) in _CONFLICT_SQLSTATES:
            raise StoreConflict(f"conversation {conversation_id} changed while this turn ran; resend the turn") from exc
        raise StoreUnavailable(f"conversation store could not {action}: {_message(exc)}") from exc
    except sqlite3.Error as exc:
        raise StoreUnavailable(f"conversation store could not {action}: {_message(exc)}") from exc


def _message(exc: BaseException) -> str:
    first_line = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first_line}"[:300]


class HotPath:
    """Load-with-history and commit on a DBAPI connection checked out of the store's pool."""

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
        cursor.execute(self.sql.load, (conversation_id,))
        row = cursor.fetchone()
        # Exact owner match, as SqlStore._load: a conversation of another owner (or none) is not there.
        if row is None or row[1] != owner:
            return None, []
        values = dict(zip(_SNAPSHOT, row, strict=True))
        values["frame"] = _read_json(values["frame"])
        values["pending"] = _read_json(values["pending"])
        values["created_at"] = _read_timestamp(values["created_at"])
        values["updated_at"] = _read_timestamp(values["updated_at"])
        snapshot = ConversationSnapshot.model_validate(values)
        if turns <= 0:
            return snapshot, []
        cursor.execute(self.sql.history, (conversation_id, turns))
        return snapshot, list(cursor.fetchall())

    # ----------------------------------------------------------------------------------------- write

    def claim(self, cursor: Any, conversation_id: str, version: int, token: str, now: datetime,
              expired_before: datetime) -> int | None:
        """One conditional UPDATE: of several turns that loaded the same version exactly one gets the lease.
        None when this turn holds it; else the conversation's current version (None if it is gone)."""
        cursor.execute(self.sql.claim, (token, version, self._timestamp(now), conversation_id, version, version,
                                        token, self._timestamp(expired_before)))
        if cursor.rowcount == 1:
            return None
        cursor.execute(self.sql.version, (conversation_id,))
        row = cursor.fetchone()
        return -1 if row is None else int(row[0])

    def commit(self, cursor: Any, conversation_id: str, owner: str | None, expected_version: int,
               update: ConversationUpdate, turn: TurnRecord, now: datetime, key: str | None,
               clean: Callable[[str], str]) -> None:
        """The conditional UPDATE (or the INSERT of a new conversation) and the turn's INSERT; the caller
        owns the transaction (BEGIN IMMEDIATE … COMMIT on SQLite, the connection's transaction on PostgreSQL)."""
        stamp = self._timestamp(now)
        frame = self._json(update.frame)
        updated = (clean(update.state), frame, self._json(update.pending), update.clarify_streak,
                   update.spec_fingerprint)
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
        cursor.execute(self.sql.insert_turn, (
            conversation_id, seq, clean(turn.user_text), clean(turn.reply_text), clean(turn.outcome),
            # The runner hands the same frame to both rows: encoded once.
            clean(turn.reason), frame if turn.frame is update.frame else self._json(turn.frame),
            self._dumps(turn.trace), self._dumps(turn.evidence_ids),
            self._dumps(turn.citations), self._dumps(turn.quick_replies), stamp,
            clean(key) if key is not None else None))
