"""Immune status as patient context, as renal impairment is.

A line the book gives for immunocompromised patients ("Ở người suy giảm miễn dịch: 10 mg/kg/lần") is for a patient
who said so; a line for immunocompetent patients ("ở người có khả năng miễn dịch") is not an immunocompromised
patient's. A status written inside one of the indications a lead-in names ("Viêm não - màng não HSV hoặc nhiễm VZV
nặng ở trẻ suy giảm miễn dịch: 500 mg/m2") is that indication's only: the encephalitis is any child's — withheld
from a child whose immune status was not stated, the encephalitis dose was never shown (core.dosage.alternatives).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from core.dosage.alternatives import alternatives
from core.dosage.indication import FULL, match_score
from core.text import fold

_COMPROMISED = re.compile(r"\b(suy giam mien dich|uc che mien dich)\b")
_COMPETENT = re.compile(r"\b(co kha nang mien dich|mien dich binh thuong|khong suy giam mien dich)\b")

ImmuneGroup = Literal["compromised", "competent"]


def immune_group(text: str) -> ImmuneGroup | None:
    """"compromised"/"competent" when the text names one immune status and not the other."""
    folded = fold(text)
    competent = _COMPETENT.search(folded) is not None
    compromised = _COMPROMISED.search(_COMPETENT.sub(" ", folded)) is not None
    if compromised and not competent:
        return "compromised"
    if competent and not compromised:
        return "competent"
    return None


def immune_admits(text: str, labels: Sequence[str], immunocompromised: bool | None, indication: str | None) -> bool:
    """Does a line (`text`: its path and its own words; `labels`: its indication lead-ins, innermost last) admit a
    patient of this immune status (None: not stated) asking for this indication (None: none named)?"""
    group = immune_group(text)
    if group == "competent":
        return immunocompromised is not True
    if group != "compromised" or immunocompromised is True:
        return True
    # A line for immunocompromised patients, and the patient did not say they are: theirs only through an indication
    # its lead-in names without that status — the one they asked for, or any when they named none (each line is then
    # shown with its lead-in).
    free = _unqualified(labels[-1]) if labels else []
    if not free or immune_group(text.replace(labels[-1], " ")) == "compromised":
        return False  # (the status named elsewhere too, in a lead-in above or the line's own words: the whole line's)
    return indication is None or any(match_score(indication, [part]) >= FULL for part in free)


def _unqualified(label: str) -> list[str]:
    """The indications of a lead-in naming several, written without an immunocompromised status, when another of
    them has one ("Viêm não - màng não HSV" of "… hoặc nhiễm VZV nặng ở trẻ suy giảm miễn dịch"); [] otherwise."""
    parts = alternatives(label, joined_by_and=False)
    free = [part for part in parts if immune_group(part) != "compromised"]
    return free if 0 < len(free) < len(parts) else []
