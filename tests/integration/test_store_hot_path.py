"""The turn's hot path on the DBAPI connection (engine/store/hot_path.py) writes what SQLAlchemy's column types
would write, and only a turn's lease is ever committed without syncing: every turn commit stays durable."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa

from engine.store.schema import conversations, turns
from engine.store.sql import SqlStore
from tests.integration.test_sql_store import OWNER, grow, new_id, turn, update

pytestmark = pytest.mark.integration

FULL = 2
"""PRAGMA synchronous = FULL: the WAL is synced at every commit."""


def _synchronous_of_every_pooled_connection(store: SqlStore) -> list[int]:
    assert store._conns is not None  # a file database: the turn's statements ran on the store's own connections
    held = [store._conns.acquire() for _ in range(3)]  # the connections the turns used, and fresh ones
    try:
        return [int(c.driver_connection.execute("PRAGMA synchronous").fetchone()[0]) for c in held]
    finally:
        for c in held:
            c.close()


def test_a_lease_leaves_every_connection_committing_at_full_sync(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'formulary.db'}")
    try:
        cid = new_id()
        version = grow(store, cid, 2)
        store.claim_turn(cid, version, "this-turn")
        with pytest.raises(Exception, match="running"):
            store.claim_turn(cid, version, "another-turn", lease_ms=60_000)  # refused: same connection path
        store.commit_turn(cid, OWNER, version, update(), turn(version + 1))

        assert _synchronous_of_every_pooled_connection(store) == [FULL] * 3
    finally:
        store.close()


def test_rows_written_on_the_hot_path_read_back_through_sqlalchemy_types(tmp_path: Path) -> None:
    moment = datetime(2026, 12, 3, 12, 0, 0, 0, tzinfo=UTC)  # a whole second: no microseconds to drop
    store = SqlStore(f"sqlite:///{tmp_path / 'formulary.db'}", clock=lambda: moment)
    try:
        cid = new_id()
        grow(store, cid, 2)
        with store._engine.connect() as conn:
            row = conn.execute(sa.select(conversations.c.created_at, conversations.c.updated_at, conversations.c.frame,
                                         conversations.c.pending).where(conversations.c.id == cid)).one()
            raw = conn.exec_driver_sql("SELECT created_at FROM turns WHERE conversation_id = ?", (cid,)).first()
            stored_turns = conn.execute(sa.select(turns.c.seq, turns.c.frame, turns.c.trace)
                                        .where(turns.c.conversation_id == cid).order_by(turns.c.seq)).all()
        snapshot = store.load(cid, OWNER)
    finally:
        store.close()

    # SQLAlchemy's SQLite DATETIME text (microseconds always written), read back as aware UTC.
    assert raw is not None and raw[0] == "2026-12-03 12:00:00.000000"
    assert (row.created_at, row.updated_at) == (moment, moment)
    assert row.frame == update().frame.model_dump(mode="json")  # type: ignore[union-attr]
    assert [s.seq for s in stored_turns] == [1, 2] and all(isinstance(s.trace, dict) for s in stored_turns)
    assert snapshot is not None and snapshot.frame == update().frame and snapshot.updated_at == moment
