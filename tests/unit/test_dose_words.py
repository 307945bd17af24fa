"""Dose questions without the word "liều": the amount, how often and how to take it are the dosage section, and the
amount words ("mấy nhát", "cách nhau mấy tiếng") are never read as the indication the dose is for."""

from __future__ import annotations

import pytest

from retrieval.section_router import route_section
from states.slots import dose_indication
from tests.unit.understanding_kit import understand


@pytest.mark.parametrize("text", [
    "Paracetamol người lớn uống mấy viên?",
    "ibuprofen bao nhiêu mg",
    "amoxicilin mỗi lần bao nhiêu",
    "amoxicilin moi lan bao nhieu",
    "amoxicilin một lần mấy viên",
    "paracetamol ngày mấy lần",
    "metformin 1 ngày mấy lần",
    "amoxicilin uống như thế nào",
    "salbutamol xịt mấy nhát",
])
def test_amount_and_frequency_words_are_a_dose_question(text: str) -> None:
    frame = understand(text)
    assert (frame.turn_type, frame.section_key) == ("dosing_calc", "lieu_luong_cach_dung"), frame


@pytest.mark.parametrize("text", [
    "salbutamol xịt mấy nhát",
    "ibuprofen mỗi lần cách nhau mấy tiếng",
    "ibuprofen moi lan cach nhau may gio",
    "cho bé nhỏ mấy giọt",
])
def test_amount_words_name_no_indication(text: str) -> None:
    assert dose_indication(text, ["salbutamol", "ibuprofen"]) is None


def test_a_word_typed_with_other_diacritics_than_an_amount_word_stays_in_the_indication() -> None:
    # "gió" (cảm gió) folds to "gio" as "giờ" does: typed with its own diacritics it is part of the illness.
    assert "gió" in (dose_indication("người lớn bị cảm gió uống paracetamol bao nhiêu", ["paracetamol"]) or "")


def test_the_strength_of_a_tablet_is_still_not_a_dose() -> None:
    route = route_section("Viên Hapacol bao nhiêu mg?")
    assert route is not None and route.key == "dang_thuoc_ham_luong"
