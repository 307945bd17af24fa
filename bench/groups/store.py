"""Store cost per turn (issue 6): load + history + commit on SQLite and PostgreSQL, at 10 and 1,000 turns.

What the runner does around every turn, on `engine.store.sql.SqlStore`: `load` the conversation, read its
`history` (last 12 lines), then `commit_turn` (conditional UPDATE + INSERT in one transaction). The two
history lengths are measured side by side, alternating turn by turn, on each backend: many conversations
pre-filled with 10 turns (each measured turn lands on the next one, so history stays at 10–12 turns), and
conversations pre-filled with 1,000 turns (1,000–1,100 while measured). The ratio of their p50s must be
about 1: the history query walks the (conversation_id, seq) key backwards with a LIMIT.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bench.pg import fresh_schema, postgres_problem
from bench.results import Distribution, GroupResult, at_most, compare
from bench.timing import interleaved
from engine.reply import GuardEvaluation, Trace, TransitionTaken
from engine.store.base import ConversationUpdate, TurnRecord
from states.frame import QueryFrame

TITLE = "store cost per turn (load + history + commit), SQLite and PostgreSQL, 10 vs 1,000 turns of history"
SHORT_CONVERSATIONS = 100
SHORT_TURNS = 10
LONG_CONVERSATIONS = 2
LONG_TURNS = 1_000
MEASURED = 200
RATIO_LIMIT = 1.5
""""About equal": the 1,000-turn p50 within 1.5× of the 10-turn p50 (a linear cost would be ~100×)."""

_FRAME = QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], population="pediatric", age_text="5 tuổi",
                    age_months=60, weight_kg=18, route="oral")
_REPLY = ("Theo Dược thư (dữ liệu thử nghiệm): Uống – Trẻ em: 10–15 mg/kg/lần, cách 4–6 giờ một lần; tối đa "
          "60 mg/kg/ngày. [paracetamol__lieu_luong_cach_dung__1] ") * 3


def _trace() -> Trace:
    """A trace the size of a real answered turn: states, ~30 guard evaluations, transitions, evidence."""
    states = ["ready", "understanding", "routing", "retrieving_single", "generating", "verifying", "answered", "ready"]
    guards = [GuardEvaluation(state="routing", guard=f"guard_{i}", result=i == 29) for i in range(30)]
    moves = [TransitionTaken(source=a, trigger="t", dest=b, row="16") for a, b in zip(states, states[1:], strict=False)]
    return Trace(trace_id="00000000-0000-0000-0000-000000000000", states=states, guards=guards, transitions=moves,
                 evidence=[f"paracetamol__lieu_luong_cach_dung__{i}" for i in range(4)], understood_by="rules",
                 query="Liều paracetamol cho trẻ em? Đối tượng: trẻ em. Tuổi: 5 tuổi. Cân nặng: 18 kg.",
                 duration_ms=4.2)


TRACE = _trace()


def _update() -> ConversationUpdate:
    return ConversationUpdate(state="ready", frame=_FRAME, pending=None, clarify_streak=0, spec_fingerprint="bench")


def _record(seq: int) -> TurnRecord:
    return TurnRecord(seq=seq, user_text="Liều paracetamol cho bé 5 tuổi nặng 18 kg?", reply_text=_REPLY,
                      outcome="answerable", reason="single_drug", frame=_FRAME, trace=TRACE,
                      evidence_ids=["paracetamol__lieu_luong_cach_dung__1"])


class Conversation:
    """One conversation driven as the runner drives it, version tracked like a snapshot."""

    def __init__(self, store: object, cid: str) -> None:
        self.store = store
        self.cid = cid
        self.version = 0

    def turn(self) -> None:
        store = self.store
        # What Engine.handle reads before a turn: the conversation and its history window, on one connection.
        snapshot, _history = store.load_with_history(self.cid, None)  # type: ignore[attr-defined]
        version = snapshot.version if snapshot is not None else 0
        self.version = store.commit_turn(self.cid, None, version, _update(), _record(version + 1))  # type: ignore[attr-defined]


def prefill(url: str, conversations: dict[str, int]) -> None:
    """Write conversations with `n` turns each in one bulk transaction: the same rows `commit_turn` would
    leave (version = turn_count = n), without paying one fsync per pre-filled turn."""
    import sqlalchemy as sa

    from engine.store.schema import conversations as conv_table
    from engine.store.schema import turns as turn_table
    from engine.store.sql import create_store_engine, normalize_url, utcnow

    now = utcnow()
    update = _update().model_dump()
    engine = create_store_engine(normalize_url(url))
    try:
        with engine.begin() as conn:
            conn.execute(sa.insert(conv_table), [
                {"id": cid, "owner": None, "version": n, "turn_count": n, "created_at": now, "updated_at": now,
                 **update} for cid, n in conversations.items()])
            rows = []
            for cid, n in conversations.items():
                for seq in range(1, n + 1):
                    record = _record(seq).model_dump(exclude={"seq", "created_at"})
                    rows.append({"conversation_id": cid, "seq": seq, "created_at": now, **record})
                    if len(rows) >= 500:
                        conn.execute(sa.insert(turn_table), rows)
                        rows = []
            if rows:
                conn.execute(sa.insert(turn_table), rows)
    finally:
        engine.dispose()


def _measure(url: str, label: str, result: GroupResult) -> None:
    from engine.store.sql import SqlStore

    store = SqlStore(url)  # migrates the schema first
    try:
        short = [Conversation(store, f"short-{i}") for i in range(SHORT_CONVERSATIONS)]
        long = [Conversation(store, f"long-{i}") for i in range(LONG_CONVERSATIONS)]
        prefill(url, {**{c.cid: SHORT_TURNS for c in short}, **{c.cid: LONG_TURNS for c in long}})
        for conv in [*short[:5], *long]:  # the pre-filled rows are what the store reads back
            snapshot = store.load(conv.cid, None)
            assert snapshot is not None and len(store.history(conv.cid)) == 12
        # Alternate the two histories turn by turn; each side round-robins its own conversations.
        steps = list(range(MEASURED))
        samples = interleaved({
            "10": lambda i: short[i % len(short)].turn(),
            "1000": lambda i: long[i % len(long)].turn(),
        }, steps)
    finally:
        store.close()
    at10, at1000 = Distribution.of(samples["10"]), Distribution.of(samples["1000"])
    result.figures[f"{label}: per turn at 10 turns of history"] = at10
    result.figures[f"{label}: per turn at 1,000 turns of history"] = at1000
    ratio = compare(f"{label} store cost per turn, p50", "10 turns", at10.p50, "1,000 turns", at1000.p50,
                    meaning="1,000-turn p50 / 10-turn p50; ≈1 means the cost does not grow with history")
    result.comparisons.append(ratio)
    result.targets.append(at_most(6, f"{label}: p50 at 1,000 turns ÷ p50 at 10 turns (about equal)", ratio.ratio,
                                  RATIO_LIMIT, "×", fmt="{:.2f}"))


def run() -> GroupResult:
    result = GroupResult(group="store", title=TITLE)
    result.setup = {
        "turn": "SqlStore.load_with_history (the row + 12 history lines, one connection) + commit_turn, a realistic turn record (trace ~30 guard "
                "evaluations, frame, reply ~500 chars)",
        "pre-fill": "one bulk insert of the rows commit_turn would write (not timed)",
        "10 turns": f"{SHORT_CONVERSATIONS} conversations pre-filled with {SHORT_TURNS} turns, round-robin",
        "1,000 turns": f"{LONG_CONVERSATIONS} conversations pre-filled with {LONG_TURNS} turns, round-robin",
        "samples": f"{MEASURED} turns per history length per backend, alternating",
        "databases": "SQLite file (WAL) in a temporary directory; PostgreSQL at 127.0.0.1:5432/test in a "
                     "fresh schema (dropped afterwards)",
    }
    with tempfile.TemporaryDirectory(prefix="bench-store-") as tmp:
        _measure(f"sqlite:///{Path(tmp) / 'bench.db'}", "SQLite", result)
    problem = postgres_problem()
    if problem:
        result.status = "partial"
        result.notes.append(problem)
    else:
        with fresh_schema("bench_store") as (url, _schema):
            _measure(url, "PostgreSQL", result)
    return result
