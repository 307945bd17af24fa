"""The runner: one user turn through the machine, then persistence and tracing as hooks after the turn.

A short loop over the spec: for the current state, run its step (`StateSpec.step`, a function in `states/`),
apply the update it returns (only the fields the state declares it writes), fire the state's trigger, and let the
machine's guards decide where the turn goes next. Guards never do I/O; steps never fire triggers or persist.
"""

from __future__ import annotations

import dataclasses
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from core.budget import Clock, RequestBudget, monotonic_ms
from core.errors import ConversationNotFound, StoreConflict, StoreError
from engine.context import TurnContext
from engine.fingerprint import spec_fingerprint
from engine.machine import build_machine
from engine.metrics import Metrics
from engine.reply import CalculationShown, LlmCallRecord, Outcome, Reply
from engine.spec import MachineSpec, StateSpec
from engine.store.base import ConversationSnapshot, ConversationStore, ConversationUpdate, TurnRecord
from grounding.calculation_shown import shown_with_its_line
from grounding.generator import AnswerGenerator, EntailmentVerifier
from retrieval.resolver import DrugResolver
from retrieval.service import RetrievalService
from states.step import Services, Update
from states.streak import answered_something, next_clarify_streak
from states.understander import Understander

OUTCOME_OF_STATE: dict[str, Outcome] = {
    "answered": "answerable",
    "flagged": "verify_pdf",
    "clarified": "clarify",
    "abstained": "abstain",
}

MAX_STEPS = 64
"""Defensive: the spec is acyclic except verify ⇄ repair, bounded by max_repairs."""

_CONTEXT_FIELDS = frozenset(f.name for f in dataclasses.fields(TurnContext))


class UndeclaredWrite(RuntimeError):
    """A step wrote a field its state does not declare in the spec (a programming error, never a user's)."""


def apply_update(ctx: TurnContext, state: StateSpec, update: Update) -> None:
    """Apply a step's update to the turn context, refusing any field the state does not declare it writes."""
    values = update.values
    for name, value in values.items():
        if name not in state.writes:
            raise UndeclaredWrite(f"state {state.name!r} wrote {name!r}; its spec declares writes {state.writes}")
        setattr(ctx, name, value)
    trace = ctx.trace
    if update.notes:
        trace.notes += update.notes
    if update.outputs:
        trace.provider_outputs += update.outputs
    # The trace mirrors these context fields as they are written (a turn that never understood has query None).
    if "query" in values:
        trace.query = ctx.query
    if "understood_by" in values:
        trace.understood_by = ctx.understood_by
    if "evidence" in values:
        trace.evidence = [c.doc_id for c in ctx.evidence]


@dataclass
class Engine:
    spec: MachineSpec
    understander: Understander
    resolver: DrugResolver
    retrieval: RetrievalService
    generator: AnswerGenerator
    verifier: EntailmentVerifier
    store: ConversationStore
    clock: Clock = monotonic_ms
    new_id: Callable[[], str] = lambda: str(uuid.uuid4())
    metrics: Metrics = field(default_factory=Metrics)
    retrieval_only: bool = False
    """ANSWER_PROVIDER=disabled: single-turn, evidence quoted verbatim (the reference system's legacy mode)."""
    synthetic_corpus: bool = False

    def __post_init__(self) -> None:
        undeclared = {f"{s.name}.{w}" for s in self.spec.states for w in s.writes if w not in _CONTEXT_FIELDS}
        if undeclared:
            raise ValueError(f"the spec declares writes to fields the turn context does not have: {sorted(undeclared)}")
        self.machine = build_machine(self.spec)
        self.fingerprint = spec_fingerprint(self.spec)
        self._resting = set(self.spec.resting_states)
        self._states = {s.name: s for s in self.spec.states}

    def services(self) -> Services:
        """The collaborators every step receives (read at each turn: a stored replay swaps the providers)."""
        return Services(
            understander=self.understander,
            resolver=self.resolver,
            retrieval=self.retrieval,
            generator=self.generator,
            verifier=self.verifier,
            retrieval_only=self.retrieval_only,
            synthetic_corpus=self.synthetic_corpus,
        )

    # ------------------------------------------------------------------------------------------ turn

    def handle(self, turn: str, conversation_id: str | None = None, owner: str | None = None, *,
               loaded: tuple[ConversationSnapshot | None, list[str]] | None = None) -> Reply:
        """One turn. `loaded`: the conversation's snapshot and history as `store.load_with_history` returned them
        for this turn (the HTTP entry reads them before claiming the turn; read again here, they cost a second
        round trip for the same rows). The commit's version check is the same either way."""
        started = time.perf_counter()
        ctx, snapshot = self._begin(turn, conversation_id, owner, loaded)
        self.drive(ctx, snapshot.state)
        ctx.trace.duration_ms = (time.perf_counter() - started) * 1000
        reply = self._reply(ctx, snapshot)
        reply.persisted = self._persist(ctx, snapshot, reply, owner)
        self.metrics.observe_turn(reply, ctx)
        return reply

    def _begin(self, turn: str, conversation_id: str | None, owner: str | None,
               loaded: tuple[ConversationSnapshot | None, list[str]] | None = None,
               ) -> tuple[TurnContext, ConversationSnapshot]:
        limits = self.spec.limits
        budget = RequestBudget(limits.max_wall_clock_ms, limits.max_llm_calls, self.clock)
        ctx = TurnContext(text=turn, budget=budget, limits=limits)
        ctx.trace.trace_id = self.new_id()
        if conversation_id is None:
            return ctx, ConversationSnapshot(id=self.new_id(), owner=owner)
        try:
            snapshot, history = self.store.load_with_history(conversation_id, owner) if loaded is None else loaded
        except StoreError as exc:
            # Fail-open: the turn runs with no memory, and the reply and trace say so.
            ctx.memory_loaded = False
            ctx.trace.notes.append(f"store read failed, turn runs without memory: {exc}")
            return ctx, ConversationSnapshot(id=conversation_id, owner=owner, version=-1)
        if snapshot is None:
            raise ConversationNotFound(f"no conversation {conversation_id}")
        if snapshot.state not in self._resting:
            ctx.trace.notes.append(f"unknown resting state {snapshot.state!r} under a new spec; resuming from ready")
            snapshot = snapshot.model_copy(update={"state": "ready", "pending": None})
        if snapshot.spec_fingerprint and snapshot.spec_fingerprint != self.fingerprint:
            ctx.trace.notes.append(f"conversation stored under spec {snapshot.spec_fingerprint[:12]}")
        ctx.history = history
        ctx.clarify_streak = snapshot.clarify_streak
        if not self.retrieval_only:
            ctx.prior_frame = snapshot.frame
            ctx.pending = snapshot.pending
        return ctx, snapshot

    def drive(self, ctx: TurnContext, initial: str, stop: Callable[[str], bool] | None = None) -> None:
        """Run `ctx` through the machine from `initial` (a resting state) until it rests again, or `stop` says so."""
        ctx.state = self._states[initial].name  # a KeyError here is a state the spec does not have
        ctx.trace.states.append(initial)
        try:
            self.run_states(ctx, self.services(), stop)
        finally:
            ctx.close_trace()

    def run_states(self, ctx: TurnContext, services: Services, stop: Callable[[str], bool] | None = None) -> None:
        """Step, apply, fire the state's trigger, until a resting state (or a state `stop` accepts)."""
        for _ in range(MAX_STEPS):
            state = self._states[ctx.state]
            if state.step is not None:
                ctx.failure = None
                calls_before = len(ctx.budget.calls)
                update = state.step(ctx, services)
                for call in ctx.budget.calls[calls_before:]:
                    ctx.trace.llm_calls.append(LlmCallRecord(**call.__dict__))
                apply_update(ctx, state, update)
            self.machine.fire(ctx, state.trigger)
            if ctx.state in self._resting or (stop is not None and stop(ctx.state)):
                return
        raise RuntimeError("turn machine did not reach a resting state")

    # --------------------------------------------------------------------------------------- persist

    def _reply(self, ctx: TurnContext, snapshot: ConversationSnapshot) -> Reply:
        outcome_state = next((s for s in reversed(ctx.trace.states) if s in OUTCOME_OF_STATE), None)
        if outcome_state is None:
            raise RuntimeError(f"turn ended without an outcome: {ctx.trace.states}")
        outcome = OUTCOME_OF_STATE[outcome_state]
        calculations = shown_with_its_line(ctx.answer).calculations if ctx.answer is not None and \
            outcome == "answerable" else []
        ctx.trace.derivations = [c.derivation for c in calculations]
        return Reply(
            conversation_id=snapshot.id,
            turn=snapshot.turn_count + 1,
            outcome=outcome,
            reason=ctx.reason or "unspecified",
            reply=ctx.reply_text,
            citations=ctx.citations,
            calculation=[CalculationShown(drug_id=c.drug_id, lines=c.lines, derivation=c.derivation)
                         for c in calculations] or None,
            quick_replies=ctx.quick_replies,
            state=ctx.state,
            trace_id=ctx.trace.trace_id,
            memory_loaded=ctx.memory_loaded,
            spec_fingerprint=self.fingerprint,
            frame=ctx.frame.model_dump(),
            trace=ctx.trace,
        )

    def _persist(self, ctx: TurnContext, snapshot: ConversationSnapshot, reply: Reply, owner: str | None) -> bool:
        # Only a clarify to a turn that answered nothing counts; smalltalk keeps it; any other outcome resets it.
        answered = answered_something(ctx.prior_frame, ctx.frame, ctx.pending)
        streak = next_clarify_streak(ctx.clarify_streak, reply.outcome, reply.reason, answered)
        update = ConversationUpdate(
            state=reply.state,
            frame=ctx.frame,
            pending=ctx.new_pending if ctx.new_pending and reply.outcome == "clarify" else None,
            clarify_streak=streak,
            spec_fingerprint=self.fingerprint,
        )
        record = TurnRecord(
            seq=reply.turn,
            user_text=ctx.text,
            reply_text=reply.reply,
            outcome=reply.outcome,
            reason=reply.reason,
            frame=ctx.frame,
            trace=ctx.trace,
            evidence_ids=[c.doc_id for c in ctx.evidence],
            citations=[c.model_dump() for c in reply.citations],  # a reloaded chat shows them again
            quick_replies=reply.quick_replies,
        )
        if snapshot.version < 0:
            ctx.trace.notes.append("not persisted: the conversation could not be read")
            return False
        try:
            self.store.commit_turn(snapshot.id, owner, snapshot.version, update, record)
        except StoreConflict:
            raise
        except StoreError as exc:
            ctx.trace.notes.append(f"store write failed: {exc}")
            self.metrics.store_write_failures += 1
            return False
        return True

