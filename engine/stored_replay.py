"""Re-run a stored conversation under the current spec, with the provider outputs recorded in its turns.

The audit question is "what would this conversation do under the new rules?". Each stored turn's trace
holds what the providers returned (`trace.provider_outputs`: site "understand" for an LLM understander,
"generate" / "repair" for the generator, "entail" for an LLM verifier). Replay feeds those back instead of
calling the providers again, so the only thing that changes is the code and the spec. A turn understood by
the offline rules has no recorded output: the turn text is re-understood by the rules, which are deterministic.
A provider step the stored turn never reached (the route changed) runs on the offline provider.

The result, turn by turn, says where the route (the routing-table row taken), the outcome or the reason
would now differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from core.budget import RequestBudget
from core.corpus import Chunk
from core.errors import ProviderOutputInvalid
from engine.reply import Reply, Trace
from engine.runner import Engine
from engine.store.base import TurnRecord
from grounding.answer import Answer, EntailmentResult, GenerationRequest
from states.understander import Understander, Understanding, UnderstandingRequest


def recorded_output(trace: Trace, site: str, nth: int = 0) -> dict[str, Any] | None:
    outputs = [o.output for o in trace.provider_outputs if o.site == site]
    return outputs[nth] if nth < len(outputs) else None


def _called(trace: Trace, site: str) -> bool:
    return any(c.call_site == site for c in trace.llm_calls)


def route_row(trace: Trace) -> str | None:
    """The routing-table row the turn took (None when it never reached routing)."""
    return next((t.row for t in trace.transitions if t.trigger == "route"), None)


class _Recorded:
    """Holds the stored turn currently being replayed; the recorded providers read it."""

    def __init__(self) -> None:
        self.trace = Trace()
        self.used: dict[str, int] = {}

    def start(self, turn: TurnRecord) -> None:
        self.trace = turn.trace
        self.used = {}

    def next(self, site: str) -> dict[str, Any] | None:
        n = self.used.get(site, 0)
        self.used[site] = n + 1
        return recorded_output(self.trace, site, n)


class RecordedUnderstander:
    """The recorded LLM understanding when there is one, else the (deterministic) inner understander."""

    name = "recorded"

    def __init__(self, inner: Understander, recorded: _Recorded) -> None:
        self.inner = inner
        self.recorded = recorded

    def understand(self, request: UnderstandingRequest, budget: RequestBudget) -> Understanding:
        raw = self.recorded.next("understand")
        if raw is None:
            return self.inner.understand(request, budget)
        from states.claude_understander import understanding_from_output

        if _called(self.recorded.trace, "understand"):
            budget.require("understand")  # the recorded call counted against the turn's budget then, too
        return understanding_from_output(raw, request.candidates.drug_ids, request)


class RecordedGenerator:
    def __init__(self, inner: Any, recorded: _Recorded) -> None:
        self.inner = inner
        self.recorded = recorded
        self.name = f"recorded({inner.name})"
        self.calls_llm = inner.calls_llm

    def _answer(self, site: str, budget: RequestBudget) -> Answer | None:
        raw = self.recorded.next(site)
        if raw is None:
            return None
        if _called(self.recorded.trace, site):
            budget.require(site)
        try:
            return Answer.model_validate(raw)
        except ValueError as exc:
            raise ProviderOutputInvalid(f"recorded {site} output does not validate: {exc}") from exc

    def generate(self, request: GenerationRequest, budget: RequestBudget) -> Answer:
        answer = self._answer("generate", budget)
        return answer if answer is not None else self.inner.generate(request, budget)

    def repair(self, request: GenerationRequest, answer: Answer, omissions: Sequence[str],
               budget: RequestBudget) -> Answer:
        repaired = self._answer("repair", budget)
        return repaired if repaired is not None else self.inner.repair(request, answer, omissions, budget)


class RecordedVerifier:
    def __init__(self, inner: Any, recorded: _Recorded) -> None:
        self.inner = inner
        self.recorded = recorded
        self.name = f"recorded({inner.name})"
        self.calls_llm = inner.calls_llm

    def verify(self, answer: Answer, evidence: Sequence[Chunk], budget: RequestBudget) -> EntailmentResult:
        raw = self.recorded.next("entail")
        if raw is None:
            return self.inner.verify(answer, evidence, budget)
        if _called(self.recorded.trace, "entail"):
            budget.require("entail")
        return EntailmentResult.model_validate(raw)


class Decision(BaseModel):
    route: str | None = None
    outcome: str
    reason: str


class TurnDiff(BaseModel):
    seq: int
    user: str
    before: Decision
    after: Decision | None
    error: str | None = None
    changed: list[str] = Field(default_factory=list)
    """"route", "outcome", "reason" — whichever now differ."""

    def line(self) -> str:
        b = self.before
        head = f"turn {self.seq} «{self.user[:60]}»"
        if self.after is None:
            return f"{head}: ERROR {self.error} (was row {b.route}, {b.outcome}/{b.reason})"
        a = self.after
        if not self.changed:
            return f"{head}: same (row {a.route}, {a.outcome}/{a.reason})"
        parts = [f"{k} {getattr(b, k)!s} → {getattr(a, k)!s}" for k in self.changed]
        return f"{head}: CHANGED " + "; ".join(parts)


def replay_stored(engine: Engine, turns: Sequence[TurnRecord]) -> list[TurnDiff]:
    """Run `turns` (a stored conversation, in order) through `engine`, whose providers are wrapped here.

    `engine` must have its own empty store (the replay is a new conversation, never written over the
    stored one). Its understander, generator and verifier are the fallbacks for unrecorded steps.
    """
    recorded = _Recorded()
    engine.understander = RecordedUnderstander(engine.understander, recorded)
    engine.generator = RecordedGenerator(engine.generator, recorded)
    engine.verifier = RecordedVerifier(engine.verifier, recorded)
    diffs: list[TurnDiff] = []
    conversation_id: str | None = None
    for turn in sorted(turns, key=lambda t: t.seq):
        before = Decision(route=route_row(turn.trace), outcome=turn.outcome, reason=turn.reason)
        recorded.start(turn)
        try:
            reply: Reply = engine.handle(turn.user_text, conversation_id)
        except Exception as exc:  # report and keep going: the audit wants every turn
            diffs.append(TurnDiff(seq=turn.seq, user=turn.user_text, before=before, after=None,
                                  error=f"{type(exc).__name__}: {exc}", changed=["outcome"]))
            continue
        conversation_id = reply.conversation_id
        after = Decision(route=route_row(reply.trace), outcome=reply.outcome, reason=reply.reason)
        changed = [k for k in ("route", "outcome", "reason") if getattr(before, k) != getattr(after, k)]
        diffs.append(TurnDiff(seq=turn.seq, user=turn.user_text, before=before, after=after, changed=changed))
    return diffs
