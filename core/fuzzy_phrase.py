"""Fuzzy "the text states this phrase", for hits of the dense fallback (typos, run-together words).

Spaces are removed from both sides, so "tanghuyetap" is found in "… tăng huyết áp …"; rapidfuzz's
partial_ratio (best-aligned substring, 0-100) must reach FUZZY_PHRASE_MIN. Deterministic: no model involved.
"""

from __future__ import annotations

from rapidfuzz import fuzz

from core.text import fold

FUZZY_PHRASE_MIN = 90
"""A typo or two in a condition name passes; a different word of similar letters does not."""


def fuzzy_states(text: str, phrase: str) -> bool:
    """The folded phrase, spaces removed, nearly verbatim in the folded text, spaces removed."""
    squeezed = fold(phrase).replace(" ", "")
    if not squeezed:
        return False
    return fuzz.partial_ratio(squeezed, fold(text).replace(" ", "")) >= FUZZY_PHRASE_MIN
