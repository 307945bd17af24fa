"""Which inhalation device a line or a question is about: a metered-dose inhaler ("bình xịt định liều", with or
without a spacer) or a nebuliser ("dung dịch khí dung qua máy phun").

The book gives both under one route ("Khí dung"), as sub-labels of the population ("Khí dung – Trẻ em: Bình xịt định
liều (qua buồng đệm): 100–200 mcg … Dung dịch khí dung qua máy phun: 2,5 mg/lần"). A parent who asks how many puffs
from the spacer is asking the inhaler's line; the nebuliser's milligrams beside it read as a second dose for the same
child (#18 held-out H142). "Khí dung" alone names the route, not a device, and decides nothing.
"""

from __future__ import annotations

import re
from typing import Literal

from core.dosage.model import RegimenLine
from core.text import fold

Device = Literal["metered", "nebulizer"]

_METERED = re.compile(r"\b(?:binh xit|xit|buong dem|dinh lieu|nhat)\b")
_NEBULIZER = re.compile(r"\b(?:may phun|xong (?:khi dung|may|thuoc)|phun khi dung|nebuli\w*)\b")


def device_said(text: str) -> Device | None:
    """The one device the question names; None when it names neither or both."""
    folded = fold(text)
    metered, nebulizer = _METERED.search(folded) is not None, _NEBULIZER.search(folded) is not None
    if metered == nebulizer:
        return None
    return "metered" if metered else "nebulizer"


def line_device(line: RegimenLine) -> Device | None:
    """The device the line's own lead-ins name (its path, never its text, which may compare the two)."""
    labels = fold(" ".join(line.path))
    nebulizer = re.search(r"\bmay phun\b", labels) is not None
    metered = re.search(r"\b(?:binh xit|dinh lieu)\b", labels) is not None
    if metered == nebulizer:
        return None
    return "metered" if metered else "nebulizer"


def of_device(lines: list[RegimenLine], device: Device | None) -> list[RegimenLine]:
    """`lines` without those of the other device, when some are of the one asked (otherwise all: a question naming
    a device the book does not dose by is answered with what the book gives, each line labelled)."""
    if device is None or not any(line_device(line) == device for line in lines):
        return lines
    return [line for line in lines if line_device(line) in (None, device)]
