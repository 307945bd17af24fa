"""The transcript format (DESIGN.md "Transcript format"): loading, strictness, and the expectation check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.budget import RequestBudget
from core.errors import ProviderUnavailable
from engine.replay import (
    Expect,
    TranscriptFormatError,
    check_expect,
    load_transcripts,
    parse_transcripts,
    run_transcript,
    transcript_files,
)
from engine.reply import Citation, LlmCallRecord, Reply, Trace
from states.frame import QueryFrame
from states.scripted import ScriptedUnderstander
from states.understander import Understanding, UnderstandingRequest
from tests.unit.machine_kit import make_engine

COMMENT = json.dumps({"_comment": "SYNTHETIC TEST DATA"})


def _line(conversation: dict[str, object]) -> str:
    return json.dumps(conversation, ensure_ascii=False)


def _reply(**kw: object) -> Reply:
    base: dict[str, object] = {"conversation_id": "c", "turn": 1, "outcome": "clarify", "reason": "missing_population",
                               "reply": "Bạn hỏi liều Paracetamol cho người lớn hay trẻ em?", "state": "awaiting_answer",
                               "trace_id": "t"}
    base.update(kw)
    return Reply.model_validate(base)


def test_comment_and_blank_lines_are_skipped_and_sources_are_recorded() -> None:
    lines = [COMMENT, "", _line({"id": "a", "turns": [{"user": "Xin chào"}]})]
    [t] = parse_transcripts(lines, "x.jsonl")
    assert (t.id, t.source, t.turns[0].expect) == ("a", "x.jsonl:3", Expect())


def test_a_misspelt_expect_key_is_rejected_naming_file_and_line() -> None:
    lines = [COMMENT, _line({"id": "a", "turns": [{"user": "Xin chào", "expect": {"outcom": "answerable"}}]})]
    with pytest.raises(TranscriptFormatError) as err:
        parse_transcripts(lines, "golden.jsonl")
    assert str(err.value).startswith("golden.jsonl:2: unknown key 'outcom'")
    assert "outcome, reason, reply_contains" in str(err.value)


def test_an_unknown_turn_or_conversation_key_is_rejected() -> None:
    with pytest.raises(TranscriptFormatError, match=r"f.jsonl:1: unknown key 'bot'"):
        parse_transcripts([_line({"id": "a", "turns": [{"user": "x", "bot": "y"}]})], "f.jsonl")
    with pytest.raises(TranscriptFormatError, match=r"unknown key 'name'"):
        parse_transcripts([_line({"id": "a", "name": "n", "turns": [{"user": "x"}]})], "f.jsonl")


def test_an_outcome_outside_the_four_is_rejected() -> None:
    with pytest.raises(TranscriptFormatError, match=r"f.jsonl:1: turns.0.expect.outcome"):
        parse_transcripts([_line({"id": "a", "turns": [{"user": "x", "expect": {"outcome": "answered"}}]})], "f.jsonl")


def test_broken_json_and_duplicate_ids_name_the_line() -> None:
    with pytest.raises(TranscriptFormatError, match=r"f.jsonl:2: not JSON"):
        parse_transcripts([COMMENT, '{"id": "a", "turns": ['], "f.jsonl")
    dup = _line({"id": "a", "turns": [{"user": "x"}]})
    with pytest.raises(TranscriptFormatError, match=r"f.jsonl:2: duplicate conversation id 'a' \(first on line 1\)"):
        parse_transcripts([dup, dup], "f.jsonl")


def test_a_directory_replays_its_own_files_but_not_pending(tmp_path: Path) -> None:
    (tmp_path / "pending").mkdir()
    (tmp_path / "a.jsonl").write_text(_line({"id": "a", "turns": [{"user": "x"}]}) + "\n", encoding="utf-8")
    (tmp_path / "pending" / "b.jsonl").write_text(_line({"id": "b", "turns": [{"user": "x"}]}) + "\n", encoding="utf-8")
    assert [f.name for f in transcript_files([tmp_path])] == ["a.jsonl"]
    assert [t.id for t in load_transcripts([tmp_path])] == ["a"]


def test_check_expect_names_every_mismatch_with_expected_and_got() -> None:
    reply = _reply(citations=[Citation(doc_id="paracetamol__chi_dinh__0", drug_id="paracetamol", section_key="chi_dinh",
                                       quote="q")],
                   trace=Trace(llm_calls=[LlmCallRecord(call_site="understand", duration_ms=1, ok=True)] * 2))
    expect = Expect(outcome="answerable", reason="single_drug", reply_contains=["18 kg"],
                    reply_not_contains=["trẻ em"], cites=["paracetamol__lieu_luong_cach_dung"], state="ready",
                    max_llm_calls=1)
    failures = check_expect(expect, reply)
    assert [f.split(":")[0] for f in failures] == ["outcome", "reason", "reply_contains", "reply_not_contains",
                                                   "cites", "state", "max_llm_calls"]
    assert "expected 'answerable', got 'clarify'" in failures[0]
    assert check_expect(Expect(outcome="clarify", cites=["paracetamol__chi"], max_llm_calls=2), reply) == []


def test_a_conversation_runs_turn_by_turn_on_one_conversation() -> None:
    dose = QueryFrame(turn_type="dosing_calc", section_key="lieu_luong_cach_dung", drugs=["ibuprofen"])
    engine = make_engine(ScriptedUnderstander([dose, dose.model_copy(update={"population": "adult"})]))
    [t] = parse_transcripts([_line({"id": "dose", "turns": [
        {"user": "Liều ibuprofen?", "expect": {"outcome": "clarify", "reason": "missing_population"}},
        {"user": "Người lớn", "expect": {"outcome": "answerable", "cites": ["ibuprofen__lieu_luong_cach_dung__1"],
                                         "state": "awaiting_answer"}}]})], "f.jsonl")
    first, second = run_transcript(engine, t)
    assert first.passed and not second.passed
    assert second.line() == ("FAIL dose turn 2 (f.jsonl:1) «Người lớn»: state: expected 'awaiting_answer', got 'ready'")


def test_a_turn_that_crashes_fails_and_the_rest_are_reported_not_run() -> None:
    class Exploding(ScriptedUnderstander):
        def understand(self, request: UnderstandingRequest, budget: RequestBudget) -> Understanding:
            raise RuntimeError("boom")

    [t] = parse_transcripts([_line({"id": "c", "turns": [{"user": "a"}, {"user": "b"}]})], "f.jsonl")
    results = run_transcript(make_engine(Exploding()), t)
    assert [r.passed for r in results] == [False, False]
    assert "engine raised RuntimeError: boom" in results[0].failures[0]
    assert results[1].failures == ["not run: turn 1 raised RuntimeError"]


def test_an_understanding_failure_is_an_ordinary_abstain_not_a_crash() -> None:
    [t] = parse_transcripts([_line({"id": "u", "turns": [
        {"user": "x", "expect": {"outcome": "abstain", "reason": "system_error"}}]})], "f.jsonl")
    [result] = run_transcript(make_engine(ScriptedUnderstander([ProviderUnavailable("timeout")])), t)
    assert result.passed
