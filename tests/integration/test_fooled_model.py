"""A fooled model cannot choose the patient: the real SDK over a socket to the fake Messages server in its
"fooled model" mode, which answers a chosen frame whatever the turn says (issue #19, item 1).

Every age, weight, population, pregnancy, renal value and route the gates read must be in the user's own
words; a model value with no support is dropped and traced, and a model population contradicting the text
loses to the text's.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.config import load_settings
from engine.wiring import Runtime, build_engine
from grounding.fake_messages import FakeMessages, FakeMessagesServer, fooled_model

pytestmark = pytest.mark.integration

ADULT_ORAL_DOSE = "500 mg – 1 g/lần"
PARACETAMOL_DOSING = {"turn_type": "dosing_calc", "drugs": ["paracetamol"], "section_key": "lieu_luong_cach_dung"}


@pytest.fixture()
def fake() -> Iterator[FakeMessagesServer]:
    with FakeMessagesServer(FakeMessages()) as server:
        yield server


def _runtime(tmp_path: Path, server: FakeMessagesServer, mode: str) -> Runtime:
    return build_engine(load_settings(
        data_dir=tmp_path, answer_provider="anthropic", understanding_provider=mode, verifier="anthropic",
        anthropic_api_key="test-key", anthropic_base_url=server.url, anthropic_read_timeout_s=2.0,
        # hybrid: the model is asked for every turn (no rules frame is confident enough), so it is the model's
        # frame that the gates see.
        hybrid_min_confidence=1.0,
    ))


def _fool(server: FakeMessagesServer, **frame: Any) -> None:
    server.fake._fallback = fooled_model({**PARACETAMOL_DOSING, **frame})


@pytest.mark.parametrize("mode", ["anthropic", "hybrid"])
def test_a_model_saying_adult_for_a_five_year_old_does_not_get_the_adult_dose(
    tmp_path: Path, fake: FakeMessagesServer, mode: str
) -> None:
    _fool(fake, population="adult", route="oral")
    runtime = _runtime(tmp_path, fake, mode)
    try:
        reply = runtime.engine.handle("Liều paracetamol uống cho trẻ em 5 tuổi?")
    finally:
        runtime.close()

    assert reply.trace.understood_by == "anthropic"
    assert ADULT_ORAL_DOSE not in reply.reply
    assert not any("Người lớn" in c.quote for c in reply.citations)
    assert any("replaced model value population=adult with pediatric" in n for n in reply.trace.notes)
    # The text's population stands: a child's dose needs the weight too, so the machine asks for it.
    assert (reply.outcome, reply.reason) == ("clarify", "missing_pediatric_age_or_weight")


@pytest.mark.parametrize("mode", ["anthropic", "hybrid"])
def test_an_invented_age_and_weight_after_just_answer_get_no_paediatric_dose(
    tmp_path: Path, fake: FakeMessagesServer, mode: str
) -> None:
    runtime = _runtime(tmp_path, fake, mode)
    try:
        _fool(fake, population="pediatric")
        first = runtime.engine.handle("Liều paracetamol cho trẻ em?")
        _fool(fake, population="pediatric", route="oral", age_text="5 tuổi", age_months=60, weight_kg=18)
        second = runtime.engine.handle("cứ trả lời đi", first.conversation_id)
    finally:
        runtime.close()

    assert first.outcome == "clarify"
    assert second.outcome != "answerable" and second.citations == []
    assert " mg" not in second.reply
    dropped = " ".join(second.trace.notes)
    for value in ("age_months=60", "weight_kg=18", "route=oral"):
        assert f"dropped model value {value}" in dropped


def test_values_the_user_stated_in_an_earlier_turn_are_kept(tmp_path: Path, fake: FakeMessagesServer) -> None:
    runtime = _runtime(tmp_path, fake, "anthropic")
    try:
        _fool(fake, population="pediatric", age_text="5 tuổi", age_months=60, route="oral")
        first = runtime.engine.handle("Liều paracetamol uống cho bé 5 tuổi?")
        # A short reply to the weight question: the model repeats the age and route stated in the first turn.
        fake.fake._fallback = fooled_model({"turn_type": "dosing_calc", "population": "pediatric",
                                            "age_months": 60, "weight_kg": 18, "route": "oral"},
                                           cite="10–15 mg/kg/lần")
        second = runtime.engine.handle("18 kg", first.conversation_id)
    finally:
        runtime.close()

    assert not any("provenance" in n for n in second.trace.notes), second.trace.notes
    assert (first.outcome, second.outcome) == ("clarify", "answerable"), (first.reason, second.reason)
    assert "10–15 mg/kg/lần" in second.reply


def test_a_stored_fooled_conversation_replays_to_the_same_decisions(tmp_path: Path, fake: FakeMessagesServer) -> None:
    """Replay feeds the recorded model frames back through the same provenance check, so it decides alike."""
    from engine.store.memory import MemoryStore
    from engine.stored_replay import replay_stored

    runtime = _runtime(tmp_path / "live", fake, "anthropic")
    try:
        _fool(fake, population="adult", route="oral")
        first = runtime.engine.handle("Liều paracetamol uống cho trẻ em 5 tuổi?")
        _fool(fake, population="pediatric", route="oral", age_months=60, weight_kg=18)
        runtime.engine.handle("cứ trả lời đi", first.conversation_id)
        turns = runtime.store.turns(first.conversation_id)
    finally:
        runtime.close()

    fake.fake._fallback = None  # replay must not call the provider: every model output is recorded
    replayer = _runtime(tmp_path / "replay", fake, "anthropic")
    try:
        replayer.engine.store = MemoryStore()
        diffs = replay_stored(replayer.engine, turns)
    finally:
        replayer.close()
    assert [d.changed for d in diffs] == [[], []], [d.line() for d in diffs]


@pytest.mark.parametrize("mode", ["anthropic", "hybrid"])
def test_a_model_citing_the_adult_line_word_for_word_for_a_child_is_not_answered_with_it(
    tmp_path: Path, fake: FakeMessagesServer, mode: str
) -> None:
    """Item 2 over a socket: the frame is right (the text's own child, age and weight), but the fooled model
    cites the adult oral line verbatim. A verbatim quote needs no entailment call; the dosing binding in the
    running machine rejects it (another population's line), so the adult dose is never shown."""
    fake.fake._fallback = fooled_model({**PARACETAMOL_DOSING, "population": "pediatric", "age_months": 60,
                                        "weight_kg": 18, "route": "oral"}, cite=ADULT_ORAL_DOSE)
    runtime = _runtime(tmp_path, fake, mode)
    try:
        reply = runtime.engine.handle("Liều paracetamol uống cho bé 5 tuổi nặng 18 kg?")
    finally:
        runtime.close()

    assert ADULT_ORAL_DOSE not in reply.reply
    assert reply.outcome != "answerable"
    assert any("dosing binding: not bound" in n for n in reply.trace.notes), reply.trace.notes
