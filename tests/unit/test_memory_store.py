"""MemoryStore keeps the SQL store's semantics (the full contract suite is tests/integration/test_sql_store.py)."""

from __future__ import annotations

from engine.store.base import ConversationUpdate, TurnRecord
from engine.store.memory import MemoryStore

UPDATE = ConversationUpdate(state="ready", frame=None, pending=None, clarify_streak=0, spec_fingerprint="fp")


def _turn(seq: int, n: int) -> TurnRecord:
    return TurnRecord(seq=seq, user_text=f"hỏi {n}", reply_text=f"đáp {n}", outcome="answerable", reason="x")


def _conversation(turns: int) -> MemoryStore:
    store = MemoryStore()
    for n in range(1, turns + 1):
        store.commit_turn("c", None, n - 1, UPDATE, _turn(n, n))
    return store


def test_an_odd_history_window_is_filled_to_the_number_of_lines_asked() -> None:
    assert _conversation(4).history("c", lines=3) == ["Trợ lý: đáp 3", "Người dùng: hỏi 4", "Trợ lý: đáp 4"]


def test_a_zero_line_history_window_is_empty() -> None:
    assert _conversation(2).history("c", lines=0) == []


def test_the_store_numbers_turns_whatever_seq_the_caller_sent() -> None:
    store = MemoryStore()
    store.commit_turn("c", None, 0, UPDATE, _turn(7, 1))
    store.commit_turn("c", None, 1, UPDATE, _turn(7, 2))

    assert [t.seq for t in store.turns("c")] == [1, 2]
