"""Children's nicknames are a child (states.nicknames, issue #18): not an animal, not a drug the formulary lacks;
a brand after "cho bé" stays a drug, a parent named through the child stays the parent."""

from __future__ import annotations

import pytest

from retrieval.resolver import ResolverResult
from states.nicknames import as_small_child, nicknames_in, without_nickname_names
from tests.unit.understanding_kit import RESOLVER, understand


@pytest.mark.parametrize(("text", "names"), [
    ("bé Mimi 3 tuổi", ["Mimi"]),
    ("cu Tony nhà em", ["Tony"]),
    ("con bé Na bị ho", ["Na"]),
    ("thằng Tèo 4 tuổi", ["Tèo"]),
    ("cho bé Tylenol được không", []),
    ("bé ĐTĐ type 1", []),
])
def test_a_capitalised_name_after_a_child_word_is_a_nickname(text: str, names: list[str]) -> None:
    assert nicknames_in(text) == names


def test_a_nickname_is_not_an_unknown_drug_but_a_real_unknown_name_stays() -> None:
    result = ResolverResult(unknown=["Mimi", "Tamiflu"])
    assert without_nickname_names(result, "bé Mimi uống Tamiflu được không").unknown == ["Tamiflu"]


def test_a_nickname_from_an_earlier_turn_is_not_an_unknown_drug() -> None:
    result = ResolverResult(unknown=["Kitty"])
    assert without_nickname_names(result, "Kitty uống gì", ["Người dùng: con bé Kitty nhà em 4 tuổi"]).unknown == []


@pytest.mark.parametrize(("text", "written"), [
    ("thằng cu nhà em sốt", "bé nhà em sốt"),
    ("cu Tí uống ibuprofen", "bé uống ibuprofen"),
    ("con bé Na uống gì", "con bé uống gì"),
    ("bố thằng Bin thì sao", "bố thằng Bin thì sao"),
])
def test_the_rules_read_a_small_boy_or_girl_as_be(text: str, written: str) -> None:
    assert as_small_child(text) == written


def test_a_brand_the_resolver_reads_after_be_stays_a_drug() -> None:
    spans = [c.span for c in RESOLVER.resolve("cho bé Hapacol 250 được không").candidates]
    assert as_small_child("cho bé Hapacol 250 được không", spans) == "cho bé Hapacol 250 được không"


@pytest.mark.parametrize("text", ["thằng cu uống ibuprofen bao nhiêu", "cu Tí uống ibuprofen liều bao nhiêu"])
def test_a_small_boys_dose_question_is_paediatric(text: str) -> None:
    frame = understand(text)
    assert frame.population == "pediatric" and frame.drugs == ["ibuprofen"] and not frame.non_human
