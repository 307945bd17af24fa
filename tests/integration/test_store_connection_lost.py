"""PostgreSQL drops the store's pooled connections (a server restart, an idle timeout): the next turn still loads,
claims and commits, each exactly once, with no ping before every statement (issue #22: the pre-ping was half of
a turn's round trips)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from core.errors import StoreConflict
from engine.store.sql import SqlStore
from tests.integration.sql_support import POSTGRES_URL, fresh_postgres_schema
from tests.integration.test_sql_store import OWNER, grow, new_id, turn, update

pytestmark = [pytest.mark.integration, pytest.mark.postgres]


@pytest.fixture
def store() -> Iterator[SqlStore]:
    with fresh_postgres_schema() as url:
        sql = SqlStore(url)
        yield sql
        sql.close()


def _drop_every_store_connection(store: SqlStore, pooled: int = 3) -> int:
    """What a restart does to the pool: the server ends each of the store's pooled sessions (found by asking
    each pooled connection its backend pid; no other session is touched)."""
    held = [store._engine.raw_connection() for _ in range(pooled)]
    pids = []
    for fairy in held:
        dbapi: Any = fairy.driver_connection
        pids.append(dbapi.execute("SELECT pg_backend_pid()").fetchone()[0])
        dbapi.rollback()
    for fairy in held:
        fairy.close()  # back to the pool, to be found dead by the next statement
    with psycopg.connect(POSTGRES_URL.replace("postgresql+psycopg://", "postgresql://", 1), autocommit=True) as conn:
        for pid in pids:
            conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
    return len(set(pids))


def test_a_turn_after_the_server_dropped_the_pool_loads_claims_and_commits_once(store: SqlStore) -> None:
    cid = new_id()
    version = grow(store, cid, 2)
    assert _drop_every_store_connection(store) == 3

    snapshot, history = store.load_with_history(cid, OWNER)
    assert snapshot is not None and snapshot.version == version
    assert history[-1] == "Trợ lý: trả lời 2"
    store.claim_turn(cid, version, "token-a")
    _drop_every_store_connection(store)
    assert store.commit_turn(cid, OWNER, version, update(), turn(version + 1, "câu hỏi 3", "trả lời 3")) == version + 1
    assert [t.seq for t in store.turns(cid)] == [1, 2, 3]  # stored once


def test_a_write_whose_version_moved_on_is_still_a_conflict_after_a_reconnect(store: SqlStore) -> None:
    cid = new_id()
    version = grow(store, cid, 1)
    store.commit_turn(cid, OWNER, version, update(), turn(version + 1))
    _drop_every_store_connection(store)
    with pytest.raises(StoreConflict):  # the retry keeps the version check: no second copy of turn 2
        store.commit_turn(cid, OWNER, version, update(), turn(version + 1))
    assert [t.seq for t in store.turns(cid)] == [1, 2]
