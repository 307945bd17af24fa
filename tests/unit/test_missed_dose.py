"""A missed-dose question is answered by the book's sentences about a missed dose, or says the book has none
(core.missed_dose, grounding.extractive._usage, states.replies)."""

from __future__ import annotations

import pytest

from core.missed_dose import asks_missed_dose, states_missed_dose


@pytest.mark.parametrize("turn", ["quên liều paracetamol có được uống gấp đôi không", "quên uống 1 liều thì sao",
                                  "bỏ lỡ liều warfarin", "quen uong mot lieu thi sao"])
def test_a_missed_dose_question_is_recognised(turn: str) -> None:
    assert asks_missed_dose(turn)


@pytest.mark.parametrize("turn", ["lỡ uống 2 liều paracetamol", "liều paracetamol cho bé sốt"])
def test_taking_too_much_or_a_fever_is_not_a_missed_dose(turn: str) -> None:
    assert not asks_missed_dose(turn)


def test_only_a_sentence_about_missing_a_dose_answers_it() -> None:
    assert states_missed_dose("Nếu quên thì phải uống ngay khi nhớ.")
    assert not states_missed_dose("Uống trong hoặc sau bữa ăn.")
