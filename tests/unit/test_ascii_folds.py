"""Turns typed without diacritics whose folds are ambiguous (issue 18 item 5): the words around the fold, and the
conversation, decide which word was meant — never the fold alone."""

from __future__ import annotations

import pytest

from states.frame import QueryFrame
from states.next_indication import follow_up_indication
from states.person import person_of
from states.scope import about_a_person, looks_non_human
from states.slots import dose_indication, extract_slots


@pytest.mark.parametrize("typed", [
    "ventolin khi dung qua may phun 5mg cho nguoi lon",
    "cho be xong dung qua may phun duoc khong",
    "dung dich khi dung salbutamol pha the nao",
    "phun suong salbutamol cho tre",
])
def test_a_nebuliser_named_without_diacritics_is_the_inhaled_route(typed: str) -> None:
    assert extract_slots(typed).route == "inhaled"


@pytest.mark.parametrize("typed", [
    "khi dung qua lieu thi xu tri sao",
    "can luu y gi khi dung thuoc nay",
])
def test_khi_dung_as_when_using_names_no_route(typed: str) -> None:
    assert extract_slots(typed).route is None


# --- "con" typed without diacritics: the animal reading is one of two -----------------------------------------


@pytest.mark.parametrize("typed", ["con ngua do di ung thi sao", "con ngua mat thi dung sao", "con bo no thi sao"])
def test_within_a_human_conversation_a_fold_with_an_ordinary_reading_is_not_an_animal(typed: str) -> None:
    assert not looks_non_human(typed, about_a_person=True)
    assert looks_non_human(typed)  # with no conversation, the doubt still declines (never doses an animal)


@pytest.mark.parametrize("typed", ["con ngua nha toi bi ho thi sao", "con meo bi non thi sao", "con heo bi sot"])
def test_an_unmistakable_animal_is_an_animal_whatever_came_before(typed: str) -> None:
    assert looks_non_human(typed, about_a_person=True)


@pytest.mark.parametrize("typed", ["Lieu paracetamol cho con bo 3 kg", "the cho con bo 300 kg uong bao nhieu"])
def test_for_the_cow_is_a_cow_even_within_a_human_conversation(typed: str) -> None:
    # After "cho" (for), "con bo" has no "còn bố" reading: read as a person, the cow was asked its age towards a dose.
    assert looks_non_human(typed, about_a_person=True)


def test_for_the_older_child_stays_a_child() -> None:
    # "cho con lon" is also "cho con lớn" (for the older child): within a human conversation, a child.
    assert not looks_non_human("the cho con lon 9 tuoi 27 kg thi sao", about_a_person=True)


def test_about_a_person_needs_a_human_question_before() -> None:
    assert about_a_person(QueryFrame(turn_type="dosing_calc", drugs=["cetirizin"]))
    assert about_a_person(QueryFrame(turn_type="condition_to_drug", condition="mề đay"))
    assert not about_a_person(QueryFrame(turn_type="out_of_scope", drugs=["cetirizin"], non_human=True))
    assert not about_a_person(None)


def test_the_father_typed_without_diacritics_in_a_human_conversation() -> None:
    person = person_of("con bo no 40 tuoi thi sao", about_a_person=True)
    assert person is not None and person.key == "father"


def test_my_child_with_an_age_is_still_my_child() -> None:
    person = person_of("con toi 8 tuoi 25kg thi sao", about_a_person=True)
    assert person is not None and person.key == "child"


# --- medical terms that fold onto a child word -------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["con viem be than thi sao", "nguoi lon viem than be than uong bao nhieu"])
def test_the_renal_pelvis_typed_without_diacritics_is_no_child(typed: str) -> None:
    assert extract_slots(typed).population != "pediatric"
    assert person_of(typed) is None or person_of(typed).key != "child"  # type: ignore[union-attr]


def test_a_childs_temperature_is_a_child() -> None:
    assert extract_slots("be than nhiet 39 do").population == "pediatric"


def test_atrial_fibrillation_typed_without_diacritics_is_no_paediatric_word() -> None:
    assert extract_slots("benh nhan rung nhi").population == "adult"


# --- the indication a follow-up names ------------------------------------------------------------------------------

BOOK = ["Người lớn: Viêm phổi nặng: 1 g/lần. Viêm thận – bể thận: 500 mg/lần. Bệnh Kawasaki: trong giai đoạn "
        "dưỡng bệnh 3 mg/kg."]


@pytest.mark.parametrize(("typed", "indication"), [
    ("con viem phoi nang thi sao", "viem phoi nang"),
    ("còn viêm bể thận thì sao?", "viêm bể thận"),
    ("con ngua mat thi sao", "ngua mat"),  # a symptom, whatever the texts at hand say
])
def test_a_follow_up_naming_an_indication_the_book_states_names_it(typed: str, indication: str) -> None:
    assert follow_up_indication(typed, BOOK) == indication


@pytest.mark.parametrize("typed", [
    "còn thằng lớn thì sao",  # a person
    "còn gì nữa không",
    "còn bệnh lạ kia thì sao",  # words the book does not use
    "hết sốt rồi, giai đoạn dưỡng bệnh thì sao",  # a phase of the same illness
    "còn nặng thì sao",  # a grade of the same illness
    "còn bé 5 tuổi 18 kg thì sao",
])
def test_a_follow_up_naming_no_new_indication_names_none(typed: str) -> None:
    assert follow_up_indication(typed, BOOK) is None


def test_a_spelling_of_the_book_typed_without_diacritics_is_kept_whole() -> None:
    assert dose_indication("con may day man tinh thi sao", []) == "may day man tinh"
