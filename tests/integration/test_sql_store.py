"""The conversation-store contract, run on a SQLite file, on PostgreSQL and on the in-memory store.

One suite for every backend is what keeps MemoryStore (used by fast unit tests) honest about the SQL
semantics: versions, conflicts that write nothing, owners, the bounded history window, cascade and purge.
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from core.errors import ConfigurationError, StoreConflict, StoreUnavailable
from engine.cli import main as cli_main
from engine.config import load_settings
from engine.reply import LlmCallRecord, Trace
from engine.runner import Engine
from engine.store.base import ConversationStore, ConversationUpdate, TurnRecord
from engine.store.faults import FaultyStore
from engine.store.memory import MemoryStore
from engine.store.migrate import current_revision, head_revision
from engine.store.schema import metadata
from engine.store.sql import SqlStore, create_store_engine, normalize_url
from states.frame import Pending, QueryFrame
from states.replies import NO_MEMORY_NOTICE
from states.scripted import ScriptedUnderstander
from tests.integration.sql_support import execute_raw, fresh_postgres_schema
from tests.unit.machine_kit import make_engine

pytestmark = pytest.mark.integration

OWNER = "clinic-a"
PEDIATRIC_DOSE = QueryFrame(
    turn_type="dosing_calc", drugs=["paracetamol"], section_key="lieu_luong_cach_dung", population="pediatric"
)


@dataclass
class Backend:
    name: str
    url: str | None

    def open(self) -> ConversationStore:
        if self.url is None:
            # One shared MemoryStore per test stands in for "the same database" across reopenings.
            return _memory_stores.setdefault(id(self), MemoryStore())
        return SqlStore(self.url)


_memory_stores: dict[int, MemoryStore] = {}


@pytest.fixture(
    params=["memory", "sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
)
def backend(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Backend]:
    if request.param == "memory":
        b = Backend("memory", None)
        yield b
        _memory_stores.pop(id(b), None)
    elif request.param == "sqlite":
        yield Backend("sqlite", f"sqlite:///{tmp_path_factory.mktemp('store') / 'formulary.db'}")
    else:
        with fresh_postgres_schema() as url:
            yield Backend("postgresql", url)


@pytest.fixture
def store(backend: Backend) -> Iterator[ConversationStore]:
    s = backend.open()
    yield s
    s.close()


def new_id() -> str:
    return str(uuid.uuid4())


def update(state: str = "awaiting_answer", *, streak: int = 1, frame: QueryFrame | None = PEDIATRIC_DOSE,
           pending: dict[str, Any] | None = None) -> ConversationUpdate:
    return ConversationUpdate(
        state=state,
        frame=frame,
        pending=Pending.model_validate(pending) if pending else None,
        clarify_streak=streak,
        spec_fingerprint="fp-test",
    )


def turn(seq: int, user: str = "Liều paracetamol cho trẻ em?", reply: str = "Bé bao nhiêu tuổi?") -> TurnRecord:
    return TurnRecord(
        seq=seq,
        user_text=user,
        reply_text=reply,
        outcome="clarify",
        reason="missing_pediatric_age_or_weight",
        frame=PEDIATRIC_DOSE,
        trace=Trace(states=["ready", "understanding", "routing", "asking", "clarified", "awaiting_answer"],
                    llm_calls=[LlmCallRecord(call_site="understand", duration_ms=812.5, ok=True)]),
        evidence_ids=["paracetamol__lieu_luong_cach_dung__1"],
    )


def grow(store: ConversationStore, cid: str, n: int, owner: str | None = OWNER) -> int:
    """Commit n turns to a conversation (creating it if new); return its version."""
    snap = store.load(cid, owner)
    version = snap.version if snap else 0
    for _ in range(n):
        seq = version + 1  # one turn per version: the turn count is the version
        version = store.commit_turn(cid, owner, version, update(), turn(seq, f"câu hỏi {seq}", f"trả lời {seq}"))
    return version


# ------------------------------------------------------------------------------------ round trip


def test_a_committed_turn_comes_back_with_its_state_frame_pending_and_trace(store: ConversationStore) -> None:
    cid = new_id()
    pending = {"reason": "missing_pediatric_age_or_weight", "missing": ["age"], "quick_replies": ["5 tuổi"]}
    version = store.commit_turn(cid, OWNER, 0, update(pending=pending, streak=1), turn(1, "Liều cho bé 18 kg?"))

    snap = store.load(cid, OWNER)
    assert version == 1
    assert snap is not None
    assert (snap.state, snap.clarify_streak, snap.version, snap.turn_count) == ("awaiting_answer", 1, 1, 1)
    assert snap.frame == PEDIATRIC_DOSE
    assert snap.pending == Pending.model_validate(pending)
    assert snap.spec_fingerprint == "fp-test"
    assert snap.owner == OWNER
    assert snap.created_at is not None and snap.created_at.tzinfo is not None
    [stored] = store.turns(cid)
    assert stored.seq == 1
    assert stored.user_text == "Liều cho bé 18 kg?"
    assert stored.trace.llm_calls[0].duration_ms == 812.5
    assert stored.evidence_ids == ["paracetamol__lieu_luong_cach_dung__1"]
    assert stored.frame == PEDIATRIC_DOSE


def test_each_commit_bumps_the_version_and_numbers_turns_without_gaps(store: ConversationStore) -> None:
    cid = new_id()
    assert grow(store, cid, 3) == 3
    later = store.commit_turn(cid, OWNER, 3, update("ready", streak=0, frame=None), turn(4))

    snap = store.load(cid, OWNER)
    assert later == 4
    assert snap is not None and (snap.version, snap.turn_count, snap.state, snap.frame) == (4, 4, "ready", None)
    assert [t.seq for t in store.turns(cid)] == [1, 2, 3, 4]


def test_an_unknown_conversation_loads_as_none_with_empty_history(store: ConversationStore) -> None:
    assert store.load(new_id(), OWNER) is None
    assert store.history(new_id()) == []
    assert store.turns(new_id()) == []


# ---------------------------------------------------------------------------------------- conflicts


def test_a_turn_committed_on_a_stale_version_conflicts_and_writes_nothing(store: ConversationStore) -> None:
    cid = new_id()
    grow(store, cid, 2)

    with pytest.raises(StoreConflict, match="resend"):
        store.commit_turn(cid, OWNER, 1, update("ready", streak=0), turn(3, "lượt bị từ chối"))

    snap = store.load(cid, OWNER)
    assert snap is not None and (snap.version, snap.turn_count, snap.state) == (2, 2, "awaiting_answer")
    assert all(t.user_text != "lượt bị từ chối" for t in store.turns(cid))


def test_creating_a_conversation_that_exists_conflicts_and_writes_nothing(store: ConversationStore) -> None:
    cid = new_id()
    grow(store, cid, 1)

    with pytest.raises(StoreConflict):
        store.commit_turn(cid, OWNER, 0, update("ready", streak=0), turn(1, "lượt bị từ chối"))

    assert [t.user_text for t in store.turns(cid)] == ["câu hỏi 1"]
    assert store.load(cid, OWNER).state == "awaiting_answer"  # type: ignore[union-attr]


def test_a_turn_on_a_conversation_that_was_deleted_meanwhile_conflicts(store: ConversationStore) -> None:
    cid = new_id()
    grow(store, cid, 1)
    assert store.delete(cid, OWNER)

    with pytest.raises(StoreConflict):
        store.commit_turn(cid, OWNER, 1, update(), turn(2))
    assert store.turns(cid) == []


# ------------------------------------------------------------------------------------------ owners


def test_another_owner_can_neither_load_nor_delete_a_conversation(store: ConversationStore) -> None:
    cid = new_id()
    grow(store, cid, 1, owner=OWNER)

    assert store.load(cid, "clinic-b") is None
    assert store.load(cid, None) is None
    assert store.delete(cid, "clinic-b") is False
    assert store.delete(cid, None) is False
    assert store.load(cid, OWNER) is not None


def test_a_conversation_created_without_an_owner_is_open_to_no_key(store: ConversationStore) -> None:
    # Issue #19 item 8: created with auth off, it stays with auth off; a key sees it only once claimed.
    cid = new_id()
    grow(store, cid, 1, owner=None)

    assert store.load(cid, "clinic-b") is None
    assert store.delete(cid, "clinic-b") is False
    assert store.load(cid, None) is not None
    assert store.delete(cid, None) is True
    assert store.load(cid, None) is None


# ------------------------------------------------------------------------------------------ history


def test_history_is_the_last_12_lines_of_a_thousand_turn_conversation(store: ConversationStore) -> None:
    cid = new_id()
    grow(store, cid, 1000)

    lines = store.history(cid)

    assert len(lines) == 12
    assert lines[0] == "Người dùng: câu hỏi 995"
    assert lines[-2:] == ["Người dùng: câu hỏi 1000", "Trợ lý: trả lời 1000"]
    assert store.load(cid, OWNER).turn_count == 1000  # type: ignore[union-attr]


def test_history_of_a_short_conversation_is_all_of_it_oldest_first(store: ConversationStore) -> None:
    cid = new_id()
    grow(store, cid, 2)

    assert store.history(cid) == ["Người dùng: câu hỏi 1", "Trợ lý: trả lời 1",
                                  "Người dùng: câu hỏi 2", "Trợ lý: trả lời 2"]


def test_history_window_of_an_odd_number_of_lines_ends_with_the_last_reply(store: ConversationStore) -> None:
    cid = new_id()
    grow(store, cid, 4)

    assert store.history(cid, lines=3) == ["Trợ lý: trả lời 3", "Người dùng: câu hỏi 4", "Trợ lý: trả lời 4"]
    assert store.history(cid, lines=0) == []


# -------------------------------------------------------------------------------------- retention


def test_deleting_a_conversation_deletes_its_turns(store: ConversationStore) -> None:
    cid, kept = new_id(), new_id()
    grow(store, cid, 3)
    grow(store, kept, 1)

    assert store.delete(cid, OWNER) is True

    assert store.load(cid, OWNER) is None
    assert store.turns(cid) == []
    assert store.history(cid) == []
    assert store.delete(cid, OWNER) is False
    assert len(store.turns(kept)) == 1


def test_purge_deletes_only_conversations_idle_since_before_the_cutoff(store: ConversationStore) -> None:
    old, fresh = new_id(), new_id()
    grow(store, old, 2)
    cutoff = datetime.now(UTC)
    grow(store, fresh, 1)

    assert store.purge(cutoff) == 1

    assert store.load(old, OWNER) is None
    assert store.turns(old) == []
    assert store.load(fresh, OWNER) is not None
    assert store.purge(cutoff) == 0


def test_a_turn_keeps_a_conversation_from_being_purged(store: ConversationStore) -> None:
    cid = new_id()
    grow(store, cid, 1)
    cutoff = datetime.now(UTC)
    grow(store, cid, 1)  # the conversation is active again after the cutoff

    assert store.purge(cutoff) == 0
    assert store.load(cid, OWNER).turn_count == 2  # type: ignore[union-attr]


def test_ping_answers_on_a_healthy_store(store: ConversationStore) -> None:
    store.ping()


# ------------------------------------------------------------------------------------ concurrency

THREADS = 20


def _run_at_once(worker: Callable[[int], str]) -> list[str]:
    """Run `worker(i)` on THREADS threads; return their results (any unexpected exception fails the test)."""
    results: list[str] = [""] * THREADS
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            results[i] = worker(i)
        except BaseException as exc:  # collected and re-raised on the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    return results


def test_of_twenty_simultaneous_turns_on_one_conversation_exactly_one_commits(store: ConversationStore) -> None:
    cid = new_id()
    grow(store, cid, 1)
    loaded = threading.Barrier(THREADS)

    def submit(i: int) -> str:
        snap = store.load(cid, OWNER)  # load → (the turn's work) → commit with the version loaded
        assert snap is not None
        loaded.wait(timeout=60)
        try:
            store.commit_turn(cid, OWNER, snap.version, update(), turn(snap.turn_count + 1, f"lượt {i}"))
        except StoreConflict:
            return "conflict"
        return f"lượt {i}"

    results = _run_at_once(submit)

    accepted = [r for r in results if r != "conflict"]
    assert len(accepted) == 1
    assert results.count("conflict") == THREADS - 1
    turns = store.turns(cid)
    assert [t.seq for t in turns] == [1, 2]
    assert turns[-1].user_text == accepted[0]
    snap = store.load(cid, OWNER)
    assert snap is not None and (snap.turn_count, snap.version) == (2, 2)


def test_twenty_simultaneous_first_turns_with_one_id_create_one_conversation(store: ConversationStore) -> None:
    cid = new_id()
    ready = threading.Barrier(THREADS)

    def create(i: int) -> str:
        ready.wait(timeout=60)
        try:
            store.commit_turn(cid, OWNER, 0, update(), turn(1, f"lượt {i}"))
        except StoreConflict:
            return "conflict"
        return f"lượt {i}"

    results = _run_at_once(create)

    accepted = [r for r in results if r != "conflict"]
    assert len(accepted) == 1
    assert [t.user_text for t in store.turns(cid)] == accepted


def test_twenty_turns_resent_after_conflicts_all_land_once_with_gapless_numbers(store: ConversationStore) -> None:
    cid = new_id()
    grow(store, cid, 1)
    start = threading.Barrier(THREADS)

    def submit_until_accepted(i: int) -> str:
        start.wait(timeout=60)
        conflicts = 0
        while True:
            snap = store.load(cid, OWNER)
            assert snap is not None
            try:
                store.commit_turn(cid, OWNER, snap.version, update(), turn(snap.turn_count + 1, f"lượt {i}"))
                return str(conflicts)
            except StoreConflict:
                conflicts += 1  # what the HTTP client does on 409: resend

    _run_at_once(submit_until_accepted)

    turns = store.turns(cid)
    assert [t.seq for t in turns] == list(range(1, THREADS + 2))
    assert sorted(t.user_text for t in turns[1:]) == sorted(f"lượt {i}" for i in range(THREADS))
    snap = store.load(cid, OWNER)
    assert snap is not None and (snap.turn_count, snap.version) == (THREADS + 1, THREADS + 1)


# --------------------------------------------------------------------------- through the engine


def pediatric_engine(store: ConversationStore, *frames: QueryFrame) -> tuple[Engine, ScriptedUnderstander]:
    understander = ScriptedUnderstander(list(frames))
    return make_engine(understander, store=store), understander  # type: ignore[arg-type]


def test_a_conversation_continues_after_the_store_is_reopened(backend: Backend) -> None:
    first = backend.open()
    engine, _ = pediatric_engine(first, PEDIATRIC_DOSE, QueryFrame(weight_kg=18))
    asked = engine.handle("Liều paracetamol cho trẻ em?", owner=OWNER)
    weight = engine.handle("Bé nặng 18 kg", asked.conversation_id, owner=OWNER)
    first.close()

    reopened = backend.open()
    engine, understander = pediatric_engine(reopened, QueryFrame(age_text="5 tuổi", age_months=60, route="oral"))
    # The weight answered the question: progress, the streak stays 1 (states/streak.py).
    assert reopened.load(asked.conversation_id, OWNER).clarify_streak == 1  # type: ignore[union-attr]
    answered = engine.handle("5 tuổi", asked.conversation_id, owner=OWNER)
    reopened.close()

    assert "18 kg" in weight.reply
    request = understander.requests[-1]
    assert request.prior_frame is not None and request.prior_frame.weight_kg == 18
    assert request.history[-1] == f"Trợ lý: {weight.reply}"
    assert answered.outcome == "answerable"
    assert answered.turn == 3


def test_a_failed_write_is_reported_in_the_reply_and_metrics_and_nothing_is_stored(store: ConversationStore) -> None:
    faulty = FaultyStore(store)
    engine, _ = pediatric_engine(faulty, PEDIATRIC_DOSE)
    faulty.fail_writes()

    reply = engine.handle("Liều paracetamol cho trẻ em?", owner=OWNER)

    assert reply.persisted is False
    assert reply.outcome == "clarify"  # the user still gets the question
    assert engine.metrics.store_write_failures == 1
    assert any("store write failed" in note for note in reply.trace.notes)
    assert store.load(reply.conversation_id, OWNER) is None


def test_a_failed_write_on_a_continuing_conversation_leaves_it_as_it_was(store: ConversationStore) -> None:
    faulty = FaultyStore(store)
    engine, _ = pediatric_engine(faulty, PEDIATRIC_DOSE, QueryFrame(weight_kg=18))
    asked = engine.handle("Liều paracetamol cho trẻ em?", owner=OWNER)
    faulty.fail_writes(times=1)

    lost = engine.handle("Bé nặng 18 kg", asked.conversation_id, owner=OWNER)

    assert asked.persisted is True and lost.persisted is False
    snap = store.load(asked.conversation_id, OWNER)
    assert snap is not None and (snap.turn_count, snap.clarify_streak) == (1, 1)
    assert faulty.injected_write_failures == 1


def test_a_failed_read_runs_the_turn_without_memory_and_says_so(store: ConversationStore) -> None:
    faulty = FaultyStore(store)
    engine, understander = pediatric_engine(faulty, PEDIATRIC_DOSE, QueryFrame(weight_kg=18))
    asked = engine.handle("Liều paracetamol cho trẻ em?", owner=OWNER)
    faulty.fail_reads()

    reply = engine.handle("Bé nặng 18 kg", asked.conversation_id, owner=OWNER)
    faulty.heal()

    assert reply.memory_loaded is False
    assert reply.reply.startswith(NO_MEMORY_NOTICE)
    assert any("store read failed" in note for note in reply.trace.notes)
    assert understander.requests[-1].prior_frame is None and understander.requests[-1].history == []
    # Not written over a conversation it could not read: the stored one is intact.
    assert reply.persisted is False
    assert store.load(asked.conversation_id, OWNER).turn_count == 1  # type: ignore[union-attr]


def test_a_conversation_resting_in_a_state_the_spec_no_longer_has_resumes_from_ready(
    store: ConversationStore,
) -> None:
    cid = new_id()
    store.commit_turn(cid, OWNER, 0, update("awaiting_lab_result", pending={"reason": "gone"}), turn(1))
    engine, _ = pediatric_engine(store, PEDIATRIC_DOSE)

    reply = engine.handle("Liều paracetamol cho trẻ em?", cid, owner=OWNER)

    assert reply.trace.states[0] == "ready"
    assert any("unknown resting state 'awaiting_lab_result'" in note for note in reply.trace.notes)
    assert reply.outcome == "clarify" and reply.persisted is True
    snap = store.load(cid, OWNER)
    assert snap is not None and snap.state == "awaiting_answer" and snap.spec_fingerprint == engine.fingerprint


# ----------------------------------------------------------------------------- SQL backends only


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def sql_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database (nothing migrated yet)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'data' / 'formulary.db'}"
    else:
        with fresh_postgres_schema() as url:
            yield url


def test_the_migrations_create_exactly_the_schema_the_store_declares(sql_url: str) -> None:
    store = SqlStore(sql_url)
    store.close()
    engine = create_store_engine(normalize_url(sql_url))
    try:
        with engine.connect() as conn:
            differences = compare_metadata(MigrationContext.configure(conn), metadata)
        assert current_revision(engine) == head_revision()
    finally:
        engine.dispose()
    assert differences == []


def test_several_processes_opening_a_new_database_at_once_all_get_a_working_store(sql_url: str) -> None:
    opened: list[SqlStore] = []
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def open_store() -> None:
        try:
            start.wait(timeout=30)
            opened.append(SqlStore(sql_url))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)

    assert not errors, errors
    cid = new_id()
    grow(opened[0], cid, 1)
    assert all(s.load(cid, OWNER) is not None for s in opened)
    for s in opened:
        s.close()
    SqlStore(sql_url).close()  # and opening an up-to-date database again is a no-op


def test_a_database_error_surfaces_as_store_unavailable_never_a_vendor_exception(sql_url: str) -> None:
    store = SqlStore(sql_url)
    cid = new_id()
    grow(store, cid, 1)
    execute_raw(sql_url, "DROP TABLE turns")

    with pytest.raises(StoreUnavailable, match="could not load the history") as caught:
        store.history(cid)
    with pytest.raises(StoreUnavailable, match="could not write the turn"):
        store.commit_turn(cid, OWNER, 1, update(), turn(2))
    store.close()

    assert "SELECT" not in str(caught.value)  # no SQL (and no user text) in the message


def test_text_with_a_nul_character_is_stored_on_every_backend(sql_url: str) -> None:
    store = SqlStore(sql_url)
    cid = new_id()
    store.commit_turn(cid, OWNER, 0, update(), turn(1, "Liều\x00 paracetamol"))

    [stored] = store.turns(cid)
    store.close()
    assert stored.user_text == "Liều\ufffd paracetamol"


def test_the_sqlite_database_runs_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    path = tmp_path / "formulary.db"
    SqlStore(f"sqlite:///{path}").close()

    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_an_unreachable_postgresql_is_store_unavailable_at_open() -> None:
    with pytest.raises(StoreUnavailable, match="could not migrate"):
        SqlStore("postgresql://postgres@127.0.0.1:9/test")  # nothing listens on the discard port


def test_a_plain_postgresql_url_means_psycopg_3() -> None:
    assert normalize_url("postgresql://postgres@127.0.0.1:5432/test").drivername == "postgresql+psycopg"
    assert normalize_url("postgres://u@h/db").drivername == "postgresql+psycopg"
    assert normalize_url("sqlite:///var/formulary.db").drivername == "sqlite"


def test_an_unsupported_database_url_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="not supported"):
        SqlStore("mysql://u@h/db")
    with pytest.raises(ConfigurationError, match="not a valid"):
        SqlStore("not a url")


def test_purge_command_deletes_conversations_idle_longer_than_the_retention(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    url = load_settings().sqlalchemy_url
    long_ago = SqlStore(url, clock=lambda: datetime.now(UTC) - timedelta(days=40))
    old = new_id()
    grow(long_ago, old, 2)
    long_ago.close()
    store = SqlStore(url)
    recent = new_id()
    grow(store, recent, 1)

    assert cli_main(["purge", "--days", "30"]) == 0

    assert "purged 1 conversation" in capsys.readouterr().out
    assert store.load(old, OWNER) is None
    assert store.load(recent, OWNER) is not None
    monkeypatch.setenv("RETENTION_DAYS", "60")
    assert cli_main(["purge"]) == 0
    assert "purged 0 conversation" in capsys.readouterr().out
    store.close()


def test_a_conversation_stored_as_plain_json_by_the_untyped_store_loads_typed_and_continues(sql_url: str) -> None:
    import sqlalchemy as sa

    from engine.store.schema import conversations, turns

    SqlStore(sql_url).close()  # migrate to head
    cid, now = new_id(), datetime.now(UTC)
    # Exactly the JSON the store wrote when its records were dicts: frames and traces as model_dump() dicts.
    old_trace = {"trace_id": "t-1", "states": ["ready", "understanding", "routing", "asking", "clarified",
                                               "awaiting_answer"],
                 "transitions": [{"source": "routing", "trigger": "route", "dest": "asking", "row": "3"}],
                 "guards": [{"state": "routing", "guard": "pediatric_age_or_weight_missing", "result": True}],
                 "llm_calls": [], "provider_outputs": [{"site": "understand", "output": {"turn_type": "dosing_calc"}}],
                 "evidence": [], "notes": [], "understood_by": "rules", "query": "Liều?", "duration_ms": 1.5}
    pending = {"reason": "missing_pediatric_age_or_weight", "missing": ["age", "weight"], "quick_replies": [],
               "question": "Bé bao nhiêu tuổi và cân nặng bao nhiêu kg?"}
    raw = create_store_engine(normalize_url(sql_url))
    try:
        with raw.begin() as conn:
            conn.execute(sa.insert(conversations).values(
                id=cid, owner=OWNER, state="awaiting_answer", frame=PEDIATRIC_DOSE.model_dump(), pending=pending,
                clarify_streak=1, spec_fingerprint="fp-old", version=1, turn_count=1, created_at=now, updated_at=now))
            conn.execute(sa.insert(turns).values(
                conversation_id=cid, seq=1, user_text="Liều paracetamol cho trẻ em?", reply_text="Bé bao nhiêu tuổi?",
                outcome="clarify", reason="missing_pediatric_age_or_weight", frame=PEDIATRIC_DOSE.model_dump(),
                trace=old_trace, evidence_ids=[], created_at=now))
    finally:
        raw.dispose()

    store = SqlStore(sql_url)
    try:
        snap = store.load(cid, OWNER)
        assert snap is not None and snap.frame == PEDIATRIC_DOSE and snap.pending == Pending.model_validate(pending)
        [stored] = store.turns(cid)
        assert stored.trace.provider_outputs[0].site == "understand" and stored.trace.transitions[0].row == "3"
        engine, _ = pediatric_engine(store, PEDIATRIC_DOSE.model_copy(update={"age_months": 60, "weight_kg": 18}))
        reply = engine.handle("Bé 5 tuổi, nặng 18 kg", cid, owner=OWNER)
        assert reply.persisted and reply.memory_loaded
        assert store.load(cid, OWNER).turn_count == 2  # type: ignore[union-attr]
    finally:
        store.close()
