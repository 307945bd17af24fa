"""The question survives politeness (issue #18): thanks before a question is the question; thanks alone after an
answer is a greeting that keeps the patient for the next follow-up."""

from __future__ import annotations

import pytest

from states.pleasantries import without_pleasantries
from tests.unit.understanding_kit import merged, understand

FIRST = "Liều paracetamol uống cho bé 5 tuổi 18 kg?"


@pytest.mark.parametrize(("text", "question"), [
    ("cảm ơn nhé, thế còn liều cho bé 4 tuổi 16 kg?", "thế còn liều cho bé 4 tuổi 16 kg?"),
    ("tks, còn đặt hậu môn?", "còn đặt hậu môn?"),
    ("Cám ơn bác sĩ, thế chống chỉ định của nó?", "thế chống chỉ định của nó?"),
    ("thank u, còn ibuprofen thì sao?", "còn ibuprofen thì sao?"),
])
def test_thanks_before_a_question_leave_the_question(text: str, question: str) -> None:
    assert without_pleasantries(text) == question


@pytest.mark.parametrize("text", ["cảm ơn nhé", "tks", "camon ban nhieu", "dạ vâng, cảm ơn ạ"])
def test_thanks_alone_is_smalltalk(text: str) -> None:
    assert understand(text).turn_type == "smalltalk"


def test_thanks_then_a_new_childs_values_is_a_dose_question_for_them() -> None:
    frame = merged("cảm ơn nhé, thế còn liều cho bé 4 tuổi 16 kg?", merged(FIRST, None))
    assert frame.turn_type == "dosing_calc" and frame.drugs == ["paracetamol"]
    assert (frame.age_months, frame.weight_kg) == (48, 16)


def test_bare_thanks_after_an_answer_keeps_the_patient_for_the_follow_up() -> None:
    thanks = merged("cảm ơn nhé", merged(FIRST, None))
    assert thanks.turn_type == "smalltalk" and thanks.drugs == []
    follow_up = merged("còn đặt hậu môn thì sao?", thanks)
    assert follow_up.drugs == ["paracetamol"] and follow_up.route == "rectal"
    assert (follow_up.age_months, follow_up.weight_kg) == (60, 18)
