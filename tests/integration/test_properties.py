"""Safety invariants (DESIGN.md) over generated conversations, against the real embedded engine.

Every generated transcript runs through the real machine (rules understander, Qdrant Edge index over the
fixture formulary, extractive generator, lexical verifier, SQLite store); after every turn the shared checker
(tests/invariants.py) asserts every invariant. A failing, shrunk example is written to
fixtures/transcripts/pending/ (docs/replay.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings

from engine.reply import Reply
from engine.runner import Engine
from engine.store import MemoryStore
from engine.store.sql import SqlStore
from engine.stored_replay import replay_stored
from tests.engine_kit import EngineKit, reopen, run_checked
from tests.invariants import save_failing_transcript
from tests.strategies import transcripts

pytestmark = pytest.mark.integration
SLOW_OK = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngineKit]:
    kit = EngineKit(tmp_path_factory.mktemp("formulary-data"))
    yield kit
    kit.close()


@dataclass
class Shared:
    engine: Engine
    store: SqlStore
    url: str


@pytest.fixture(scope="module")
def shared(kit: EngineKit) -> Iterator[Shared]:
    """One engine over one SQLite database; every example is a new conversation in it."""
    url = kit.sqlite_url("shared.db")
    store = SqlStore(url)
    yield Shared(kit.engine(store), store, url)
    store.close()


def _is_final_example() -> bool:
    try:
        from hypothesis.control import current_build_context

        return bool(current_build_context().is_final)
    except Exception:  # outside a hypothesis run, or an API change: never save
        return False


def fail_with(turns: Sequence[str], replies: Sequence[Reply], problems: list[str]) -> None:
    if problems:
        saved = save_failing_transcript(turns[: len(replies)], replies, problems) if _is_final_example() else None
        raise AssertionError("\n".join(problems) + (f"\nsaved as {saved}" if saved else ""))


def _decisions(replies: Sequence[Reply]) -> list[tuple[object, ...]]:
    return [(r.outcome, r.reason, r.state, r.reply, tuple(c.doc_id for c in r.citations), tuple(r.quick_replies))
            for r in replies]


@SLOW_OK
@given(turns=transcripts())
def test_safety_invariants_hold_after_every_turn(kit: EngineKit, shared: Shared, turns: list[str]) -> None:
    replies, problems = run_checked(shared.engine, kit.checker, turns)
    fail_with(turns, replies, problems)


@SLOW_OK
@given(turns=transcripts(max_turns=4))
def test_restart_between_turns_and_stored_replay_change_no_outcome(kit: EngineKit, shared: Shared,
                                                                   turns: list[str]) -> None:
    continuous, problems = run_checked(shared.engine, kit.checker, turns)
    fail_with(turns, continuous, problems)

    # The same conversation with the engine (and its store object) dropped and rebuilt before every turn.
    restarted: list[Reply] = []
    cid: str | None = None
    for text in turns:
        fresh_store = reopen(shared.url)
        try:
            reply = kit.engine(fresh_store).handle(text, cid)
        finally:
            fresh_store.close()
        cid = reply.conversation_id
        restarted.append(reply)
    assert _decisions(restarted) == _decisions(continuous)

    # Replaying the stored conversation with its recorded provider outputs reproduces its outcomes.
    diffs = replay_stored(kit.engine(MemoryStore()), shared.store.turns(continuous[0].conversation_id))
    assert [d.line() for d in diffs if d.changed] == []
