"""A contraindication line applies to this patient only when every condition it states is theirs (issue 17 item 3).

The safety texts here are SYNTHETIC TEST DATA written for these tests in the shape of the book's "Chống chỉ định"
lines (a co-medication before "ở người bệnh …", "kèm", a child group qualified by a disease); not clinical guidance.
Expectations were written from the texts before running.
"""

from __future__ import annotations

import pytest

from core.corpus import Chunk
from core.dosage.model import Patient
from grounding.line_conditions import child_qualifier, conjuncts, items
from grounding.patient_safety import patient_safety


def _ccd(text: str) -> list[Chunk]:
    return [Chunk(doc_id="thuoc_y__chong_chi_dinh__0", drug_id="thuoc_y", section_key="chong_chi_dinh", text=text)]


RENAL_25 = Patient(population="adult", age_months=55 * 12, renal=True, renal_ml_min=25)
LIVER_SEVERE = Patient(population="adult", age_months=50 * 12, hepatic="severe")
PRETERM_NEWBORN = Patient(population="pediatric", age_months=0.1, weight_kg=1.4)


def test_the_items_of_a_line_and_the_conditions_of_an_item() -> None:
    line = "Dùng cùng kali clorid ở người bệnh suy thận (ClCr dưới 30 ml/phút, lọc máu); suy tim nặng kèm hạ natri huyết."
    assert items(line) == ["Dùng cùng kali clorid ở người bệnh suy thận (ClCr dưới 30 ml/phút, lọc máu)",
                           "suy tim nặng kèm hạ natri huyết"]
    assert conjuncts(items(line)[0]) == ["Dùng cùng kali clorid", "người bệnh suy thận (ClCr dưới 30 ml/phút, lọc máu)"]
    assert conjuncts(items(line)[1]) == ["suy tim nặng", "hạ natri huyết"]
    # A reason or an exception stays with its item.
    assert items("Trẻ em dưới 12 tuổi, vì nguy cơ ức chế hô hấp, trừ khi có chỉ định của chuyên khoa.") == [
        "Trẻ em dưới 12 tuổi, vì nguy cơ ức chế hô hấp, trừ khi có chỉ định của chuyên khoa"]


@pytest.mark.parametrize(("line", "qualifier"), [
    ("Trẻ sơ sinh thiếu tháng có xuất huyết não thất.", "có xuất huyết não thất"),
    ("Trẻ sơ sinh vàng da nhân.", "vàng da nhân"),
    ("Trẻ em dưới 6 tuổi.", None),
    ("Trẻ em dưới 12 tuổi, vì nguy cơ ức chế hô hấp.", None),
    ("Không dùng cho trẻ dưới 2 tuổi.", None),
])
def test_what_qualifies_a_child_group(line: str, qualifier: str | None) -> None:
    assert child_qualifier(line) == qualifier


def test_a_co_medication_the_patient_does_not_take_is_a_caution_not_an_exclusion() -> None:
    evidence = _ccd("Dùng cùng kali clorid ở người bệnh suy thận (ClCr dưới 30 ml/phút).")
    safety = patient_safety(evidence, RENAL_25)
    assert not safety.contraindicated and safety.conditional
    assert [c.text for c in safety.claims] == ["Dùng cùng kali clorid ở người bệnh suy thận (ClCr dưới 30 ml/phút)."]


def test_the_co_medication_the_patient_takes_excludes_whatever_its_spelling() -> None:
    evidence = _ccd("Dùng cùng spironolacton ở người bệnh suy thận (ClCr dưới 30 ml/phút).")
    taking = Patient(population="adult", age_months=55 * 12, renal=True, renal_ml_min=25,
                     conditions=("đang uống spironolactone",))
    assert patient_safety(evidence, taking).contraindicated
    # The renal band must hold too: at ClCr 45 the same co-medication is not this line's patient.
    milder = Patient(population="adult", age_months=55 * 12, renal=True, renal_ml_min=45,
                     conditions=("đang uống spironolactone",))
    assert not patient_safety(evidence, milder).contraindicated


def test_kem_needs_both_conditions() -> None:
    evidence = _ccd("Nhược cơ; suy gan nặng kèm suy thận.")
    assert not patient_safety(evidence, LIVER_SEVERE).contraindicated
    assert not patient_safety(evidence, RENAL_25).contraindicated
    both = Patient(population="adult", age_months=60 * 12, renal=True, renal_ml_min=25, hepatic="severe")
    assert patient_safety(evidence, both).contraindicated


def test_a_plain_list_item_still_excludes() -> None:
    # Each comma item stands alone: the renal patient is excluded by "suy thận nặng (ClCr dưới 30 ml/phút)".
    evidence = _ccd("Suy tim mất bù, suy thận nặng (ClCr dưới 30 ml/phút), phụ nữ cho con bú.")
    assert patient_safety(evidence, RENAL_25).contraindicated


def test_a_newborn_line_qualified_by_a_disease_the_child_does_not_have() -> None:
    evidence = _ccd("Trẻ sơ sinh thiếu tháng có xuất huyết não thất. Trẻ sơ sinh vàng da nhân.")
    safety = patient_safety(evidence, PRETERM_NEWBORN)
    assert not safety.contraindicated and safety.conditional and len(safety.claims) == 2
    bleeding = Patient(population="pediatric", age_months=0.1, weight_kg=1.4, conditions=("xuất huyết não thất",))
    assert patient_safety(evidence, bleeding).contraindicated


def test_an_unqualified_child_group_still_excludes() -> None:
    assert patient_safety(_ccd("Trẻ sơ sinh."), PRETERM_NEWBORN).contraindicated


def test_a_disease_of_a_stated_cause_needs_the_cause() -> None:
    # "tiêu chảy do vi khuẩn xâm nhập" is diarrhoea of that cause: a child with diarrhoea of no stated cause is
    # shown the line before the dose, not refused it; the cause named excludes.
    evidence = _ccd("Lỵ cấp (phân có máu, sốt cao); tiêu chảy do vi khuẩn xâm nhập (Salmonella, Shigella).")
    assert conjuncts("tiêu chảy do vi khuẩn xâm nhập") == ["tiêu chảy", "do vi khuẩn xâm nhập"]
    assert conjuncts("ban đỏ toàn thân") == ["ban đỏ toàn thân"]  # "đỏ" (red) is not "do" (because of)
    diarrhoea = Patient(population="pediatric", age_months=72, weight_kg=22, conditions=("tiêu chảy",))
    assert not patient_safety(evidence, diarrhoea).contraindicated
    dysentery = Patient(population="pediatric", age_months=72, weight_kg=22, conditions=("bị lỵ",))
    assert patient_safety(evidence, dysentery).contraindicated
