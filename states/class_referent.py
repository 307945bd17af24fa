"""A drug named back by its class: "cái statin kia", "thuốc nấm đó", "thuốc động kinh đó".

The user points at a drug of the conversation by the kind of drug it is, with a demonstrative. The monographs' own
class lines ("Loại thuốc: Thuốc hạ lipid máu nhóm statin") say which drug of the conversation that is; when exactly one
has a class line holding every word the user gave, that drug is meant. Otherwise nothing is resolved (the words are
then read as they were before: an unknown name, or nothing).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.text import fold
from retrieval.names import NameBook

_POINTED = re.compile(r"\b(?:thuoc|cai|loai|vien)\s+((?:[a-z0-9]+\s+){0,3}?[a-z0-9]+)\s+(?:do|kia|nay|ay|vua roi|luc nay)\b")
_NOT_A_CLASS_WORD = frozenset({"uong", "dung", "tiem", "thuoc", "cua", "cho", "be", "me", "bo", "ong", "ba", "em", "anh",
                               "chi", "con", "no", "vien", "goi", "lieu"})


def class_referent(text: str, drugs: Sequence[str], names: NameBook) -> tuple[str, str, tuple[int, int]] | None:
    """(drug_id, the class words as folded, the span of the class words in `text`) when the turn points at one drug of
    `drugs` by its class; None otherwise."""
    folded = fold(text)
    for m in _POINTED.finditer(folded):
        words = [w for w in m.group(1).split() if w not in _NOT_A_CLASS_WORD]
        if not words:
            continue
        owners = []
        for drug_id in drugs:
            entry = names.entry(drug_id)
            classes = " ".join(fold(c) for c in entry.classes) if entry is not None else ""
            if all(re.search(rf"\b{re.escape(w)}\b", classes) for w in words):
                owners.append(drug_id)
        if len(owners) == 1:
            return owners[0], m.group(1), m.span(1)
    return None
