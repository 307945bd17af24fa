"""The clarify streak: what counts toward the breaker (MAX_CONSECUTIVE_CLARIFY) and what resets it.

The breaker exists because a model once re-asked the same question forever (reference system, 2026-08-07). It
must bound loops, not punish answers: issue #18 found "dạ cảm ơn, bé 5 tuổi 18 ký ạ" read as a greeting, which
reset the streak (so the breaker never tripped on a real loop), while a parent answering one slot per turn was
counted as if the machine were stuck.

- A clarify reply to a turn that filled a slot the pending question asked for ("18 kg" to "bé nặng bao nhiêu
  kg?") is progress: the streak stays. Slots are few (population, age, weight, route, attribute, drug,
  condition), so the count of such turns is bounded anyway.
- A clarify reply to a turn that filled nothing ("không biết", a new value for a slot already given, an
  unrelated question) counts one more.
- Smalltalk ("cảm ơn") is no outcome of the question: the streak stays. Every other non-clarify outcome (an
  answer, a verify-PDF notice, an abstention) ends the question and resets it.
"""

from __future__ import annotations

from collections.abc import Sequence

from states.frame import Pending, QueryFrame

# What each pending slot name is, in the frame.
_FILLED_BY: dict[str, tuple[str, ...]] = {
    "population": ("population",),
    "age": ("age_months",),
    "weight": ("weight_kg",),
    "route": ("route",),
    "attribute": ("section_key",),
    "drug": ("drugs",),
    "condition": ("condition",),
}
ALL_SLOTS: tuple[str, ...] = tuple(_FILLED_BY)


def _empty(value: object) -> bool:
    return value is None or value == [] or value == ""


def answered_something(prior: QueryFrame | dict[str, object] | None, frame: QueryFrame | dict[str, object],
                       missing: Sequence[str] | Pending | None) -> bool:
    """The turn filled a slot the pending question asked for (one that was empty before it). After "cảm ơn" in the
    middle of the questions, the question kept across it is the one answered ("bé 5 tuổi" … "cảm ơn" … "18 kg")."""
    kept = prior.kept if isinstance(prior, QueryFrame) else (prior or {}).get("kept")
    kept_pending = prior.kept_pending if isinstance(prior, QueryFrame) else (prior or {}).get("kept_pending")
    if missing is None and isinstance(kept, dict) and isinstance(kept_pending, dict):
        prior, missing = kept, Pending.model_validate(kept_pending)
    if prior is None or missing is None:
        return False
    asked = missing.missing if isinstance(missing, Pending) else list(missing)
    before = prior.model_dump() if isinstance(prior, QueryFrame) else prior
    after = frame.model_dump() if isinstance(frame, QueryFrame) else frame
    for slot in asked:
        for name in _FILLED_BY.get(slot, ()):
            if _empty(before.get(name)) and not _empty(after.get(name)):
                return True
    return False


def next_clarify_streak(previous: int, outcome: str, reason: str | None, answered: bool) -> int:
    """The streak after a turn with this outcome; the breaker trips when it would exceed the limit."""
    if outcome == "clarify":
        return previous if answered else previous + 1
    if outcome == "answerable" and reason == "smalltalk":
        return previous
    return 0
