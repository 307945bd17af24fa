"""The hybrid understander (UNDERSTANDING_PROVIDER=hybrid): rules when they are confident, Claude otherwise.

The reference system spent its largest LLM latency (~3 s of an ~8 s turn) on understanding, a
classification task the offline rules handle for most turns. Here the rules run first (no call, no
budget); only a frame below `min_confidence` goes to Claude. `frame.understood_by` says which one decided,
and the runner copies it into the trace. When Claude is asked and fails, the turn fails closed (the
unconfident rules frame is not used as a silent fallback).
"""

from __future__ import annotations

from core.budget import RequestBudget
from core.text import fold
from states.frame import Pending, QueryFrame
from states.provenance import grounded
from states.understander import Understander, Understanding, UnderstandingRequest

_SLOT_FIELDS = {"population": "population", "age": "age_months", "weight": "weight_kg", "route": "route"}
"""Pending slots a bare answer fills, and the frame field the extractors fill for each."""


def answers_pending(frame: QueryFrame, text: str, pending: Pending | None) -> bool:
    """The rules read this turn as the answer the last reply asked for: it fills an asked slot ("18 kg", "Uống",
    "dạ bé 5 tuổi ạ") or is one of the offered quick replies ("Chống viêm (viêm khớp dạng thấp)"), and asks
    nothing else (no new drug, no other section).

    Such a turn needs no model: the values the gates read are, by provenance (states.provenance), only values the
    deterministic extractors found in the user's words, so a model would re-read the same words at the cost of a
    call (~3 s, the reference system's largest latency)."""
    if pending is None or frame.unknown_drugs:
        return False
    folded = fold(text).strip(" .!?,")
    if any(folded == fold(q).strip(" .!?,") for q in pending.quick_replies):
        return True  # a chip the last reply offered means what the reply offered it for
    if frame.needs_clarify:
        return False
    if frame.turn_type not in ("dosing_calc", "drug_overview") or frame.section_key not in (None,
                                                                                           "lieu_luong_cach_dung"):
        return False
    if frame.drugs or frame.condition:
        return False  # a new drug or condition is a new question, not the answer
    return any(getattr(frame, _SLOT_FIELDS[m]) is not None for m in pending.missing if m in _SLOT_FIELDS)


class HybridUnderstander:
    name = "hybrid"

    def __init__(self, rules: Understander, claude: Understander, min_confidence: float) -> None:
        self.rules = rules
        self.claude = claude
        self.min_confidence = min_confidence

    def understand(self, request: UnderstandingRequest, budget: RequestBudget) -> Understanding:
        ruled = self.rules.understand(request, budget)
        if ruled.frame.confidence >= self.min_confidence:
            frame = ruled.frame.model_copy(update={"understood_by": "rules"})
            return ruled.model_copy(update={"frame": frame})
        if answers_pending(ruled.frame, request.text, request.pending):
            frame = ruled.frame.model_copy(update={"understood_by": "rules"})
            notes = [*ruled.notes, "hybrid: the answer to the pending question, read by the extractors; no model call"]
            return ruled.model_copy(update={"frame": frame, "notes": notes})
        # Whatever model answered, its patient values must be in the user's words (idempotent after Claude's own).
        modelled = grounded(self.claude.understand(request, budget), request)
        frame = modelled.frame.model_copy(update={"understood_by": "anthropic"})
        notes = [f"hybrid: rules confidence {ruled.frame.confidence:.2f} < {self.min_confidence:.2f}; asked the model",
                 *modelled.notes]
        return modelled.model_copy(update={"frame": frame, "notes": notes})
