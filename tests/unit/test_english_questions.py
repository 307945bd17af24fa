"""English questions about a formulary drug (states.english, issue #18): read as their Vietnamese twin would be —
ages, creatinine clearance, routes — or, when they cannot be read, a request to ask in Vietnamese; never
"what about this drug?" (missing_attribute)."""

from __future__ import annotations

import pytest

from states.english import ENGLISH_ONLY, as_vietnamese_slots, english_patient, english_sentence, looks_english
from tests.unit.understanding_kit import fixture_engine, understand


@pytest.mark.parametrize(("folded", "months", "population"), [
    ("can my 2 year old take aspirin", 24, "pediatric"),
    ("ibuprofen dose for my 5-year-old", 60, "pediatric"),
    ("grandma is 70, how much cetirizine", 840, "adult"),
    ("i am 30 and pregnant", 360, "adult"),
])
def test_an_age_said_in_english_is_read(folded: str, months: float, population: str) -> None:
    patient = english_patient(folded)
    assert (patient["age_months"], patient["population"]) == (months, population)


def test_a_creatinine_clearance_is_no_age() -> None:
    assert "age_months" not in english_patient(as_vietnamese_slots("her creatinine clearance is 40"))


@pytest.mark.parametrize(("text", "route", "renal"), [
    ("how much paracetamol for adults by mouth", "oral", None),
    ("ceftriaxone dose for adults IV", "iv", None),
    ("paracetamol dose for adults with creatinine clearance 20", None, "clcr 20 ml/phut"),
])
def test_routes_and_clearance_said_in_english_fill_the_slots(text: str, route: str | None,
                                                             renal: str | None) -> None:
    frame = understand(text)
    assert frame.turn_type == "dosing_calc" and frame.population == "adult"
    assert frame.route == route
    assert (frame.renal is None) == (renal is None)


def test_a_kin_word_makes_the_patient_an_adult() -> None:
    assert understand("how much cetirizine for my grandma").population == "adult"


def test_can_my_child_take_it_with_an_age_is_a_dose_question_that_asks_the_weight() -> None:
    reply = fixture_engine().handle("can my 2 year old take ibuprofen", None)
    assert (reply.outcome, reply.reason) == ("clarify", "missing_pediatric_age_or_weight")
    assert "2 tuổi" in reply.reply


def test_a_child_whose_age_the_book_excludes_gets_the_exclusion_not_a_weight_question() -> None:
    # The fixture's aspirin: "Không dùng cho trẻ em dưới 16 tuổi để giảm đau, hạ sốt" — the weight changes nothing.
    reply = fixture_engine().handle("can my 2 year old take aspirin", None)
    assert reply.outcome == "answerable"
    assert "dưới 16 tuổi" in reply.reply and "mg/kg" not in reply.reply


@pytest.mark.parametrize("text", [
    "what is the weather in hanoi about paracetamol lol stuff",
    "paracetamol blah blah something random words",
])
def test_an_english_turn_that_cannot_be_read_asks_for_vietnamese_never_missing_attribute(text: str) -> None:
    frame = understand(text)
    if frame.clarify_reason != ENGLISH_ONLY:
        assert frame.turn_type != "drug_attribute" or frame.section_key is not None
    reply = fixture_engine().handle(text, None)
    assert reply.reason != "missing_attribute"


def test_an_english_medicine_question_without_a_formulary_drug_asks_for_vietnamese() -> None:
    reply = fixture_engine().handle("what medicine should my baby take for a cold", None)
    assert reply.outcome == "clarify" and "tiếng Việt" in reply.reply


@pytest.mark.parametrize("text", ["be 5 tuoi 18kg", "lieu paracetamol cho be 5 tuoi 18 kg", "uong bn vien"])
def test_vietnamese_typed_without_diacritics_is_not_english(text: str) -> None:
    assert not english_sentence(text, text)
    assert not looks_english(text, text, ignore=("paracetamol",))


def test_two_peoples_ages_give_neither_age() -> None:
    patient = english_patient("i am 30 and my son is 5, how much ibuprofen for him")
    assert "age_months" not in patient and patient.get("population") == "pediatric"


def test_stage_iv_is_not_the_iv_route() -> None:
    assert "tiem tinh mach" not in as_vietnamese_slots("stage iv cancer pain, paracetamol dose")


@pytest.mark.parametrize("folded", ["im 30 and pregnant, can i take paracetamol", "im worried about my son"])
def test_im_meaning_i_am_is_no_route(folded: str) -> None:
    assert "tiem bap" not in as_vietnamese_slots(folded)


def test_im_given_as_a_route_is_intramuscular() -> None:
    assert "tiem bap" in as_vietnamese_slots("ceftriaxone 1 g given im for adults")


@pytest.mark.parametrize(("folded", "answer"), [("he is 65", True), ("she's 5 years old", True),
                                                ("he is 65 and has kidney failure", False)])
def test_a_short_english_age_reply_is_an_answer(folded: str, answer: bool) -> None:
    from states.english import english_age_answer

    assert english_age_answer(folded) is answer
