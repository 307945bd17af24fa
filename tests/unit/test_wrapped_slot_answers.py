"""An answer is an answer whatever wraps it (issue #18): corrections typed without diacritics, politeness,
exasperation, thanks between a question and its answer; only a turn answering nothing counts toward the breaker."""

from __future__ import annotations

import pytest

from states.frame import Pending, QueryFrame
from states.merge import merge_frames
from states.streak import answered_something, next_clarify_streak
from tests.unit.understanding_kit import RESOLVER, RULES, merged, understand

AGE_WEIGHT = Pending(reason="missing_pediatric_age_or_weight", missing=["age", "weight"])
WEIGHT = Pending(reason="missing_pediatric_age_or_weight", missing=["weight"])
QUESTION = "Liều paracetamol uống cho trẻ em?"


@pytest.mark.parametrize(("text", "months", "kg"), [
    ("a nham, be 23kg", None, 23), ("a, be 23kg", None, 23), ("dạ vâng bé 5 tuổi ạ", 60, None),
    ("ok 18 ky", None, 18), ("đã bảo 3 tuổi rồi mà!!", 36, None), ("dạ cảm ơn, bé 5 tuổi 18 ký ạ", 60, 18),
])
def test_a_wrapped_answer_fills_the_slots(text: str, months: int | None, kg: int | None) -> None:
    frame = merged(text, merged(QUESTION, None), AGE_WEIGHT)
    assert frame.drugs == ["paracetamol"] and frame.turn_type == "dosing_calc"
    assert (frame.age_months, frame.weight_kg) == (months, kg)


def test_a_value_typed_without_diacritics_is_not_read_as_english() -> None:
    assert understand("a nham, be 23kg", awaiting=True).turn_type != "out_of_scope"


def test_a_correction_after_the_answer_replaces_the_weight_and_says_so() -> None:
    answered = merged("bé 5 tuổi 20 kg", merged(QUESTION, None), AGE_WEIGHT)
    text = "a nham, be 23kg"  # after an answer: the conversation's question follows, nothing is pending
    corrected = merge_frames(RULES.parse(text, RESOLVER.resolve(text), follows=True), answered, None, text)
    assert (corrected.age_months, corrected.weight_kg) == (60, 23)
    assert any("Đã sửa cân nặng: 23 kg (thay cho 20 kg)" in n for n in corrected.notes), corrected.notes


def _thanks_between() -> tuple[QueryFrame, QueryFrame]:
    asked = merged("bé 5 tuổi", merged(QUESTION, None), AGE_WEIGHT)
    thanks = merged("cảm ơn", asked, WEIGHT)
    return thanks, merged("18 kg", thanks, None)


def test_thanks_between_a_question_and_its_answer_keeps_the_question_asked() -> None:
    thanks, answer = _thanks_between()
    assert thanks.turn_type == "smalltalk" and thanks.kept_pending is not None
    assert answer.drugs == ["paracetamol"] and (answer.age_months, answer.weight_kg) == (60, 18)


def test_the_answer_after_thanks_is_progress_for_the_breaker() -> None:
    thanks, answer = _thanks_between()
    answered = answered_something(thanks, answer, None)
    assert answered and next_clarify_streak(3, "clarify", "ambiguous_route", answered) == 3


def test_a_turn_answering_nothing_still_counts() -> None:
    asked = merged(QUESTION, None)
    nothing = merged("không biết", asked, AGE_WEIGHT)
    assert not answered_something(asked, nothing, AGE_WEIGHT)
    assert next_clarify_streak(1, "clarify", "missing_pediatric_age_or_weight", False) == 2
