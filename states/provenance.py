"""Slot provenance: every patient value a gate reads must be found in the user's own words.

Code decides which slots a dose needs; this module makes code also decide which slot *values* are real.
A model frame's age, weight, population, pregnancy, breastfeeding, renal/hepatic value and route are kept
only when the deterministic extractors (states.slots) find the same value in the user's turns — this turn,
or an earlier user turn of the conversation. Safety reason: a model that says "adult" for "trẻ em 5 tuổi",
or that invents "60 months, 18 kg" after "cứ trả lời đi", would otherwise select a dosing line for a
patient nobody described; a dropped value makes the machine ask, which is always acceptable.

Rules, per slot (the newest user turn that states the slot is the one that counts):
- this turn states the slot: the model's value, when it gives one, is replaced by the text's (a model
  population contradicting "trẻ em" loses to it);
- else an earlier user turn states it: the model's value is kept only if it equals that turn's value;
- else: the model's value is dropped.
Pregnancy, breastfeeding, renal and hepatic values are kept when any user turn states them (renal and
hepatic as the user wrote them). Everything dropped or replaced is reported as a trace note.
The function is pure: the same frame and turns give the same result (replay depends on it).
"""

from __future__ import annotations

from collections.abc import Sequence

from core.vocabulary import INJECTION_ROUTES
from states.frame import QueryFrame
from states.slots import Slots, extract_slots
from states.understander import Understanding, UnderstandingRequest

USER_PREFIX = "Người dùng: "
"""How the store writes a user's line into the conversation history (engine.store)."""

_TOLERANCE = 0.05


def user_turns(text: str, history: Sequence[str]) -> list[str]:
    """The user's own turns, newest first: this turn, then the earlier user lines of the history."""
    earlier = [line[len(USER_PREFIX):] for line in history if line.startswith(USER_PREFIX)]
    return [text, *reversed(earlier)]


def _same(a: object, b: object) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float):
        return abs(float(a) - float(b)) <= _TOLERANCE
    return a == b


def _latest(stated: list[Slots], name: str) -> tuple[int, Slots] | None:
    """The newest turn (index 0 is this turn) that states slot `name`."""
    for i, slots in enumerate(stated):
        if getattr(slots, name) is not None:
            return i, slots
    return None


def _other_group(stated: list[Slots], turn: int) -> bool:
    """This turn names a patient group other than the one of the earlier turn that stated a value."""
    now = stated[0].population
    return now is not None and stated[turn].population != now


def ground_frame(frame: QueryFrame, turns: Sequence[str]) -> tuple[QueryFrame, list[str]]:
    """`frame` with every patient value the user's turns (newest first) do not support dropped, and notes."""
    stated = [extract_slots(t) for t in turns]
    update: dict[str, object] = {}
    notes: list[str] = []

    def drop(name: str, value: object, why: str = "not in the user's words") -> None:
        update[name] = None
        notes.append(f"provenance: dropped model value {name}={value}: {why}")

    for name in ("population", "age_months", "weight_kg", "route"):
        value = getattr(frame, name)
        if value is None:
            continue
        found = _latest(stated, name)
        if found is None:
            drop(name, value)
            continue
        turn, slots = found
        text_value = getattr(slots, name)
        if _same(value, text_value):
            if name in ("age_months", "weight_kg") and turn > 0 and _other_group(stated, turn):
                # "còn người lớn thì sao?" after "bé 5 tuổi 18 kg": the child's age and weight are not the adult's.
                drop(name, value, "stated for another patient group")
            else:
                update[name] = text_value
        elif turn == 0:
            update[name] = text_value
            notes.append(f"provenance: replaced model value {name}={value} with {text_value} from the user's words")
        else:
            drop(name, value, f"the user last said {text_value}")
    # "thế còn đường tiêm?": the injection family is read from this turn's words by the extractors, as the route is
    # (a model frame does not carry it). Without it a model frame with no route would let the merge keep the
    # previous route, and an injection follow-up would be answered with the oral dose.
    route_now = update.get("route", frame.route)
    family = stated[0].route_family
    if family == "injection" and route_now is not None and route_now not in INJECTION_ROUTES:
        drop("route", route_now, "this turn asks about injection")
        route_now = None
    family = family if route_now is None else None
    if family != frame.route_family:
        update["route_family"] = family
    # The age as quoted back to the user comes from the same words as the age itself.
    age = update.get("age_months", frame.age_months)
    if age is None:
        if frame.age_text is not None:
            update["age_text"] = None
            if frame.age_months is None:
                notes.append(f"provenance: dropped model value age_text={frame.age_text!r}: no age in the user's words")
    else:
        found = _latest(stated, "age_months")
        update["age_text"] = found[1].age_text if found else None

    for name in ("pregnant", "breastfeeding"):
        if getattr(frame, name) and not any(getattr(s, name) for s in stated):
            update[name] = False
            notes.append(f"provenance: dropped model value {name}=True: not in the user's words")
    for name in ("renal", "hepatic"):
        value = getattr(frame, name)
        if value is None:
            continue
        found = _latest(stated, name)
        if found is None:
            drop(name, repr(value))
        elif getattr(found[1], name) != value:
            update[name] = getattr(found[1], name)
    changed = {k: v for k, v in update.items() if getattr(frame, k) != v}
    return (frame.model_copy(update=changed) if changed else frame), notes


def grounded(understood: Understanding, request: UnderstandingRequest) -> Understanding:
    """An understanding whose frame keeps only the patient values the user's turns support, with the notes."""
    frame, notes = ground_frame(understood.frame, user_turns(request.text, request.history))
    if not notes and frame is understood.frame:
        return understood
    return understood.model_copy(update={"frame": frame, "notes": [*understood.notes, *notes]})
