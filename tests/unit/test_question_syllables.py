"""The one-syllable question words as written (core.vocabulary): what a turn typed with diacritics may strip."""

from __future__ import annotations

import re

import pytest

from core.text import fold
from core.vocabulary import QUESTION_SYLLABLES_AS_WRITTEN, is_question_syllable

# One Vietnamese syllable, or a unit/abbreviation: at most one vowel group, no glued pair of words ("bạngiúp").
_ONE_SYLLABLE = re.compile(r"[^aeiouy]*[aeiouy]*[^aeiouy]*")


def test_every_entry_is_one_syllable() -> None:
    glued = sorted(w for w in QUESTION_SYLLABLES_AS_WRITTEN
                   if w not in {"pound", "pounds", "siro"} and not _ONE_SYLLABLE.fullmatch(fold(w)))
    assert not glued, f"entries that are two words run together (a missing space in the source string): {glued}"


@pytest.mark.parametrize("word", ["bạn", "giúp", "tháng", "tuần", "rưỡi", "một", "làm", "sau"])
def test_question_words_at_the_joins_of_the_list_are_present(word: str) -> None:
    assert is_question_syllable(word, folded_turn=False)


@pytest.mark.parametrize("word", ["não", "cơn", "nấm", "cơ", "sâu"])
def test_disease_syllables_are_not_question_words_when_typed_with_diacritics(word: str) -> None:
    assert not is_question_syllable(word, folded_turn=False)
    assert is_question_syllable(fold(word), folded_turn=True)
