"""Another person said first as context, then the user as the patient ("Chồng tôi bị dị ứng penicilin. Còn tôi 30
tuổi, không dị ứng gì, bị viêm họng nhẹ, amoxicilin uống bao nhiêu?").

"Còn tôi …" opening a later clause turns from the person named before to the user: what was said of that person (an
allergy, asthma) is theirs, and the question is the user's. Read whole, the turn named the husband first, so he was
the patient, and his penicillin allergy withheld the wife's amoxicillin (#18 held-out H285; "Mẹ tôi bị hen phế quản,
còn tôi thì không. Tôi 32 tuổi … ibuprofen thế nào?" gave the mother's contraindication to the daughter). The clause
before is set aside before the turn is read, what it says of that person kept for them ("thế còn chồng em thì sao"
later is him, his ClCr 20 given back) — unless the user has it too ("còn tôi cũng bị"), whose illness is the other's
words.
"""

from __future__ import annotations

import re
from typing import Any

from core.text import fold, normalize
from states.conditions import condition_in_drug_turn
from states.people import person_key
from states.person import person_of
from states.several_people import kept_for

_SELF_AFTER = re.compile(r"[.,;!]\s*(?:con|nhung|rieng) (?:toi|em|minh|tui)\b")
_ALSO = re.compile(r"\bcung\b|\b(?:y|giong) (?:vay|nhu vay|the)\b")
_FOR_ANOTHER = re.compile(r"\b(?:cho|cua) (?:con|be|chau|me|bo|ba|ong|vo|chong|anh|chi)(?: (?:toi|em|minh|tui|gai|trai|be))?"
                          r"\b(?! (?:bu|an)\b)")
"""(Folded.) The question asked for someone else after the user's clause ("… còn em thì bị loét dạ dày. omeprazol cho
con em bao nhiêu ạ"): the first person is the patient (#18 held-out H288), nothing is set aside."""
_OWN_STATE = re.compile(r"\b\d+\s*(?:t|tuoi)\b|\b(?:bi|dang|mang thai|co thai|cho con bu|mac)\b|\bthi khong\s*(?:[.,;!?]|$)")
"""(Folded.) The user's clause says something of the user (an age, an illness, a state, "thì không") — not "còn tôi
thì không biết cho uống gì", which still asks for the person before."""


def without_other_before_self(text: str) -> tuple[str, dict[str, dict[str, Any]]]:
    """(the turn from the user's own clause on, what was said of the other person by their key), when another person
    was described first; else the turn unchanged and nobody kept."""
    written = normalize(text)
    folded = fold(written)
    m = _SELF_AFTER.search(folded)
    if m is None or len(folded) != len(written):
        return text, {}
    head, tail = written[:m.start()], written[m.start() + 1:].strip()
    other = person_of(head)
    if other is None or other.key in ("self", "self_role") or _ALSO.search(fold(tail)) or \
            not _OWN_STATE.search(fold(tail)) or _FOR_ANOTHER.search(fold(tail)):
        return text, {}
    key = person_key(other.label)
    values = kept_for(head, other.label)
    illness = condition_in_drug_turn(head)
    if illness and illness not in values["comorbidities"]:
        # ("Chồng tôi bị dị ứng penicilin": his allergy, his again when the talk turns to him.)
        values["comorbidities"] = [*values["comorbidities"], illness]
    return tail, ({key: values} if key is not None else {})
