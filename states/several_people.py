"""Several people described in one turn, the question asked for one of them.

"Bé lớn 7 tuổi 22kg, bé nhỏ 3 tuổi 14kg. Cho bé lớn uống paracetamol bao nhiêu 1 lần ạ?", "Giường 5: nam 62t viêm
phổi. Giường 6: bé 2 tuổi 12kg viêm màng não mủ. Ceftriaxon tiêm TM cho giường 6 liều bn?": two ages and two weights
in one turn. Read whole, whose value is whose cannot be known, and the engine asked the user to ask for each person
alone (states.slots.several_values) — #18 held-out H187 found families and wards talk this way. When each person is
described in a clause of their own (a name that picks them out, then their age or weight) and the question names one
of them — by name, or by asking inside that person's own sentence — the turn is read as about that person alone, the
other descriptions set aside; what was said of the others is kept (states.people) for "còn bé nhỏ thì sao". When the
question names none of them, or two, nothing is set aside and the engine asks, as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from core.text import fold, normalize
from states.people import person_key
from states.slots import extract_slots

_LABEL = (r"(?:(?:be|dua|thang|con|chau|chi|anh|em) (?:lon|nho|ut|dau|ca|thu (?:hai|ba|\d+))"
          r"|giuong (?:so )?\d+"
          r"|(?:ong|ba) (?:noi|ngoai)|(?:vo|chong|me|bo|ba|ma|ong|chi|anh)(?: (?:em|toi|minh|no|be))?|em)")
# A person's description: the name, then (within a few words) an age, weight or pregnancy in months.
_DESCRIBED = re.compile(rf"(?:^|(?<=[\s,.;:(]))(?P<label>{_LABEL})(?=\s*:?\s+(?:[a-z]+\s+){{0,3}}?\d+(?:[.,]\d+)?\s*"
                        r"(?:t|tuoi|thang|kg|ky|ki|ký|can|tuan)\b)")
_CLAUSE_END = re.compile(r"[.;,!?]")
_SENTENCE_END = re.compile(r"[.!?;]\s")
_ASKS = re.compile(r"\b(?:bao nhieu|nhieu|bn|lieu|sao|the nao|ntn|duoc (?:khong|ko|k)|dc (?:khong|ko|k))\b|\?")


@dataclass(frozen=True)
class _Described:
    label: str
    key: str
    start: int
    end: int


def one_of_several(text: str) -> tuple[str, dict[str, dict[str, Any]], str | None]:
    """(the turn without the other persons' descriptions, what was said of each of them by their key, the note
    saying whom the answer is for); the turn unchanged and nobody kept when it is not such a turn."""
    written = normalize(text)
    folded = fold(written)
    if len(folded) != len(written):
        return text, {}, None
    described = _described(folded, written)
    if len({d.key for d in described}) < 2 or len({d.key for d in described}) != len(described):
        return text, {}, None
    target = _asked_for(folded, described)
    if target is None:
        return text, {}, None
    others = [d for d in described if d is not target]
    kept = {d.key: _said_of(written[d.start:d.end]) for d in others}
    reduced = written
    for d in sorted(others, key=lambda d: d.start, reverse=True):
        reduced = reduced[:d.start] + reduced[d.end:]
    note = (f"Tin nhắn nêu nhiều người; tôi tra cho {target.label}. Những gì bạn nêu về "
            f"{', '.join(d.label for d in others)} được ghi nhớ để hỏi tiếp.")
    return reduced, kept, note


def _described(folded: str, written: str) -> list[_Described]:
    found: list[_Described] = []
    for m in _DESCRIBED.finditer(folded):
        key = person_key(written[m.start("label"):m.end("label")])
        if key is None:
            continue
        after = _CLAUSE_END.search(folded, m.end("label") + 1)
        # "Giường 6: bé 2 tuổi 12kg …": the colon after the name opens the description, it does not end it.
        end = after.start() if after else len(folded)
        found.append(_Described(written[m.start("label"):m.end("label")], key, m.start("label"), end))
    return found


def _asked_for(folded: str, described: list[_Described]) -> _Described | None:
    """The person the question is for: named in the asking sentence outside the descriptions ("Cho bé lớn uống …"),
    or the one whose description is in the asking sentence ("Mẹ 66t bs mới cho enalapril, khởi đầu liều nhiêu")."""
    sentences = [(m.start(), m.end()) for m in re.finditer(r"[^.!?;]+[.!?;]?", folded)]
    asking = [s for s in sentences if _ASKS.search(folded[s[0]:s[1]])]
    if not asking:
        return None
    start, end = asking[-1]
    inside = [d for d in described if start <= d.start < end]
    spans = [(d.start, d.end) for d in described]
    named = {d.key for d in described for m in re.finditer(rf"\b{re.escape(fold(d.label))}\b", folded[start:end])
             if not any(a <= start + m.start() < b for a, b in spans)}
    if len(named) == 1:
        return next(d for d in described if d.key in named)
    if not named and len(inside) == 1:
        return inside[0]
    return None


def _said_of(segment: str) -> dict[str, Any]:
    slots = extract_slots(segment)
    population = slots.population or (None if slots.age_months is None else
                                      "pediatric" if slots.age_months < 18 * 12 else "adult")
    return {"population": population, "age_text": slots.age_text, "age_months": slots.age_months,
            "weight_kg": slots.weight_kg, "weight_text": slots.weight_note, "renal": slots.renal,
            "hepatic": slots.hepatic, "gestation": slots.gestation, "pregnant": slots.pregnant,
            "breastfeeding": slots.breastfeeding, "comorbidities": list(slots.comorbidities)}
