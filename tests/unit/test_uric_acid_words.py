"""'acid uric' / 'axit uric' is a condition word (issue #18): never aspirin's title shortened ("acid" of "acid
acetylsalicylic"), never an unknown drug name; its spellings find the book's "tăng acid uric huyết"."""

from __future__ import annotations

import pytest

from states.conditions import condition_spellings
from tests.unit.understanding_kit import RESOLVER, fixture_engine, understand


@pytest.mark.parametrize("text", [
    "tăng acid uric máu", "Acid uric cao uống thuốc gì", "axit uric 9 mg/dl", "sỏi thận acid uric", "acid uric",
])
def test_uric_acid_names_no_drug_and_no_unknown_drug(text: str) -> None:
    resolved = RESOLVER.resolve(text)
    assert resolved.drug_ids == [] and resolved.unknown == []


def test_a_whole_first_word_of_a_longer_name_is_not_its_shorthand() -> None:
    assert RESOLVER.resolve("acid folic liều bao nhiêu").drug_ids == []
    assert RESOLVER.resolve("acid acetylsalicylic liều bao nhiêu").drug_ids == ["acid_acetylsalicylic"]
    assert RESOLVER.resolve("para cho bé").drug_ids == ["paracetamol"]  # shorthand of a one-word name still reads


def test_a_named_drug_beside_uric_acid_is_that_drug_only() -> None:
    frame = understand("acid uric cao uống aspirin được không")
    assert frame.drugs == ["acid_acetylsalicylic"] and frame.unknown_drugs == []


@pytest.mark.parametrize(("asked", "book"), [
    ("tăng acid uric máu", "tang acid uric huyet"),
    ("axit uric cao", "tang acid uric huyet"),
    ("sỏi thận axit uric", "soi than acid uric"),
])
def test_users_spellings_find_the_books(asked: str, book: str) -> None:
    assert book in condition_spellings(asked)


def test_a_which_drug_question_about_high_uric_acid_lists_allopurinol_not_aspirin() -> None:
    reply = fixture_engine().handle("người bị acid uric cao dùng thuốc gì", None)
    assert reply.outcome == "answerable"
    assert "Allopurinol" in reply.reply and "Acid acetylsalicylic" not in reply.reply
