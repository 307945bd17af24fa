"""How a clinician writes the patient, and the route a line names mid-sentence (issue 17, held-out real text):
"BN xơ gan, suy gan nặng" is an adult patient graded severe, not a question to ask "người lớn hay trẻ em?"; a line
under "Thuốc tiêm:" that says "có thể tiêm tĩnh mạch, liều …" is the intravenous line, never an intramuscular one.
Section texts here are written for the test (synthetic), shaped like the flattened real book."""

from __future__ import annotations

import pytest

from core.dosage.model import Patient
from core.dosage.parse import parse_dosage
from core.dosage.select import select
from states.shorthand import expand_chat
from states.slots import extract_slots

INJECTION_SECTION = (
    "Liều lượng: Thuốc tiêm: Dùng trong kích động cấp: Tiêm bắp ban đầu 4 - 8 mg. Nếu cần 2 giờ sau tiêm lại. "
    "Để kiểm soát nhanh cơn kích động, thuốc có thể tiêm tĩnh mạch, liều 1 - 20 mg với tốc độ 2 mg/phút."
)


def _shown(route: str) -> str:
    tree = parse_dosage(INJECTION_SECTION, drug_names=["thuốc"])
    patient = Patient(population="adult", age_months=None, weight_kg=None, route=route)
    return " ".join(line.text for line in select(tree, patient).lines)


def test_a_line_naming_one_route_of_its_lead_in_mid_sentence_is_that_routes_only() -> None:
    assert "4 - 8 mg" in _shown("im") and "1 - 20 mg" not in _shown("im")
    assert "1 - 20 mg" in _shown("iv") and "4 - 8 mg" not in _shown("iv")


@pytest.mark.parametrize(("typed", "written"), [
    ("BN xơ gan, suy gan nặng", "bệnh nhân xơ gan, suy gan nặng"),
    ("bn 60 tuổi suy thận", "bệnh nhân 60 tuổi suy thận"),
    ("BN mg?", "bao nhiêu mg?"),
    ("bé 5 tuổi uống bn mg 1 lần", "bé 5 tuổi uống bao nhiêu mg 1 lần"),
    ("bn tuổi thì uống được", "bao nhiêu tuổi thì uống được"),
])
def test_bn_is_the_patient_when_it_opens_the_turn_and_no_amount_follows(typed: str, written: str) -> None:
    assert expand_chat(typed) == written


@pytest.mark.parametrize(("text", "population"), [
    ("bệnh nhân xơ gan uống thuốc này liều bao nhiêu", "adult"),
    ("người bệnh suy thận dùng liều nào", "adult"),
    ("bệnh nhân 8 tuổi nặng 25 kg", "pediatric"),   # the age decides
    ("bệnh nhân là bé trai", None),                 # a child word beside it: asked, not assumed
])
def test_a_clinicians_patient_is_an_adult_unless_a_child_or_an_age_says_otherwise(
        text: str, population: str | None) -> None:
    assert extract_slots(text).population == population


def test_the_graded_hepatic_impairment_wins_over_an_earlier_disease_word() -> None:
    assert extract_slots("bệnh nhân xơ gan mất bù, suy gan nặng").hepatic == "suy gan nặng"
    assert extract_slots("bệnh nhân xơ gan").hepatic == "xơ gan"


@pytest.mark.parametrize(("text", "condition"), [
    ("bé 6 tuổi 20 kg bị phù, furosemid liều uống bao nhiêu", "phù"),   # the comma ends the condition
    ("người lớn bị đau cơ uống thuốc này liều sao", "đau cơ"),           # "cơ" is not the question word "có"
])
def test_the_condition_of_a_drug_question_ends_at_punctuation_and_keeps_its_own_words(
        text: str, condition: str) -> None:
    from states.conditions import condition_in_drug_turn
    assert condition_in_drug_turn(text) == condition
