"""'uống thêm paracetamol thì liều bao nhiêu', 'cho uống thêm X được mấy viên': X's dose for the same patient, not an
interaction question; another person named with it starts afresh."""

from __future__ import annotations

import pytest

from states.followup import adds_a_drug, pairs_with_discussed
from tests.unit.understanding_kit import fixture_engine, merged, understand

CHILD = "Liều ibuprofen cho bé 5 tuổi 18 kg"


@pytest.mark.parametrize("text", [
    "cho uống thêm paracetamol được mấy viên",
    "uống thêm paracetamol thì liều bao nhiêu",
    "cho uong them paracetamol duoc may vien",
    "cho bé uống thêm paracetamol bao nhiêu",
])
def test_one_more_drug_asks_its_dose_for_the_same_child(text: str) -> None:
    frame = merged(text, understand(CHILD))
    assert (frame.turn_type, frame.section_key) == ("dosing_calc", "lieu_luong_cach_dung")
    assert frame.drugs == ["paracetamol"]
    assert (frame.population, frame.age_months, frame.weight_kg) == ("pediatric", 60, 18)


def test_adding_a_drug_is_not_taking_it_beside_the_other() -> None:
    assert adds_a_drug("cho uống thêm paracetamol được mấy viên")
    assert not pairs_with_discussed("cho uống thêm paracetamol được mấy viên")


def test_craving_typed_with_diacritics_adds_no_drug() -> None:
    # "thèm" (to crave) folds to "them" as "thêm" (more) does.
    assert not adds_a_drug("con cứ đòi uống thèm paracetamol vì ngọt")
    assert adds_a_drug("cho uong them paracetamol")


def test_another_person_given_the_added_drug_keeps_nothing_of_the_first() -> None:
    frame = merged("còn em nó uống thêm paracetamol thì liều bao nhiêu", understand(CHILD))
    assert frame.weight_kg is None and frame.age_months is None


@pytest.mark.parametrize(("text", "taken", "added"), [
    ("bé đang uống ibuprofen, cho uống thêm hapacol được mấy viên", "Ibuprofen", "paracetamol"),
    ("bé đang uống hapacol, cho uống thêm brufen được bao nhiêu", "Paracetamol", "ibuprofen"),
])
def test_a_brand_after_them_is_the_added_drug_as_its_generic_name_is(text: str, taken: str, added: str) -> None:
    # "thêm hapacol" adds paracetamol: its dose for the child, under the note that the book states no interaction
    # between the two — not the pair's interaction abstention, as with the brand read as no added drug.
    reply = fixture_engine().handle(text, None)  # the interaction sections are read: the engine's own name book
    frame = reply.frame or {}
    assert (frame["turn_type"], frame["section_key"], frame["drugs"]) == ("dosing_calc", "lieu_luong_cach_dung", [added])
    assert f"Lưu ý: mục Tương tác thuốc của {taken} và " in reply.reply and "mg/lần" not in reply.reply


def test_a_brand_added_as_a_follow_up_keeps_the_child() -> None:
    frame = merged("cho uống thêm hapacol được mấy viên", understand(CHILD))
    assert (frame.turn_type, frame.drugs, frame.age_months, frame.weight_kg) == ("dosing_calc", ["paracetamol"], 60, 18)
