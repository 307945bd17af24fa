"""A caution or another person's words never push out the patient's own dose (#17 item 5, H21)."""

from __future__ import annotations

from core.dosage.indication import match_score
from core.dosage.model import Patient, RegimenLine
from core.dosage.parse import parse_dosage
from core.dosage.select import context_sentences
from states.person import person_of
from states.slots import dose_indication, extract_slots

# Synthetic, in the real book's shape (numbers changed).
SECTION = (
    "Người lớn: Truyền tĩnh mạch: Trên 50 kg: 1 g mỗi lần, tối đa 4 g/ngày. Dưới 50 kg: 15 mg/kg mỗi lần; tối đa "
    "60 mg/kg/ngày. Không được vượt quá 2,5 g/ngày ở bệnh nhân nghiện rượu, suy dinh dưỡng mạn."
)


def _under_50_line() -> RegimenLine:
    return next(line for line in parse_dosage(SECTION).lines if "Dưới 50 kg" in line.text)


def test_a_ceiling_for_the_patients_condition_is_read_from_a_sibling_band() -> None:
    patient = Patient(population="adult", weight_kg=60, route="iv", conditions=("nghiện rượu",))
    assert context_sentences(_under_50_line(), patient) == [
        "Không được vượt quá 2,5 g/ngày ở bệnh nhân nghiện rượu, suy dinh dưỡng mạn."]


def test_no_stated_condition_reads_no_ceiling() -> None:
    assert context_sentences(_under_50_line(), Patient(population="adult", weight_kg=60, route="iv")) == []


def test_agitation_in_dementia_is_the_behaviour_disorder() -> None:
    label = ["Bệnh loạn thần và các rối loạn hành vi kết hợp"]
    assert match_score("sa sút trí tuệ, kích động", label) > 0
    assert match_score("sa sút trí tuệ", label) > 0


def test_anthrax_typed_with_diacritics_is_no_kidney_disease() -> None:
    assert extract_slots("dự phòng sau phơi nhiễm bào tử bệnh than cho bé 9 tuổi 30 kg").renal is None
    assert extract_slots("người lớn bị bệnh thận uống gì").renal is not None
    assert extract_slots("nguoi lon benh than uong gi").renal is not None  # without diacritics: the kidney


def test_another_child_and_the_maintenance_dose_words_are_no_indication() -> None:
    assert dose_indication("còn một bé khác 8 tháng, 8 kg, liều cân bằng trung bình là bao nhiêu?", []) is None


def test_another_case_is_another_person() -> None:
    person = person_of("Một ca khác: bé sinh non 30 tuần, mới được 5 ngày, nặng 1,4 kg")
    assert person is not None and person.key == "other_case"


def test_how_old_just_now_is_no_indication() -> None:
    assert dose_indication("bé sinh non 30 tuần, mới được 5 ngày, nặng 1,4 kg, uống paracetamol liều nào?",
                           ["paracetamol"]) is None
