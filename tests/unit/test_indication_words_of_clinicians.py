"""Indications as clinicians name them, against the book's lead-ins (issue 17: an indication stated in the user's
words was asked about again; a severity typed without diacritics was lost and the severe band shown beside the
mild one). Lead-ins and lines here are written for the test, shaped like the real book."""

from __future__ import annotations

import pytest

from core.dosage.indication import match_score
from core.dosage.model import Patient
from core.dosage.parse import parse_dosage
from core.dosage.select import select
from states.slots import dose_indication


@pytest.mark.parametrize(("asked", "label", "other"), [
    ("thủy đậu nặng", "Nhiễm VZV", "Viêm não do HSV"),
    ("zona thần kinh", "Nhiễm VZV", "Viêm não do HSV"),
    ("viêm khớp tự phát", "Viêm khớp dạng thấp bao gồm viêm khớp tự phát ở trẻ em", "Giảm đau và hạ sốt"),
    ("viêm tai giữa mức độ vừa", "Nhiễm vi khuẩn nhạy cảm ở tai, mũi, họng, da", "Bệnh Lyme"),
    ("viem hong nhiem khuan muc do nhe", "Nhiễm vi khuẩn nhạy cảm ở tai, mũi, họng, da", "Bệnh Lyme"),
])
def test_the_clinicians_words_name_the_books_lead_in_and_not_the_other(asked: str, label: str, other: str) -> None:
    assert match_score(asked, [label]) > 0
    assert match_score(asked, [other]) == 0


def test_after_dates_a_disease_it_does_not_name_another_one() -> None:
    opening = ["Trong trường hợp cấp tính, dùng ngay trong phác đồ ban đầu như nhồi máu cơ tim, dùng liều nạp"]
    assert match_score("sau nhồi máu cơ tim", ["Chống kết tập tiểu cầu"], opening) > 0
    assert match_score("sau mổ", ["Đau sau phẫu thuật"]) > 0   # "sau" of the post-operative lead-in still counts


SECTION = (
    "Người lớn: Giảm đau: 500 mg/lần. Chống kết tập tiểu cầu: Dự phòng dài hạn trên người nguy cơ cao, dùng liều "
    "80 - 160 mg/ngày. Trong trường hợp cấp tính như nhồi máu cơ tim, dùng liều nạp 160 - 320 mg. "
    "Chống viêm: 4 g/ngày."
)


def test_a_purpose_named_where_a_later_sentence_of_the_line_opens_selects_that_indication() -> None:
    tree = parse_dosage(SECTION, drug_names=["thuốc"])
    patient = Patient(population="adult", age_months=780.0, weight_kg=None, route=None,
                      indication="sau nhồi máu cơ tim")
    shown = " ".join(line.text for line in select(tree, patient).lines)
    assert "160 - 320 mg" in shown and "500 mg/lần" not in shown and "4 g/ngày" not in shown


def test_a_severity_typed_without_diacritics_stays_in_the_indication() -> None:
    assert dose_indication("nguoi lon viem hong nhiem khuan muc do nhe, amoxicilin uong lieu bao nhieu",
                           ["amoxicilin"]) == "viem hong nhiem khuan muc do nhe"
    assert dose_indication("cho em hỏi liều amoxicilin viêm họng nhé", ["amoxicilin"]) == "viêm họng"


def test_a_disease_name_holding_a_patient_word_is_kept_whole() -> None:
    # "thiếu niên" (the age group) and "dạng" (as in "dạng siro") are inside the disease's name here.
    assert dose_indication("Bé 10 tuổi 30 kg viêm khớp dạng thấp thiếu niên, liều aspirin khởi đầu?",
                           ["aspirin"]) == "viêm khớp dạng thấp thiếu niên"
    assert dose_indication("Người lớn viêm khớp dạng thấp, uống aspirin liều bao nhiêu?",
                           ["aspirin"]) == "viêm khớp dạng thấp"


def test_near_miss_the_age_group_and_the_form_word_alone_are_still_not_the_indication() -> None:
    assert dose_indication("Liều aspirin cho trẻ thiếu niên 14 tuổi dạng siro, giảm đau?", ["aspirin"]) == "giảm đau"


def test_schizophrenia_is_a_psychosis_and_not_another_indication() -> None:
    assert match_score("tâm thần phân liệt", ["Bệnh loạn thần và các rối loạn hành vi kết hợp"]) > 0
    assert match_score("tâm thần phân liệt", ["Hội chứng Tourette"]) == 0
    assert match_score("tâm thần phân liệt", ["Điều trị buồn nôn và nôn do các nguyên nhân"]) == 0


def test_sinusitis_is_the_nose_of_the_ent_lead_in_and_not_another_indication() -> None:
    assert match_score("viêm xoang", ["Nhiễm vi khuẩn nhạy cảm ở tai, mũi, họng, da, đường tiết niệu"]) > 0
    assert match_score("viêm xoang", ["Bệnh Lyme"]) == 0
    assert match_score("viêm xoang", ["Nhiễm Helicobacter pylori"]) == 0


def test_long_term_prevention_is_named_by_a_groups_own_line_not_only_its_label() -> None:
    # The label names the mechanism; the line names the purpose ("dự phòng dài hạn … nguy cơ cao").
    label = ["Ức chế kết tập tiểu cầu"]
    line = ["Trong trường hợp dự phòng dài hạn biến chứng tim mạch trên bệnh nhân nguy cơ cao, dùng liều"]
    assert match_score("dự phòng lâu dài bằng", label, line) > 0
    assert match_score("dự phòng lâu dài bằng", ["Giảm đau/giảm sốt"], ["Uống"]) == 0  # near miss
