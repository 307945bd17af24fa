"""The per-turn context: the model object the machine drives for exactly one turn.

The runner sets `state` to the persisted resting state and fires the process's one machine's events on it
(`TurnMachine.fire`; it is never added to the machine as a model). Guards read it; each state's step (states/<state>.py) reads it through `states.step.TurnView` and
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
    indications_found: list[str] = field(default_factory=list)
    """The indication lead-ins the patient's dose lines sit under (dosing turns; states.dosing)."""
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

    state: str = "ready"
    """The machine state; set by the runner at the start of the turn, then by the machine's transitions."""
    guard_log: list[GuardEvaluation] = field(default_factory=list)
    """The guard evaluations, in order (≈30 per turn): the machine's shared frozen records, one per (state, guard,
    result), appended as they happen; `close_trace` moves them into the trace."""

    def close_trace(self) -> None:
        """Move the turn's guard evaluations into the trace."""
        if self.guard_log:
            self.trace.guards += self.guard_log
            self.guard_log = []

    def record_transition(self, taken: TransitionTaken) -> None:
        """Record a transition fired (the machine's shared frozen record of that spec transition)."""
        self.trace.transitions.append(taken)
