"""A dose question naming no indication gets the book's usual one when the others are circumstances (#17)."""

from __future__ import annotations

from core.dosage.usual import is_usual_label, usual_indication, usual_indication_note
from states.slots import dose_indication


def test_pain_and_fever_labels_are_the_usual_indication() -> None:
    assert is_usual_label("Đau, sốt")
    assert is_usual_label("giảm đau hoặc sốt")
    assert is_usual_label("Giảm đau/giảm sốt")
    assert not is_usual_label("Đau sau phẫu thuật")
    assert not is_usual_label("Sốt sau khi tiêm chủng ở trẻ nhỏ")


def test_a_common_infection_label_is_the_usual_indication() -> None:
    assert is_usual_label("Nhiễm vi khuẩn nhạy cảm ở tai, mũi, họng, da, đường tiết niệu")
    assert not is_usual_label("Nhiễm Helicobacter pylori")


def test_a_surgery_is_a_circumstance_the_user_would_have_named() -> None:
    assert usual_indication(["Đau, sốt", "Đau sau phẫu thuật"]) == "Đau, sốt"


def test_two_usual_labels_are_both_named() -> None:
    chosen = usual_indication(["giảm đau hoặc sốt", "Giảm đau và hạ sốt",
                               "Viêm khớp dạng thấp bao gồm viêm khớp tự phát ở trẻ em"])
    assert chosen == "giảm đau hoặc sốt, Giảm đau và hạ sốt"


def test_another_purpose_the_user_may_mean_keeps_the_question() -> None:
    # Aspirin: the antiplatelet and anti-inflammatory doses are readings an adult may mean without naming them.
    assert usual_indication(["Giảm đau/giảm sốt", "Chống viêm (viêm khớp dạng thấp)",
                             "Ức chế kết tập tiểu cầu"]) is None


def test_no_usual_label_or_only_usual_labels_changes_nothing() -> None:
    assert usual_indication(["Động kinh", "Rối loạn lưỡng cực"]) is None
    assert usual_indication(["Đau, sốt"]) is None


def test_the_note_names_the_others_without_their_doses() -> None:
    note = usual_indication_note("Đau, sốt", ["Đau, sốt", "Đau sau phẫu thuật"])
    assert "Đau, sốt" in note and "Đau sau phẫu thuật" in note
    assert "mg" not in note


def test_grams_asked_are_no_indication() -> None:
    assert dose_indication("acetaminophen người lớn uống tối đa 1 ngày bao nhiêu gam?", ["acetaminophen"]) is None


def test_why_the_route_was_chosen_is_no_indication() -> None:
    text = "Bé 8 tuổi 25 kg nôn nhiều không uống được, đặt trực tràng paracetamol liều bao nhiêu?"
    assert dose_indication(text, ["paracetamol"]) is None


def test_vomiting_as_the_indication_is_kept() -> None:
    assert dose_indication("metoclopramid cho người lớn bị nôn nhiều liều bao nhiêu", ["metoclopramid"]) == "nôn nhiều"


def test_pain_and_fever_written_apart_are_both_the_usual_indication() -> None:
    # Adult ibuprofen: the pain and the fever doses differ and both are everyday uses; both are shown, labelled.
    chosen = usual_indication(["để giảm đau", "giảm sốt", "đau bụng trong thời kỳ kinh nguyệt"])
    assert chosen == "để giảm đau, giảm sốt"
    note = usual_indication_note(chosen, ["để giảm đau", "giảm sốt", "đau bụng trong thời kỳ kinh nguyệt"])
    assert "để giảm đau" in note and "giảm sốt" in note and "kinh nguyệt" in note


def test_a_purpose_that_names_its_diseases_is_a_circumstance_but_an_unsaid_purpose_is_asked() -> None:
    # ibuprofen: the rheumatoid dose is for patients who would have said so; aspirin's antiplatelet dose may be meant
    # unsaid (#18 held-out H153).
    assert usual_indication(["Giảm đau, hạ sốt", "Chống viêm (viêm khớp dạng thấp, thoái hóa khớp)"]) == "Giảm đau, hạ sốt"
    assert usual_indication(["Giảm đau, hạ sốt", "Chống viêm (viêm khớp dạng thấp)", "Chống kết tập tiểu cầu"]) is None
