"""A SQLite file store remembers the conversations it committed (engine/store/recent.py): the next turn's read,
checked against the row by one primary-key lookup, returns exactly what a full read of the database returns — and
anything another process (another store on the same file) did since is read from the database, never from memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.store.sql import SqlStore
from states.frame import QueryFrame
from tests.integration.test_sql_store import OWNER, grow, new_id, turn, update

pytestmark = pytest.mark.integration

ADULT = QueryFrame(turn_type="drug_attribute", drugs=["paracetamol"], section_key="chong_chi_dinh",
                   population="adult", notes=["a note"])


def _url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'formulary.db'}"


def _fresh_read(url: str, cid: str, owner: str | None = OWNER) -> tuple[object, list[str]]:
    """What a store that remembers nothing reads (a full read of the database)."""
    other = SqlStore(url)
    try:
        return other.load_with_history(cid, owner)
    finally:
        other.close()


def test_a_remembered_read_is_the_full_read_of_the_same_rows(tmp_path: Path) -> None:
    url = _url(tmp_path)
    store = SqlStore(url)
    try:
        cid = new_id()
        version = 0
        for seq in range(1, 9):  # past the 6-turn window
            frame = ADULT if seq % 2 else update().frame
            pending = {"reason": "missing_route", "missing": ["route"], "quick_replies": ["Uống"]} if seq == 5 else None
            version = store.commit_turn(cid, OWNER, version, update(frame=frame, pending=pending, streak=seq % 3),
                                        turn(seq, f"câu hỏi {seq}\x00", f"trả lời {seq}"))
            remembered = store.load_with_history(cid, OWNER)
            assert store._recent is not None and store._recent.get(cid) is not None  # served from memory
            assert remembered == _fresh_read(url, cid)
        snapshot, history = store.load_with_history(cid, OWNER)
        assert snapshot is not None and snapshot.version == 8 and snapshot.turn_count == 8
        assert history[-2:] == ["Người dùng: câu hỏi 8\ufffd", "Trợ lý: trả lời 8"]
        assert len(history) == 12
    finally:
        store.close()


def test_another_process_commit_is_read_from_the_database(tmp_path: Path) -> None:
    url = _url(tmp_path)
    mine, theirs = SqlStore(url), SqlStore(url)
    try:
        cid = new_id()
        version = grow(mine, cid, 2)
        assert mine.load_with_history(cid, OWNER)[0] is not None
        theirs.commit_turn(cid, OWNER, version, update(state="ready", frame=ADULT), turn(3, "của họ", "đáp"))
        snapshot, history = mine.load_with_history(cid, OWNER)
        assert snapshot is not None and snapshot.version == 3 and snapshot.state == "ready"
        assert snapshot.frame == ADULT
        assert history[-2:] == ["Người dùng: của họ", "Trợ lý: đáp"]
        # And the next commit of this process builds on what it read.
        mine.commit_turn(cid, OWNER, 3, update(), turn(4, "lại tôi", "vâng"))
        assert mine.load_with_history(cid, OWNER) == _fresh_read(url, cid)
    finally:
        mine.close()
        theirs.close()


def test_an_owner_claimed_elsewhere_is_seen_at_once(tmp_path: Path) -> None:
    url = _url(tmp_path)
    mine, theirs = SqlStore(url), SqlStore(url)
    try:
        cid = new_id()
        grow(mine, cid, 2, owner=None)
        assert mine.load_with_history(cid, None)[0] is not None
        assert theirs.claim_owner(cid, OWNER)
        assert mine.load_with_history(cid, None) == (None, [])  # no longer open to no key
        snapshot, _ = mine.load_with_history(cid, OWNER)
        assert snapshot is not None and snapshot.owner == OWNER
        assert mine.load_with_history(cid, "clinic-b") == (None, [])
    finally:
        mine.close()
        theirs.close()


def test_a_conversation_deleted_elsewhere_is_gone(tmp_path: Path) -> None:
    url = _url(tmp_path)
    mine, theirs = SqlStore(url), SqlStore(url)
    try:
        cid = new_id()
        grow(mine, cid, 3)
        assert theirs.delete(cid, OWNER)
        assert mine.load_with_history(cid, OWNER) == (None, [])
        # Made again under the same id: its own rows, not the remembered ones.
        theirs.commit_turn(cid, OWNER, 0, update(state="ready", frame=ADULT), turn(1, "mới", "mới đáp"))
        snapshot, history = mine.load_with_history(cid, OWNER)
        assert snapshot is not None and snapshot.version == 1 and snapshot.frame == ADULT
        assert history == ["Người dùng: mới", "Trợ lý: mới đáp"]
    finally:
        mine.close()
        theirs.close()


def test_a_conflicting_commit_leaves_nothing_remembered_of_it(tmp_path: Path) -> None:
    url = _url(tmp_path)
    store = SqlStore(url)
    try:
        cid = new_id()
        version = grow(store, cid, 2)
        with pytest.raises(Exception, match="changed"):
            store.commit_turn(cid, OWNER, version - 1, update(state="ready"), turn(version, "cũ", "cũ"))
        assert store.load_with_history(cid, OWNER) == _fresh_read(url, cid)
        snapshot, _ = store.load_with_history(cid, OWNER)
        assert snapshot is not None and snapshot.version == version
    finally:
        store.close()
