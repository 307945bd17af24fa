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
    ("BN mg?", "bao nhieu mg?"),  # typed without diacritics: written out without them
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


def test_shorthand_in_a_turn_typed_without_diacritics_is_written_out_without_them() -> None:
    """Whether the user typed diacritics decides how their words are matched; "bn" must not make "nguoi lon uong"
    look as if it were written with them."""
    assert expand_chat("amox cho nguoi lon uong bn mg") == "amox cho nguoi lon uong bao nhieu mg"
    assert expand_chat("người lớn uống bn mg") == "người lớn uống bao nhiêu mg"


TWO_ROUTES = (
    "*Uống – Người lớn:* 300–700 mg/lần, mỗi 12 giờ. Nhiễm khuẩn đường tiết niệu không biến chứng: 300 mg/lần, "
    "2 lần/ngày trong 3 ngày. Bệnh than: 600 mg/lần, 2 lần/ngày.\n\n"
    "*Uống – Trẻ em:* Chỉ dùng khi lợi ích vượt trội nguy cơ (nhiễm khuẩn tiết niệu có biến chứng, bệnh than):\n"
    "- Trẻ 1–17 tuổi: 12–18 mg/kg/lần, mỗi 12 giờ.\n\n"
    "*Truyền tĩnh mạch – Trẻ em:* Chỉ dùng khi lợi ích vượt trội nguy cơ:\n"
    "- Trẻ 1–17 tuổi: 5–9 mg/kg/lần, mỗi 8 giờ.\n"
)


def test_a_route_that_does_not_split_by_indication_stays_offered_when_another_route_names_it() -> None:
    from core.dosage.select import routes_for
    tree = parse_dosage(TWO_ROUTES, drug_names=["thuốc"])
    child = Patient(population="pediatric", age_months=120.0, weight_kg=30.0, route=None,
                    indication="nhiễm khuẩn tiết niệu")
    assert set(routes_for(tree, child)) == {"oral", "iv"}
    adult = Patient(population="adult", age_months=480.0, weight_kg=None, route=None, indication="bệnh than")
    assert routes_for(tree, adult) == ["oral"]  # the adult's indication is written under the oral route only
