"""`formulary-fsm replay` end to end, and re-running stored conversations under a changed spec."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from engine.cli import main
from engine.config import Settings
from engine.spec import build_spec
from engine.store import MemoryStore
from engine.store.sql import SqlStore
from engine.stored_replay import replay_stored
from retrieval.resolver import Candidate, DrugResolver, ResolverResult
from states.frame import QueryFrame
from states.scripted import ScriptedUnderstander
from tests.engine_kit import EngineKit

pytestmark = pytest.mark.integration

GOLDEN = Path(__file__).resolve().parents[2] / "fixtures" / "transcripts"


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngineKit]:
    kit = EngineKit(tmp_path_factory.mktemp("replay-data"))
    yield kit
    kit.close()


@pytest.fixture()
def data_dir(kit: EngineKit, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DATA_DIR", str(kit.data_dir))
    for var in ("DATABASE_URL", "QDRANT_URL", "ANSWER_PROVIDER", "UNDERSTANDING_PROVIDER", "VERIFIER"):
        monkeypatch.delenv(var, raising=False)
    return kit.data_dir


def _write(path: Path, *conversations: Mapping[str, object]) -> Path:
    lines = [json.dumps({"_comment": "SYNTHETIC TEST DATA"})] + [json.dumps(c, ensure_ascii=False) for c in conversations]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


PASSING = {"id": "greeting", "turns": [{"user": "Xin chào", "expect": {"outcome": "answerable", "reason": "smalltalk"}}]}
FAILING = {"id": "wrong-on-purpose", "turns": [
    {"user": "Liều ibuprofen bao nhiêu?", "expect": {"outcome": "answerable"}},
    {"user": "Người lớn", "expect": {"outcome": "answerable"}}]}


def test_replay_prints_one_line_per_failing_turn_and_the_count(data_dir: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    f = _write(tmp_path / "t.jsonl", PASSING, FAILING)
    assert main(["replay", str(f)]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == "2 passed, 1 failed"
    [failure] = lines[:-1]
    assert failure.startswith(f"FAIL wrong-on-purpose turn 1 ({f}:3)")
    assert "outcome: expected 'answerable', got 'clarify' (reason 'missing_population')" in failure


def test_replay_json_reports_every_turn(data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = _write(tmp_path / "t.jsonl", PASSING)
    assert main(["replay", str(f), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["unit"], doc["passed"], doc["failed"], doc["conversations"]) == ("turns", 1, 0, 1)
    assert doc["results"][0]["outcome"] == "answerable"


def test_a_malformed_transcript_is_a_usage_error_naming_the_line(data_dir: Path, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    f = _write(tmp_path / "t.jsonl", {"id": "x", "turns": [{"user": "a", "expect": {"reply_has": ["b"]}}]})
    assert main(["replay", str(f)]) == 2
    assert f"{f}:2: unknown key 'reply_has'" in capsys.readouterr().err


def test_the_golden_transcripts_pass(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["replay", str(GOLDEN)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.strip().splitlines()[-1].endswith(" passed, 0 failed")


def test_replay_of_a_stored_conversation_reports_no_change_under_the_same_spec(
        kit: EngineKit, data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = SqlStore(Settings(data_dir=data_dir).sqlalchemy_url)  # the store the CLI reads (DATA_DIR)
    try:
        engine = kit.engine(store)
        cid = None
        for text in ("Liều paracetamol cho trẻ em?", "Bé nặng 18 kg", "5 tuổi", "Uống"):
            cid = engine.handle(text, cid).conversation_id
    finally:
        store.close()
    assert main(["replay", "--conversation", str(cid)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == "4 unchanged, 0 changed"
    assert lines[0].startswith("turn 1 «Liều paracetamol cho trẻ em?»: same (row 3, clarify/missing_pediatric_age_or_weight)")


def test_stored_replay_shows_where_a_new_spec_would_route_differently(kit: EngineKit) -> None:
    # Recorded under the current spec: an adult ibuprofen dose, asked in two turns.
    original = kit.engine(MemoryStore())
    first = original.handle("Liều ibuprofen bao nhiêu?")
    original.handle("Người lớn", first.conversation_id)
    turns = original.store.turns(first.conversation_id)

    # The new rules would no longer ask for the population (a deliberately loosened guard).
    loosened = build_spec().replace_guard("dosing_population_unknown", lambda ctx: False)
    diffs = replay_stored(kit.engine(MemoryStore(), spec=loosened), turns)
    assert diffs[0].changed == ["route", "outcome", "reason"]
    assert diffs[0].before.route == "2" and diffs[0].after is not None and diffs[0].after.route == "16"
    assert "CHANGED route 2 → 16" in diffs[0].line()


def test_stored_replay_feeds_back_the_recorded_llm_understanding(kit: EngineKit) -> None:
    # An "LLM" understander whose output is recorded in the trace; the replay engine's own (rules) understander
    # would read these texts differently, so an unchanged result proves the recorded frames were used.
    frames = [QueryFrame(turn_type="dosing_calc", section_key="lieu_luong_cach_dung", drugs=["ibuprofen"]),
              QueryFrame(turn_type="dosing_calc", section_key="lieu_luong_cach_dung", drugs=["ibuprofen"],
                         population="adult")]
    recorded = kit.engine(MemoryStore())
    recorded.understander = ScriptedUnderstander(frames, calls_llm=True)
    recorded.resolver = _EveryDrug(recorded.resolver)  # type: ignore[assignment]
    a = recorded.handle("câu một")
    # The population is in the user's words: a recorded model value must be (states.provenance), live and in replay.
    b = recorded.handle("câu hai, người lớn", a.conversation_id)
    assert (a.reason, b.reason) == ("missing_population", "single_drug")
    turns = recorded.store.turns(a.conversation_id)
    assert any(o.site == "understand" for o in turns[0].trace.provider_outputs)

    replayer = kit.engine(MemoryStore())
    replayer.resolver = _EveryDrug(replayer.resolver)  # type: ignore[assignment]
    diffs = replay_stored(replayer, turns)
    assert [d.changed for d in diffs] == [[], []]


class _EveryDrug:
    """The real resolver, plus ibuprofen as a candidate (the scripted texts name no drug)."""

    def __init__(self, inner: DrugResolver) -> None:
        self.inner = inner

    def resolve(self, text: str) -> ResolverResult:
        result = self.inner.resolve(text)
        return result.model_copy(update={"candidates": [
            *result.candidates, Candidate(drug_id="ibuprofen", matched="ibuprofen", span="ibuprofen", score=100)]})
