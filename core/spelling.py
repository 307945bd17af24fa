"""One key for the spellings of a drug word: the book writes "alopurinol", users "allopurinol"; "colchicin" and
"colchicine", "cephalexin" and "cefalexin" are the same drug."""

from __future__ import annotations

import re

from core.text import fold

_DOUBLE = re.compile(r"([a-z])\1")
_FINAL_E = re.compile(r"(?<=[bcdfghklmnpqrstvxz])e$")


def spelling_key(word: str) -> str:
    """The folded word with the spelling differences of INN names taken out (final -e, doubled letters, ph/f,
    chl/cl, y/i)."""
    w = fold(word).replace("ph", "f").replace("chl", "cl").replace("y", "i")
    # The Latin "-ium" is the book's "-i" ("lithium" / "lithi", "magnesium" / "magnesi").
    w = re.sub(r"(?<=[a-z]{3})ium$", "i", w)
    return _DOUBLE.sub(r"\1", _FINAL_E.sub("", w))


def same_drug_word(a: str, b: str) -> bool:
    return spelling_key(a) == spelling_key(b)


# One Vietnamese syllable, folded (onset, vowel nucleus, coda): "thuoc", "nguoi", "chong" are words of the language,
# never a drug's name, whatever their length.
_SYLLABLE = re.compile(
    r"^(ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|[bcdghklmnpqrstvx])?"
    r"(uye|uya|oai|oay|oeo|uay|uoi|uou|ieu|yeu|uoc|ai|ao|au|ay|eo|eu|ia|ie|iu|oa|oe|oi|ua|ue|ui|uo|uu|uy|ye|[aeiouy])"
    r"(ng|nh|ch|[cmnpt])?$"
)
MIN_DRUG_WORD = 5


def drug_words(text: str) -> set[str]:
    """The words of a text that can only be drug names (not Vietnamese syllables, five letters or more), as
    spelling keys: "đang uống allopurinol" → {"alopurinol"}."""
    return {spelling_key(w) for w in re.findall(r"[a-z0-9]+", fold(text))
            if len(w) >= MIN_DRUG_WORD and not w.isdigit() and not _SYLLABLE.match(w)}
