"""Pregnancy as patient context on the dose path: a line the book gives pregnant women ("Ở phụ nữ mang thai: 15
mg/kg/lần, cách 8 giờ/lần", beside the immunocompetent and immunocompromised lines of aciclovir's VZV infusion) is
for a patient who said she is pregnant, and for her it replaces the other lines of the same lead-ins.

Shown to every adult, the pregnant women's dose (three times the usual one) read as one of theirs; for a pregnant
woman, the usual dose beside hers read as a choice.
"""

from __future__ import annotations

import re

from core.dosage.model import RegimenLine
from core.text import fold

_PREGNANT_WHOM = re.compile(r"^(?:o |doi voi |voi |cho |trong )?(?:phu nu |nguoi |ba me |benh nhan |nguoi benh )?"
                            r"(?:dang )?(?:mang thai|co thai|mang bau|thoi ky mang thai)\b")
_LEAD_IN = re.compile(r"^([^:;.\d]{3,80}):")


def for_pregnancy(line: RegimenLine) -> bool:
    """The line is for pregnant women: a lead-in above it, or its own opening lead-in, names them as whom it is for
    (not an exclusion: "Không dùng cho phụ nữ mang thai" is read as one)."""
    if line.kind == "exclusion":
        return False
    own = _LEAD_IN.match(line.text)
    labels = (*line.path, own.group(1)) if own else line.path
    return any(_PREGNANT_WHOM.match(fold(label).strip()) for label in labels)
