"""Another person said first as context, then the user as the patient ("Chồng tôi bị dị ứng penicilin. Còn tôi 30
tuổi, không dị ứng gì, bị viêm họng nhẹ, amoxicilin uống bao nhiêu?").

"Còn tôi …" opening a later clause turns from the person named before to the user: what was said of that person (an
allergy, asthma) is theirs, and the question is the user's. Read whole, the turn named the husband first, so he was
the patient, and his penicillin allergy withheld the wife's amoxicillin (#18 held-out H285; "Mẹ tôi bị hen phế quản,
còn tôi thì không. Tôi 32 tuổi … ibuprofen thế nào?" gave the mother's contraindication to the daughter). The clause
before is set aside before the turn is read — unless the user has it too ("còn tôi cũng bị"), whose illness is the
other's words.
"""

from __future__ import annotations

import re

from core.text import fold, normalize
from states.person import person_of

_SELF_AFTER = re.compile(r"[.,;!]\s*(?:con|nhung|rieng) (?:toi|em|minh|tui)\b")
_ALSO = re.compile(r"\bcung\b|\b(?:y|giong) (?:vay|nhu vay|the)\b")
_OWN_STATE = re.compile(r"\b\d+\s*(?:t|tuoi)\b|\b(?:bi|dang|mang thai|co thai|cho con bu|mac)\b|\bthi khong\s*(?:[.,;!?]|$)")
"""(Folded.) The user's clause says something of the user (an age, an illness, a state, "thì không") — not "còn tôi
thì không biết cho uống gì", which still asks for the person before."""


def without_other_before_self(text: str) -> str:
    """The turn from the user's own clause on, when another person was described first; else unchanged."""
    written = normalize(text)
    folded = fold(written)
    m = _SELF_AFTER.search(folded)
    if m is None or len(folded) != len(written):
        return text
    head, tail = written[:m.start()], written[m.start() + 1:].strip()
    other = person_of(head)
    if other is None or other.key in ("self", "self_role") or _ALSO.search(fold(tail)) or \
            not _OWN_STATE.search(fold(tail)):
        return text
    return tail
