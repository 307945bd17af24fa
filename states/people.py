"""The persons of a conversation spoken of before: what was said of each, kept when the talk turns to someone else
and given back when they are named again.

"vợ em đang bầu 32 tuần … ibuprofen được ko" → "còn em, 30 tuổi …" → "vậy vợ em dùng paracetamol thay được ko": the
wife is pregnant still. Forgotten at the switch to her husband (states.merge.forget_person, which must stay: nothing
of one person is ever another's), her pregnancy was lost when she was named again, and her paracetamol question was
answered from the contraindications for anyone (#18 held-out H183). Only a person named by words that pick out one
person is remembered ("vợ em", "bà nội", "em nó", "bé út"); a class of patients ("bé", "người lớn", "bà bầu") or
"another patient" names nobody in particular, and nothing is given back to it.
"""

from __future__ import annotations

from typing import Any

from core.text import fold
from states.frame import QueryFrame
from states.person import GENERIC, Person, person_of

REMEMBERED = ("population", "age_text", "age_months", "weight_kg", "weight_text", "renal", "hepatic", "gestation",
              "pregnant", "breastfeeding", "comorbidities")
"""The values that belong to a person (the drug and the question belong to the conversation)."""
_NOBODY_IN_PARTICULAR = (*GENERIC, "other_case", "pregnant", "elderly")


def _one_person(label: str | None) -> str | None:
    """The key a person is remembered under, when the words name one person."""
    if not label:
        return None
    person = person_of(label)
    if person is None or person.key in _NOBODY_IN_PARTICULAR:
        return None
    return fold(label).strip()


def _said_of(frame: QueryFrame) -> dict[str, Any]:
    return {name: getattr(frame, name) for name in REMEMBERED}


def _anything_said(values: dict[str, Any]) -> bool:
    return any(v not in (None, False, []) for k, v in values.items() if k != "population")


def remembered(prior: QueryFrame, merged: QueryFrame) -> QueryFrame:
    """The merged frame with the conversation's persons: the one spoken of before kept when the talk has turned to
    someone else, the one spoken of now removed (their values are the frame's own)."""
    people = dict(prior.people)
    before, now = _one_person(prior.person), _one_person(merged.person)
    if before is not None and fold(merged.person or "").strip() != before and _anything_said(_said_of(prior)):
        people[before] = _said_of(prior)
    if now is not None:
        people.pop(now, None)
    if people == merged.people:
        return merged
    return merged.model_copy(update={"people": people})


def given_back(base: QueryFrame, prior: QueryFrame, person: Person) -> tuple[QueryFrame, str | None]:
    """The new turn's base frame with what was said of `person` before, when they were spoken of earlier in the
    conversation; and how to say so ("mang thai 32 tuần"), None when nothing is given back."""
    key = _one_person(person.label)
    values = prior.people.get(key) if key is not None else None
    if not values or not _anything_said(values):
        return base, None
    restored = base.model_copy(update={k: v for k, v in values.items() if k in REMEMBERED})
    return restored, _summary(restored)


def _summary(frame: QueryFrame) -> str:
    parts: list[str] = []
    if frame.age_text:
        parts.append(frame.age_text)
    if frame.weight_kg is not None:
        parts.append(f"{frame.weight_kg:g} kg".replace(".", ","))
    if frame.pregnant:
        parts.append("đang mang thai")
    if frame.breastfeeding:
        parts.append("đang cho con bú")
    parts += [v for v in (frame.renal, frame.hepatic) if v]
    parts += frame.comorbidities
    return ", ".join(parts)
