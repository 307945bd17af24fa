"""A lead-in that names several indications at once, and the patients a qualifier inside it is for.

The book often doses two diseases on one line: "Nhiễm HSV (trừ viêm não - màng não) và VZV ở người có khả năng miễn
dịch: 250 mg/m2", "Viêm não - màng não HSV hoặc nhiễm VZV nặng ở trẻ suy giảm miễn dịch: 500 mg/m2". A question
naming one of them ("thủy đậu", a VZV infection) names that lead-in; read as one phrase, the lead-in's other words
(HSV, the immune status) kept it from matching, and a newborn's "Nhiễm VZV:" of another age band was taken instead.

The immune status a lead-in names ("ở người có khả năng miễn dịch", "ở trẻ suy giảm miễn dịch") is the patient, not
the disease: it is read as patient context (core.dosage.immune), never as indication words. Where it is written
inside one alternative only ("… hoặc nhiễm VZV nặng ở trẻ suy giảm miễn dịch"), it is that alternative's: the
encephalitis before "hoặc" is any child's.
"""

from __future__ import annotations

import re

from core.text import fold

_WHOM = r"(?:ở|cho|với|trên) (?:người bệnh|người|trẻ em|trẻ|bệnh nhân|bệnh nhi) (?:bị |có |đã )?"
_QUALIFIER = (
    rf"(?:{_WHOM})?(?:có khả năng miễn dịch|(?:khả năng )?miễn dịch bình thường|không (?:bị )?suy giảm miễn dịch)"
    rf"|{_WHOM}(?:suy giảm|ức chế) miễn dịch"
)
IMMUNE_QUALIFIER = re.compile(rf"\b(?:{_QUALIFIER})\b")
"""(Lowercase, with diacritics.) An immune status named as whom a line is for; a bare "suy giảm miễn dịch" is left
alone (it may be what a drug treats)."""
IMMUNE_QUALIFIER_FOLDED = re.compile(rf"\b(?:{fold(_QUALIFIER)})\b")

_AND_OR = re.compile(r",|;|\s+hoặc\s+|\s+hoac\s+")
_AND_OR_AND = re.compile(r",|;|\s+hoặc\s+|\s+hoac\s+|\s+và\s+|\s+va\s+")


def alternatives(label: str, *, joined_by_and: bool = True) -> list[str]:
    """The parts of a lead-in joined by ",", "hoặc" (and "và" when `joined_by_and`), outside brackets, as written:
    "Nhiễm HSV (trừ viêm não - màng não) và VZV ở người …" → ["Nhiễm HSV (trừ viêm não - màng não)", "VZV ở người …"].
    A qualifier after the last part ("ở người có khả năng miễn dịch") stays with it; callers that read the patient
    from it split without "và", where a qualifier is read as the whole noun phrase's ("HSV và VZV ở người …")."""
    pattern = _AND_OR_AND if joined_by_and else _AND_OR
    parts: list[str] = []
    depth, start = 0, 0
    i = 0
    while i < len(label):
        ch = label[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(depth - 1, 0)
        elif depth == 0 and not (ch == "," and 0 < i < len(label) - 1 and label[i - 1].isdigit()
                                 and label[i + 1].isdigit()):  # a decimal comma ("2,5 kg") joins nothing
            m = pattern.match(label, i)
            if m is not None and m.end() > i:
                parts.append(label[start:i])
                start = i = m.end()
                continue
        i += 1
    parts.append(label[start:])
    return [p.strip() for p in parts if p.strip()]
