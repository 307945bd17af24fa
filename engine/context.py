"""The per-turn context: the model object the machine drives for exactly one turn.

It is added to the process's one machine with `add_model(ctx, initial=<persisted state>)` and removed
after the turn. Guards read it; each state's step (states/<state>.py) reads it through `states.step.TurnView` and
returns an update that the runner applies: only the runner and the machine's callbacks write it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.budget import RequestBudget
from core.corpus import Chunk
from engine.limits import Limits
from engine.reply import Citation, GuardEvaluation, Trace, TransitionTaken
from grounding.answer import Answer, EntailmentResult, GroundingResult
from states.frame import Pending, QueryFrame
from states.step import Failure

__all__ = ["Failure", "TurnContext"]


@dataclass
class TurnContext:
    text: str
    budget: RequestBudget
    prior_frame: QueryFrame | None = None
    pending: Pending | None = None
    history: list[str] = field(default_factory=list)
    clarify_streak: int = 0
    limits: Limits = field(default_factory=Limits)
    """The spec's limits (the runner passes `spec.limits` itself, never a copy)."""
    memory_loaded: bool = True

    frame: QueryFrame = field(default_factory=QueryFrame)
    understanding_failed: bool = False
    understood_by: str | None = None
    query: str = ""
    path: str | None = None
    evidence: list[Chunk] = field(default_factory=list)
    routes_found: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    safety_evidence: list[Chunk] = field(default_factory=list)
    answer: Answer | None = None
    grounding: GroundingResult | None = None
    entailment: EntailmentResult | None = None
    repairs: int = 0
    max_repairs: int = 1
    failure: Failure | None = None

    reason: str | None = None
    reply_text: str = ""
    citations: list[Citation] = field(default_factory=list)
    quick_replies: list[str] = field(default_factory=list)
    new_pending: Pending | None = None
    trace: Trace = field(default_factory=Trace)

    # Set by transitions' add_model; declared for type checkers.
    state: str = "ready"

    def record_guard(self, guard: str, result: bool) -> None:
        self.trace.guards.append(GuardEvaluation(state=self.state, guard=guard, result=result))

    def record_transition(self, source: str, trigger: str, dest: str, row: str | None) -> None:
        self.trace.transitions.append(TransitionTaken(source=source, trigger=trigger, dest=dest, row=row))
