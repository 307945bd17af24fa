"""A real drug the formulary has no monograph for is named back as not in the formulary: never matched to a formulary
neighbour (a wrong drug's answer), never out of scope because its name has no INN-like suffix."""

from __future__ import annotations

import pytest

from core.corpus import DrugNames
from core.inn_names import INN_NAMES
from core.text import fold
from retrieval.resolver import DrugResolver, is_vietnamese_word, spelling_key
from tests.unit.formulary_names import fixture_drugs
from tests.unit.understanding_kit import understand

RESOLVER = DrugResolver(fixture_drugs())
FIXTURE_SPELLINGS = {spelling_key(fold(n)) for d in fixture_drugs() for n in d.all_names()}


def test_the_list_holds_a_few_hundred_folded_names_none_an_ordinary_word() -> None:
    assert len(INN_NAMES) >= 300 and len(set(INN_NAMES)) == len(INN_NAMES)
    for name in INN_NAMES:
        assert name == fold(name) and name.strip() == name, name
        assert not (" " not in name and is_vietnamese_word(name)), name


@pytest.mark.parametrize("name", [n for n in INN_NAMES if spelling_key(n) not in FIXTURE_SPELLINGS])
def test_every_listed_drug_the_fixture_lacks_is_unknown_in_a_question(name: str) -> None:
    result = RESOLVER.resolve(f"{name} liều bao nhiêu cho người lớn")
    assert result.candidates == [] and [fold(u) for u in result.unknown] == [name]


@pytest.mark.parametrize(("text", "unknown", "not_matched"), [
    ("esomeprazol uống trước hay sau ăn", "esomeprazol", "omeprazol"),
    ("Acid folic cho bà bầu uống bao nhiêu", "Acid folic", "acid_acetylsalicylic"),
    ("acid valproic liều bao nhiêu", "acid valproic", "acid_acetylsalicylic"),
    ("isosorbid mononitrat liều bao nhiêu", "isosorbid mononitrat", "isosorbid_dinitrat"),
    ("levocetirizin cho bé", "levocetirizin", "cetirizin"),
])
def test_a_formulary_neighbour_is_never_matched_for_a_real_drug(text: str, unknown: str, not_matched: str) -> None:
    result = RESOLVER.resolve(text)
    assert result.unknown == [unknown]
    assert not_matched not in result.drug_ids


@pytest.mark.parametrize(("text", "drug_id"), [
    ("Omeprazole liều bao nhiêu", "omeprazol"),  # the international spelling of a formulary drug is that drug
    ("allopurinol uống sau ăn không", "allopurinol"),  # listed, and in the formulary: the formulary wins
    ("amoxicillin cho bé", "amoxicilin"),
])
def test_the_formulary_names_win_over_the_list(text: str, drug_id: str) -> None:
    result = RESOLVER.resolve(text)
    assert result.drug_ids == [drug_id] and result.unknown == []


def test_a_formulary_that_has_a_listed_drug_under_another_spelling_keeps_it() -> None:
    resolver = DrugResolver([DrugNames(drug_id="aciclovir", name="Aciclovir", aliases=("acyclovir",))])
    assert resolver.resolve("aciclovir liều bao nhiêu").drug_ids == ["aciclovir"]
    assert resolver.resolve("valaciclovir liều bao nhiêu").unknown == ["valaciclovir"]


def test_unknown_names_are_listed_in_the_order_the_turn_names_them() -> None:
    assert RESOLVER.resolve("rivaroxaban với Xyzdrugvir dùng chung được không").unknown == ["rivaroxaban", "Xyzdrugvir"]


def test_words_the_book_uses_for_conditions_are_not_listed_drugs() -> None:
    assert RESOLVER.resolve("đái tháo đường phụ thuộc insulin dùng thuốc gì").unknown == []


def test_a_known_drug_without_a_drug_suffix_is_a_drug_question_not_out_of_scope() -> None:
    frame = understand("colchicin nguoi lon uong may vien")
    assert frame.drugs == [] and frame.unknown_drugs == ["colchicin"] and frame.turn_type == "dosing_calc"


def test_a_listed_drug_inside_the_condition_of_a_which_drug_question_is_a_word_of_the_condition() -> None:
    frame = understand("Thiếu máu do thiếu acid folic thì dùng thuốc gì?")
    assert frame.turn_type == "condition_to_drug" and frame.unknown_drugs == []
    assert "acid folic" in (frame.condition or "")
