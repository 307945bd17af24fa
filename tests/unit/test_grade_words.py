"""An impairment graded in words ("suy thận nặng", "suy gan vừa") meets a contraindication that names that grade.

Held-out patient set: "à bố nó bị suy thận nặng nữa" after an ibuprofen dose got the adult dose under a safety
note, although the fixture's Chống chỉ định names "suy thận nặng (độ thanh thải creatinin dưới 30 ml/phút)";
"mẹ hai đứa bị suy gan vừa" got domperidon's dose under "Suy gan vừa và nặng" (read as severe only)."""

from __future__ import annotations

import pytest

from core.dosage.bands import impairment_grades
from core.text import fold
from grounding.dosing_select import patient_in_context
from grounding.patient_safety import patient_safety
from tests.unit.calculator_kit import monograph_chunks


@pytest.mark.parametrize(("sentence", "organ", "grades"), [
    ("Suy gan vừa và nặng; người có kéo dài khoảng QT", "hepatic", {"moderate", "severe"}),
    ("suy thận nặng (độ thanh thải creatinin dưới 30 ml/phút)", "renal", {"severe"}),
    ("Suy thận nhẹ và vừa: dùng liều thấp nhất", "renal", {"mild", "moderate"}),
    ("suy thận", "renal", set()),
    ("Suy tim nặng, suy gan nặng", "renal", set()),
])
def test_the_grades_a_sentence_names(sentence: str, organ: str, grades: set[str]) -> None:
    assert impairment_grades(fold(sentence), organ) == grades


def _safety(drug: str, renal: str | None = None, hepatic: str | None = None) -> bool:
    patient = patient_in_context("adult", None, None, None, None, renal, hepatic)
    return patient_safety(list(monograph_chunks(drug)), patient).contraindicated


def test_severe_renal_impairment_in_words_meets_the_severe_renal_contraindication() -> None:
    assert _safety("ibuprofen", renal="suy thận nặng")
    assert not _safety("ibuprofen", renal="suy thận nhẹ")


def test_a_value_still_decides_when_it_is_given() -> None:
    assert _safety("ibuprofen", renal="suy thận nặng, ClCr 20 ml/phút")
    assert not _safety("ibuprofen", renal="suy thận, ClCr 45 ml/phút")


def test_moderate_hepatic_impairment_meets_moderate_and_severe() -> None:
    assert _safety("domperidon", hepatic="suy gan vừa")
    assert not _safety("domperidon", hepatic="suy gan nhẹ")
