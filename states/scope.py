"""Deterministic scope checks that run before any conversational clarify."""

from __future__ import annotations

import re

from retrieval.text import fold

# Row 1 of the routing table: a non-human subject is out of scope (veterinary use), decided before any clarify so
# such a request never looks recoverable. With diacritics the animal words are unambiguous ...
_ANIMAL_WORDS = re.compile(
    r"(?<!\w)(chó|mèo|thú cưng|gia súc|gia cầm|heo|lợn|trâu|bò|ngựa|gà|vịt|cún|thú y|vật nuôi|cá cảnh|"
    r"hamster|thỏ|dê|cừu)(?!\w)",
    re.IGNORECASE,
)
# ... but folded, "cho" is also the preposition "for" and "ga", "bo", "lon" are ordinary words; so text typed
# without diacritics counts only in unambiguous contexts.
_FOLDED_ANIMAL = re.compile(
    r"\b(con cho|chu cho|cho con|cho nha|cho cua toi|cho toi bi|cho bi|cho cho|"
    r"con meo|meo|thu cung|gia suc|gia cam|con heo|con lon|con ga|dan ga|con bo|con trau|con ngua|vat nuoi|thu y|"
    r"cun|hamster|ca canh|dog|cat|pet|puppy|kitten|veterinary)\b"
)


def looks_non_human(text: str) -> bool:
    """True when the turn is about an animal patient."""
    if _ANIMAL_WORDS.search(text):
        return True
    # Ambiguity is resolved toward abstaining: a false positive only declines; a false negative could dose an animal.
    return text.isascii() and bool(_FOLDED_ANIMAL.search(fold(text)))
