"""The hybrid understander (UNDERSTANDING_PROVIDER=hybrid): rules when they are confident, Claude otherwise.

The reference system spent its largest LLM latency (~3 s of an ~8 s turn) on understanding, a
classification task the offline rules handle for most turns. Here the rules run first (no call, no
budget); only a frame below `min_confidence` goes to Claude. `frame.understood_by` says which one decided,
and the runner copies it into the trace. When Claude is asked and fails, the turn fails closed (the
unconfident rules frame is not used as a silent fallback).
"""

from __future__ import annotations

from core.budget import RequestBudget
from states.provenance import grounded
from states.understander import Understander, Understanding, UnderstandingRequest


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
        # Whatever model answered, its patient values must be in the user's words (idempotent after Claude's own).
        modelled = grounded(self.claude.understand(request, budget), request)
        frame = modelled.frame.model_copy(update={"understood_by": "anthropic"})
        notes = [f"hybrid: rules confidence {ruled.frame.confidence:.2f} < {self.min_confidence:.2f}; asked the model",
                 *modelled.notes]
        return modelled.model_copy(update={"frame": frame, "notes": notes})
