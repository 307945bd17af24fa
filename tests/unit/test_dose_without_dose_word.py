"""A drug, whom it is for and how it is taken, with no dose word, asks the dose (H22 class 1)."""

from __future__ import annotations

import pytest

from retrieval.section_router import route_section
from retrieval.service import RetrievalService
from states.frame import QueryFrame
from states.person import person_of
from states.rules_understander import RulesUnderstander
from states.slots import extract_slots
from tests.unit.formulary_names import fixture_index
from tests.unit.understanding_kit import RESOLVER

# With the monographs' text, as the engine runs it: an indication is checked against the drug's dosage section.
_RULES = RulesUnderstander(RetrievalService(fixture_index()).names)


def understand(text: str) -> QueryFrame:
    return _RULES.parse(text, RESOLVER.resolve(text))


@pytest.mark.parametrize("text", [
    "paracetamol cho con",
    "cho em hỏi ibuprofen cho bé uống",
    "mình hỏi chút, ibuprofen cho bé uống",
    "metronidazol uống cho con bị lỵ amip",
    "amoxicilin cho bé bị viêm tai giữa",
])
def test_a_drug_for_a_child_is_a_dose_question_that_asks_age_and_weight(text: str) -> None:
    f = understand(text)
    assert (f.turn_type, f.section_key, f.population) == ("dosing_calc", "lieu_luong_cach_dung", "pediatric")
    assert f.age_months is None and f.weight_kg is None


def test_an_adult_with_a_route_and_an_indication_of_the_book_is_that_indications_dose() -> None:
    f = understand("ciprofloxacin uống cho người lớn viêm thận bể thận")
    assert (f.turn_type, f.population, f.route) == ("dosing_calc", "adult", "oral")
    assert f.condition == "viêm thận bể thận"


def test_an_adult_without_a_route_is_not_read_as_a_dose() -> None:
    # "ibuprofen cho người lớn" may ask whether adults take it at all: no dose is guessed.
    assert understand("ibuprofen cho người lớn").turn_type != "dosing_calc"


@pytest.mark.parametrize("text", [
    "paracetamol cho bé uống được không",
    "ibuprofen cho bé ngủ ngon",
    "paracetamol cho bé uống chung với ibuprofen",
])
def test_other_words_asking_something_else_keep_the_turn_off_the_dose_path(text: str) -> None:
    assert understand(text).turn_type != "dosing_calc"


def test_cho_con_is_the_child_but_cho_con_bu_is_the_nursing_mother() -> None:
    assert extract_slots("ibuprofen cho con").population == "pediatric"
    assert person_of("ibuprofen cho con") is not None
    assert extract_slots("đang cho con bú uống cetirizin được không").population == "adult"
    assert understand("metronidazol đang cho con bú dùng được không").section_key == "thoi_ky_cho_con_bu"


def test_anaerobic_is_no_clash_between_drugs() -> None:
    route = route_section("metronidazol uống người lớn nhiễm khuẩn kỵ khí")
    assert route is None or route.key != "tuong_tac_thuoc"
    assert route_section("metronidazol kỵ rượu không").key == "tuong_tac_thuoc"  # type: ignore[union-attr]


def test_asking_is_not_describing_oneself() -> None:
    person = person_of("mình hỏi chút, ibuprofen cho bé uống")
    assert person is not None and person.key == "child"


def test_whether_a_pregnant_woman_may_take_a_named_regimen_is_the_pregnancy_section() -> None:
    f = understand("bà bầu bị trichomonas uống metronidazol 2g liều duy nhất được không")
    assert (f.turn_type, f.section_key) == ("drug_attribute", "thoi_ky_mang_thai")
    # An amount asked is still the dose question (the dose path states the pregnancy lines first).
    assert understand("bà bầu uống paracetamol liều bao nhiêu được không").section_key == "lieu_luong_cach_dung"


@pytest.mark.parametrize("text", ["cetirizin cho bé uống buồn ngủ không", "ibuprofen cho bé uống với sữa"])
def test_how_to_take_it_or_a_yes_no_question_is_not_a_dose(text: str) -> None:
    assert understand(text).turn_type != "dosing_calc"
