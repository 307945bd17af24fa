"""Another child of the household is another person (issue #18): "bé thứ 2", "con gái lớn nhà tôi", "đứa còn
lại", "đứa sinh đôi" — the earlier child's age and weight never reach them; drug, route and question stay."""

from __future__ import annotations

import pytest

from states.person import person_of
from tests.unit.understanding_kit import merged

FIRST = "Liều paracetamol uống cho bé 5 tuổi 18 kg?"


@pytest.mark.parametrize("text", ["bé thứ 2 thì sao", "bé thứ hai thì sao", "con gái lớn nhà tôi 9 tuổi",
                                  "còn đứa còn lại 3 tuổi thì sao", "còn đứa sinh đôi của nó thì sao?",
                                  "thằng con trai út 2 tuổi", "con dua lon 8 tuoi thi sao"])
def test_a_child_named_by_rank_or_kinship_in_the_family_is_a_sibling(text: str) -> None:
    person = person_of(text, about_a_person=True)
    assert person is not None and person.key == "sibling", person


@pytest.mark.parametrize("text", ["bé thứ 2 thì sao", "còn đứa sinh đôi của nó thì sao?",
                                  "con gái lớn nhà tôi 9 tuổi thì uống bao nhiêu?"])
def test_another_child_keeps_the_drug_route_and_question_but_no_value_of_the_first(text: str) -> None:
    first = merged(FIRST, None)
    later = merged(text, first)
    assert later.drugs == ["paracetamol"] and later.route == first.route and later.turn_type == "dosing_calc"
    assert later.weight_kg is None and later.age_months != 60
    assert later.population == "pediatric"
    assert any(note.startswith("Về ") for note in later.notes), later.notes


def test_a_new_age_asked_as_a_new_question_keeps_no_old_weight() -> None:
    later = merged("bé 9 tuổi thì uống bao nhiêu?", merged(FIRST, None))
    assert later.age_months == 108 and later.weight_kg is None


def test_the_same_childs_new_weight_keeps_the_age() -> None:
    later = merged("giờ bé nặng 20 kg rồi thì liều bao nhiêu?", merged(FIRST, None))
    assert (later.age_months, later.weight_kg) == (60, 20)


def test_second_child_said_in_words_or_digits_is_one_child() -> None:
    second = merged("bé thứ hai 3 tuổi 14 kg thì sao", merged(FIRST, None))
    again = merged("bé thứ 2 thì uống mấy lần một ngày?", second)
    assert (again.age_months, again.weight_kg) == (36, 14)
