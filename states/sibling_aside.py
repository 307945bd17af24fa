"""A correction that names who the other child is ("à e nhầm, bé 6 tuổi 20kg, đứa 3 tuổi là em nó").

The turn corrects the patient and, in the same breath, says that the age given before was a sibling's. Read whole,
it held two ages (the engine asks for one person at a time) and "em nó" was taken for a new patient (#18 held-out
H181). The aside says who someone else is; it asks nothing about them, so it is set aside before the turn is read —
only when the turn also states the patient's own age, so a turn about the sibling alone is never emptied.
"""

from __future__ import annotations

import re

from core.text import fold, normalize

_ASIDE = re.compile(r"[,;.]?\s*\b(?:dua|be|con|thang|con be|chau)\s+\d+(?:[.,]\d+)?\s*(?:tuoi|thang)\s+"
                    r"(?:la|thi la|moi la)\s+(?:em|anh|chi|em gai|em trai|anh trai|chi gai)(?:\s+(?:no|be|chau|cua no))?\b")
_OWN_AGE = re.compile(r"\b\d+(?:[.,]\d+)?\s*(?:tuoi|thang)\b")


def without_sibling_aside(text: str) -> str:
    written = normalize(text)
    folded = fold(written)
    m = _ASIDE.search(folded)
    if m is None or len(folded) != len(written) or not _OWN_AGE.search(folded[:m.start()] + folded[m.end():]):
        return text
    return (written[:m.start()] + written[m.end():]).strip()
