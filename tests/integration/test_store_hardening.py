"""Store contract for issue #19 on every backend (memory, SQLite, PostgreSQL): bounded turn pages,
Idempotency-Keys stored with their turn, turn claims that refuse a losing turn before it spends anything,
and explicit claims of ownerless conversations."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.errors import StoreConflict
from engine.store.base import ConversationStore
from engine.store.idempotency import turn_key
from engine.store.memory import MemoryStore
from engine.store.sql import SqlStore
from tests.integration.sql_support import fresh_postgres_schema
from tests.integration.test_sql_store import OWNER, grow, new_id, turn, update


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ConversationStore]:
    if request.param == "memory":
        yield MemoryStore()
        return
    if request.param == "sqlite":
        sql = SqlStore(f"sqlite:///{tmp_path / 'formulary.db'}")
        yield sql
        sql.close()
        return
    with fresh_postgres_schema() as url:
        sql = SqlStore(url)
        yield sql
        sql.close()

pytestmark = pytest.mark.integration


def test_a_page_of_turns_is_the_requested_window_of_a_long_conversation(store: ConversationStore) -> None:
    cid = new_id()
    grow(store, cid, 30)

    page = store.turns_page(cid, offset=10, limit=5)

    assert [t.seq for t in page] == [11, 12, 13, 14, 15]
    assert [t.user_text for t in page] == [f"câu hỏi {n}" for n in range(11, 16)]
    assert store.turns_page(cid, offset=28, limit=50) == store.turns(cid)[28:]


def test_a_turn_committed_under_an_idempotency_key_is_found_by_it_with_its_reply(store: ConversationStore) -> None:
    cid = new_id()
    with turn_key("key-1"):
        store.commit_turn(cid, OWNER, 0, update(), turn(1, "Bé 5 tuổi"))
    store.save_reply(cid, "key-1", {"reply": "Bé nặng bao nhiêu kg?", "turn": 1})

    found = store.find_idempotent("key-1")

    assert found is not None
    assert (found.conversation_id, found.owner, found.turn.seq, found.turn.user_text) == (cid, OWNER, 1, "Bé 5 tuổi")
    assert found.reply == {"reply": "Bé nặng bao nhiêu kg?", "turn": 1}
    assert store.find_idempotent("key-2") is None


def test_the_same_key_is_stored_once_even_for_two_new_conversations(store: ConversationStore) -> None:
    with turn_key("retry-key"):
        store.commit_turn(new_id(), OWNER, 0, update(), turn(1))
        with pytest.raises(StoreConflict):
            store.commit_turn(new_id(), OWNER, 0, update(), turn(1))


def test_of_turns_that_loaded_the_same_version_only_one_gets_the_claim(store: ConversationStore) -> None:
    cid = new_id()
    version = grow(store, cid, 2)
    won: list[str] = []
    lost: list[str] = []
    start = threading.Barrier(8)

    def claim(token: str) -> None:
        start.wait(timeout=30)
        try:
            store.claim_turn(cid, version, token)
            won.append(token)
        except StoreConflict:
            lost.append(token)

    threads = [threading.Thread(target=claim, args=(f"turn-{i}",)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)

    assert len(won) == 1 and len(lost) == 7
    store.claim_turn(cid, version, won[0])  # the holder may claim again (idempotent)
    store.commit_turn(cid, OWNER, version, update(), turn(version + 1))
    with pytest.raises(StoreConflict, match="changed"):
        store.claim_turn(cid, version, "late-turn")  # the version is gone: the turn would lose its commit
    store.claim_turn(cid, version + 1, "next-turn")  # the next version is free


def test_a_claim_left_by_a_dead_turn_expires_after_its_lease(store: ConversationStore) -> None:
    cid = new_id()
    version = grow(store, cid, 1)
    store.claim_turn(cid, version, "dead-turn", lease_ms=0)
    store.claim_turn(cid, version, "next-turn", lease_ms=0)  # the lease is over: taken over
    with pytest.raises(StoreConflict, match="running"):
        store.claim_turn(cid, version, "third-turn", lease_ms=60_000)


def test_an_ownerless_conversation_is_given_to_a_key_only_by_an_explicit_claim(store: ConversationStore) -> None:
    cid = new_id()
    grow(store, cid, 1, owner=None)
    assert store.load(cid, OWNER) is None

    assert store.claim_owner(cid, OWNER) is True
    assert store.load(cid, OWNER) is not None and store.load(cid, None) is None
    assert store.claim_owner(cid, "clinic-b") is False  # owned now: never re-assigned by a claim
    assert store.claim_owner(new_id(), OWNER) is False
