"""The book's line for pregnant women (issue 17 item 3, aciclovir's VZV infusion: "Ở phụ nữ mang thai: … mg/kg/lần")
is applied for a pregnant patient in place of the other lines under the same lead-ins, after the pregnancy section's
condition, stated first and cited; it is never another adult's dose. Synthetic sections in the book's shape (own
sentences, own numbers); the real aciclovir text at the end (skipped, saying so, when absent)."""

from __future__ import annotations

import pytest

from core.budget import RequestBudget
from core.dosage.model import Patient
from core.dosage.parse import parse_dosage
from core.dosage.pregnancy import for_pregnancy
from core.dosage.select import select
from grounding.answer import GenerationRequest
from grounding.extractive import ExtractiveGenerator
from grounding.verify import verify_grounding
from tests.unit.realtext import real_chunks

SECTION = ("Tiêm truyền tĩnh mạch: Người lớn: Nhiễm virus Y: Ở người có khả năng miễn dịch: 6 mg/kg/lần, cách 8 giờ/lần; "
           "Ở người suy giảm miễn dịch: 12 mg/kg/lần, cách 8 giờ/lần; Ở phụ nữ mang thai: 18 mg/kg/lần, cách 8 giờ/lần. "
           "Viêm não do virus Y: 11 mg/kg/lần, cách 8 giờ/lần.")


def _shown(indication: str, *, pregnant: bool = False) -> str:
    patient = Patient(population="adult", route="iv", indication=indication, pregnant=pregnant)
    return " ".join(line.text for line in select(parse_dosage(SECTION), patient).lines)


def test_a_pregnant_patient_gets_the_pregnant_womens_line_in_place_of_the_others_of_its_lead_ins() -> None:
    shown = _shown("nhiễm virus Y", pregnant=True)
    assert "18 mg/kg" in shown and "6 mg/kg" not in shown and "12 mg/kg" not in shown


def test_a_patient_not_said_to_be_pregnant_never_gets_the_pregnant_womens_line() -> None:
    shown = _shown("nhiễm virus Y")
    assert "6 mg/kg" in shown and "18 mg/kg" not in shown


def test_a_pregnant_patients_other_indication_keeps_its_own_line() -> None:
    shown = _shown("viêm não do virus Y", pregnant=True)
    assert "11 mg/kg" in shown and "18 mg/kg" not in shown


@pytest.mark.parametrize(("text", "pregnant"), [
    ("Ở phụ nữ mang thai: 18 mg/kg/lần", True), ("Người đang mang thai: 10 mg", True),
    ("Ở người suy giảm miễn dịch: 12 mg/kg/lần", False), ("Không dùng cho phụ nữ mang thai.", False)])
def test_a_line_for_pregnant_women_is_read_from_whom_its_lead_in_names(text: str, pregnant: bool) -> None:
    (line,) = parse_dosage(f"Người lớn: {text}").lines
    assert for_pregnancy(line) is pregnant


def test_on_the_real_text_the_pregnancy_condition_comes_first_then_her_infusion_line() -> None:
    evidence = real_chunks("aciclovir", "thoi_ky_mang_thai", "lieu_luong_cach_dung")
    request = GenerationRequest(query="Phụ nữ mang thai bị thủy đậu, truyền tĩnh mạch aciclovir liều bao nhiêu?",
                                evidence=evidence, section_key="lieu_luong_cach_dung", drug_ids=["aciclovir"],
                                population="adult", route="iv", condition="thủy đậu", pregnant=True)
    answer = ExtractiveGenerator().generate(request, RequestBudget())
    assert verify_grounding(answer, evidence, request=request).ok
    first, *rest = answer.claims
    assert first.citations[0].startswith("aciclovir__thoi_ky_mang_thai") and "lợi ích" in first.text
    text = " ".join(c.text for c in rest)
    assert "15 mg/kg/lần" in text
    assert "khả năng miễn dịch: 5 mg/kg" not in text and "suy giảm miễn dịch: 10 mg/kg" not in text
