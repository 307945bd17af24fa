"""The runner: one user turn through the machine, then persistence and tracing as hooks after the turn.

Per state the runner does that state's work (understanding, retrieval, generation, verification), then
fires the state's one trigger; the machine's guards decide where the turn goes next. Guards never do I/O.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from core.budget import Clock, RequestBudget, monotonic_ms
from core.corpus import Chunk
from core.errors import (
    AnswerGenerationUnavailable,
    ConversationNotFound,
    IndexUnavailable,
    ProviderOutputInvalid,
    RequestBudgetExhausted,
    StoreConflict,
    StoreError,
)
from core.sections import SECTION_HEADINGS
from engine.context import Failure, TurnContext
from engine.fingerprint import spec_fingerprint
from engine.machine import build_machine
from engine.metrics import Metrics
from engine.reply import Citation, LlmCallRecord, Outcome, Reply
from engine.spec import MachineSpec
from engine.store.base import ConversationSnapshot, ConversationStore, ConversationUpdate, TurnRecord
from grounding.answer import GenerationRequest
from grounding.generator import AnswerGenerator, EntailmentVerifier
from grounding.verify import verify_grounding
from retrieval.resolver import DrugResolver
from retrieval.service import RetrievalService
from states import clarify, paths, replies
from states.conditions import condition_as_in_book
from states.followup import settle_route_family
from states.frame import Pending, QueryFrame
from states.merge import merge_frames
from states.synthesis import synthesize_query
from states.understander import Understander, UnderstandingRequest

OUTCOME_OF_STATE: dict[str, Outcome] = {
    "answered": "answerable",
    "flagged": "verify_pdf",
    "clarified": "clarify",
    "abstained": "abstain",
}


@dataclass
class EngineLimits:
    max_consecutive_clarify: int = 4
    max_wall_clock_ms: int = 40_000
    max_llm_calls: int = 8


@dataclass
class Engine:
    spec: MachineSpec
    understander: Understander
    resolver: DrugResolver
    retrieval: RetrievalService
    generator: AnswerGenerator
    verifier: EntailmentVerifier
    store: ConversationStore
    limits: EngineLimits = field(default_factory=EngineLimits)
    clock: Clock = monotonic_ms
    new_id: Callable[[], str] = lambda: str(uuid.uuid4())
    metrics: Metrics = field(default_factory=Metrics)
    retrieval_only: bool = False
    """ANSWER_PROVIDER=disabled: single-turn, evidence quoted verbatim (the reference system's legacy mode)."""
    synthetic_corpus: bool = False

    def __post_init__(self) -> None:
        self.machine = build_machine(self.spec)
        self.fingerprint = spec_fingerprint(self.spec)
        self._resting = set(self.spec.resting_states)

    # ------------------------------------------------------------------------------------------ turn

    def handle(self, turn: str, conversation_id: str | None = None, owner: str | None = None) -> Reply:
        started = time.perf_counter()
        ctx, snapshot = self._begin(turn, conversation_id, owner)
        initial = snapshot.state
        self.machine.add_model(ctx, initial=initial)
        try:
            ctx.trace.states.append(initial)
            self._run(ctx)
        finally:
            self.machine.remove_model(ctx)
        ctx.trace.duration_ms = (time.perf_counter() - started) * 1000
        reply = self._reply(ctx, snapshot)
        reply.persisted = self._persist(ctx, snapshot, reply, owner)
        self.metrics.observe_turn(reply, ctx)
        return reply

    def _begin(self, turn: str, conversation_id: str | None, owner: str | None) -> tuple[TurnContext, ConversationSnapshot]:
        budget = RequestBudget(self.limits.max_wall_clock_ms, self.limits.max_llm_calls, self.clock)
        ctx = TurnContext(text=turn, budget=budget, max_consecutive_clarify=self.limits.max_consecutive_clarify)
        ctx.trace.trace_id = self.new_id()
        if conversation_id is None:
            return ctx, ConversationSnapshot(id=self.new_id(), owner=owner)
        try:
            snapshot, history = self.store.load_with_history(conversation_id, owner)
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
            ctx.prior_frame = QueryFrame.model_validate(snapshot.frame) if snapshot.frame else None
            ctx.pending = Pending.model_validate(snapshot.pending) if snapshot.pending else None
        return ctx, snapshot

    def _run(self, ctx: TurnContext) -> None:
        steps = 0
        while True:
            state = ctx.state
            work = WORK.get(state)
            if work is not None:
                ctx.failure = None
                work(self, ctx)
            triggers = self.spec.triggers_from(state)
            if not triggers:
                raise RuntimeError(f"state {state!r} has no outgoing trigger")
            ctx.trigger(triggers[0])  # type: ignore[attr-defined]
            steps += 1
            if ctx.state in self._resting:
                return
            if steps > 64:  # defensive: the spec is acyclic except verify ⇄ repair, bounded by max_repairs
                raise RuntimeError("turn machine did not reach a resting state")

    # ------------------------------------------------------------------------------------------ work

    def _call(self, ctx: TurnContext, site: str, fn: Callable[[], None]) -> None:
        """Run provider-calling work; record its failure for the next transition's guards (fail closed)."""
        calls_before = len(ctx.budget.calls)
        try:
            fn()
        except RequestBudgetExhausted as exc:
            ctx.failure = Failure("budget", site, str(exc))
        except ProviderOutputInvalid as exc:
            ctx.failure = Failure("output", site, str(exc))
        except AnswerGenerationUnavailable as exc:
            ctx.failure = Failure("provider", site, str(exc))
        finally:
            for call in ctx.budget.calls[calls_before:]:
                ctx.trace.llm_calls.append(LlmCallRecord(**call.__dict__))

    def _understand(self, ctx: TurnContext) -> None:
        candidates = self.resolver.resolve(ctx.text)
        request = UnderstandingRequest(
            text=ctx.text,
            history=ctx.history,
            prior_frame=ctx.prior_frame,
            pending=ctx.pending,
            candidates=candidates,
        )

        def run() -> None:
            understood = self.understander.understand(request, ctx.budget)
            if understood.provider_output is not None:
                ctx.trace.provider_outputs.append({"site": "understand", "output": understood.provider_output})
            ctx.trace.notes += understood.notes
            allowed = set(candidates.drug_ids)
            frame = understood.frame
            invented = [d for d in frame.drugs if d not in allowed]
            if invented:
                # A model may only choose among the resolver's candidates.
                ctx.trace.notes.append(f"dropped drug ids outside the candidate set: {invented}")
                frame = frame.model_copy(update={"drugs": [d for d in frame.drugs if d in allowed]})
            ctx.frame = merge_frames(frame, ctx.prior_frame, ctx.pending, ctx.text)
            ctx.trace.understood_by = frame.understood_by

        self._call(ctx, "understand", run)
        if ctx.failure is not None:
            ctx.understanding_failed = True
            ctx.frame = QueryFrame(non_human=replies.looks_non_human(ctx.text))
        ctx.query = synthesize_query(ctx.frame, ctx.text)
        ctx.trace.query = ctx.query

    def _ask(self, ctx: TurnContext) -> None:
        reason = ctx.reason or "needs_more_info"
        question = clarify.question_for(reason, ctx.frame, self.retrieval.names, ctx.routes_found)
        ctx.reply_text = question.text
        ctx.quick_replies = question.quick_replies
        ctx.new_pending = Pending(
            reason=reason, missing=question.missing, quick_replies=question.quick_replies, question=question.text
        )

    def _retrieving(self, ctx: TurnContext, fn: Callable[[], None]) -> None:
        """Run retrieval work; an index outage becomes a failure the next transition abstains on."""
        try:
            fn()
        except IndexUnavailable as exc:
            ctx.failure = Failure("index", ctx.state, str(exc))
            ctx.evidence, ctx.safety_evidence, ctx.routes_found = [], [], []
            ctx.trace.notes.append(f"index unavailable: {exc}")
        self._note_evidence(ctx)

    def _retrieve_single(self, ctx: TurnContext) -> None:
        ctx.path = "single_drug"

        def run() -> None:
            ctx.evidence, ctx.routes_found = paths.single_drug_evidence(self.retrieval, ctx.frame)
            ctx.frame = settle_route_family(ctx.frame, ctx.routes_found)

        self._retrieving(ctx, run)

    def _retrieve_interaction(self, ctx: TurnContext) -> None:
        ctx.path = "interaction"

        def run() -> None:
            ctx.evidence = paths.interaction_evidence(self.retrieval, ctx.frame)

        self._retrieving(ctx, run)

    def _retrieve_condition(self, ctx: TurnContext) -> None:
        ctx.path = "condition_to_drug"

        def run() -> None:
            ctx.evidence, ctx.candidates = paths.condition_evidence(self.retrieval, ctx.frame)
            ctx.frame = condition_as_in_book(ctx.frame, ctx.evidence)

        self._retrieving(ctx, run)

    def _review_safety(self, ctx: TurnContext) -> None:
        def run() -> None:
            ctx.safety_evidence = paths.safety_evidence(self.retrieval, ctx.frame, ctx.candidates)
            ctx.evidence = [*ctx.evidence, *ctx.safety_evidence]

        self._retrieving(ctx, run)

    def _note_evidence(self, ctx: TurnContext) -> None:
        ctx.trace.evidence = [c.doc_id for c in ctx.evidence]

    def _generation_request(self, ctx: TurnContext) -> GenerationRequest:
        f = ctx.frame
        mode = {"interaction": "interaction", "condition_to_drug": "list"}.get(ctx.path or "", "single")
        # For a patient-specific list the raw patient values are withheld: they already selected the safety
        # sections and are not formulary evidence; restated in a claim they would (rightly) fail grounding.
        query = paths.patient_generation_query(f) if mode == "list" and f.has_patient_context else ctx.query
        return GenerationRequest(
            query=query,
            evidence=ctx.evidence,
            mode=mode,  # type: ignore[arg-type]
            section_key=f.section_key,
            drug_ids=f.drugs,
            candidate_drug_ids=ctx.candidates,
            population=f.population,
            age_months=f.age_months,
            weight_kg=f.weight_kg,
            route=f.route,
            condition=f.condition,
            # Folded names/aliases/classes per drug: how the extractive generator finds mentions in evidence.
            drug_names={d: self.retrieval.names.names_of(d) for d in dict.fromkeys([*f.drugs, *ctx.candidates])},
        )

    def _generate(self, ctx: TurnContext) -> None:
        request = self._generation_request(ctx)

        def run() -> None:
            ctx.answer = self.generator.generate(request, ctx.budget)
            ctx.trace.provider_outputs.append({"site": "generate", "output": ctx.answer.model_dump()})

        self._call(ctx, "generate", run)

    def _verify(self, ctx: TurnContext) -> None:
        assert ctx.answer is not None
        answer = ctx.answer
        request = self._generation_request(ctx)
        ctx.grounding = verify_grounding(answer, ctx.evidence, candidate_drug_ids=request.candidate_drug_ids
                                         if request.mode == "list" else None)
        ctx.entailment = None
        if not ctx.grounding.ok:
            ctx.trace.notes += [f"grounding: {p}" for p in ctx.grounding.problems]
            return

        def run() -> None:
            ctx.entailment = self.verifier.verify(answer, ctx.evidence, ctx.budget)
            if self.verifier.calls_llm:
                ctx.trace.provider_outputs.append({"site": "entail", "output": ctx.entailment.model_dump()})

        self._call(ctx, "entail", run)
        if ctx.entailment is not None and not ctx.entailment.ok:
            ctx.trace.notes += [f"entailment: {p}" for p in ctx.entailment.problems]

    def _repair(self, ctx: TurnContext) -> None:
        assert ctx.answer is not None and ctx.entailment is not None
        answer, omissions = ctx.answer, ctx.entailment.omissions
        ctx.repairs += 1

        def run() -> None:
            ctx.answer = self.generator.repair(self._generation_request(ctx), answer, omissions, ctx.budget)
            ctx.trace.provider_outputs.append({"site": "repair", "output": ctx.answer.model_dump()})

        self._call(ctx, "repair", run)

    def _outcome(self, ctx: TurnContext) -> None:
        """Compose the reply text of an outcome state (no I/O)."""
        state = ctx.state
        if state == "answered":
            if ctx.reason == "smalltalk":
                ctx.reply_text = replies.SMALLTALK
            else:
                ctx.reason = ctx.path if not self.retrieval_only else "retrieval_only"
                assert ctx.answer is not None
                ctx.reply_text, ctx.citations = self._compose_answer(ctx)
        elif state == "flagged":
            ctx.reply_text, ctx.citations = self._compose_verify_pdf(ctx)
        elif state == "abstained":
            ctx.reply_text = replies.abstain_text(ctx.reason or "system_error", ctx.frame, self.retrieval.names)
            ctx.citations = []
            ctx.quick_replies = []
        if ctx.state in ("answered", "flagged") and self.synthetic_corpus and ctx.reason != "smalltalk":
            ctx.reply_text = f"{ctx.reply_text}\n\n{replies.SYNTHETIC_NOTICE}"
        if not ctx.memory_loaded:
            ctx.reply_text = f"{replies.NO_MEMORY_NOTICE}\n{ctx.reply_text}"

    def _compose_answer(self, ctx: TurnContext) -> tuple[str, list[Citation]]:
        assert ctx.answer is not None
        by_id = {c.doc_id: c for c in ctx.evidence}
        text = replies.answer_text(ctx.answer, ctx.path or "single_drug", ctx.frame, self.retrieval.names)
        cited: list[str] = []
        for claim in ctx.answer.claims:
            cited += [d for d in claim.citations if d not in cited]
        return text, [self._citation(by_id[d]) for d in cited if d in by_id]

    def _compose_verify_pdf(self, ctx: TurnContext) -> tuple[str, list[Citation]]:
        flagged = [c for c in ctx.evidence if c.has_quarantined_content]
        text = replies.verify_pdf_text(flagged, self.retrieval.names)
        return text, [self._citation(c, quote=replies.QUARANTINED_QUOTE) for c in flagged]

    def _citation(self, chunk: Chunk, quote: str | None = None) -> Citation:
        return Citation(
            doc_id=chunk.doc_id,
            drug_id=chunk.drug_id,
            drug_name=self.retrieval.display_name(chunk.drug_id),
            section_key=chunk.section_key,
            section_title=SECTION_HEADINGS.get(chunk.section_key, chunk.section_key),
            quote=quote if quote is not None else chunk.text,
            page=chunk.page,
        )

    # --------------------------------------------------------------------------------------- persist

    def _reply(self, ctx: TurnContext, snapshot: ConversationSnapshot) -> Reply:
        outcome_state = next((s for s in reversed(ctx.trace.states) if s in OUTCOME_OF_STATE), None)
        if outcome_state is None:
            raise RuntimeError(f"turn ended without an outcome: {ctx.trace.states}")
        outcome = OUTCOME_OF_STATE[outcome_state]
        return Reply(
            conversation_id=snapshot.id,
            turn=snapshot.turn_count + 1,
            outcome=outcome,
            reason=ctx.reason or "unspecified",
            reply=ctx.reply_text,
            citations=ctx.citations,
            quick_replies=ctx.quick_replies,
            state=ctx.state,
            trace_id=ctx.trace.trace_id,
            memory_loaded=ctx.memory_loaded,
            spec_fingerprint=self.fingerprint,
            frame=ctx.frame.model_dump(),
            trace=ctx.trace,
        )

    def _persist(self, ctx: TurnContext, snapshot: ConversationSnapshot, reply: Reply, owner: str | None) -> bool:
        streak = ctx.clarify_streak + 1 if reply.outcome == "clarify" else 0  # any other outcome resets it
        update = ConversationUpdate(
            state=reply.state,
            frame=ctx.frame.model_dump(),
            pending=ctx.new_pending.model_dump() if ctx.new_pending and reply.outcome == "clarify" else None,
            clarify_streak=streak,
            spec_fingerprint=self.fingerprint,
        )
        record = TurnRecord(
            seq=reply.turn,
            user_text=ctx.text,
            reply_text=reply.reply,
            outcome=reply.outcome,
            reason=reply.reason,
            frame=ctx.frame.model_dump(),
            trace=ctx.trace.model_dump(),
            evidence_ids=[c.doc_id for c in ctx.evidence],
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


WORK: dict[str, Callable[[Engine, TurnContext], None]] = {
    "understanding": Engine._understand,
    "asking": Engine._ask,
    "retrieving_single": Engine._retrieve_single,
    "retrieving_interaction": Engine._retrieve_interaction,
    "retrieving_condition": Engine._retrieve_condition,
    "reviewing_safety": Engine._review_safety,
    "generating": Engine._generate,
    "verifying": Engine._verify,
    "repairing": Engine._repair,
    "answered": Engine._outcome,
    "flagged": Engine._outcome,
    "clarified": Engine._outcome,
    "abstained": Engine._outcome,
}
