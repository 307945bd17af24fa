"""A stateful model of the real engine under faults: turns, provider/store/index faults and restarts.

Hypothesis drives the real embedded engine (rules understander, Qdrant Edge index, extractive generator,
lexical verifier, SQLite through the real SqlStore) with interleaved rules: user turns, faults at every
provider call site (timeout, error, malformed output, and wrong-but-well-formed answers), store read and
write faults, index faults, a tighter per-turn LLM budget, and a restart (drop the engine, build a new one
on the same database). After every turn all the DESIGN.md safety invariants are checked, plus what each
injected fault must lead to.
"""

from __future__ import annotations

import atexit
import functools
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from core.errors import ConversationNotFound
from engine.runner import Engine
from engine.spec import build_spec
from engine.store.faults import FaultyStore
from engine.store.sql import SqlStore
from engine.wiring import build_engine
from grounding.extractive import ExtractiveGenerator
from grounding.faults import GENERATOR_KINDS, PROVIDER_KINDS, VERIFIER_KINDS, FaultyGenerator, FaultyVerifier
from grounding.lexical import LexicalVerifier
from retrieval.faults import FaultyIndex
from retrieval.service import RetrievalService
from states.faults import FaultyUnderstander
from states.rules_understander import RulesUnderstander
from tests.engine_kit import EngineKit, reopen
from tests.strategies import question, turn

pytestmark = pytest.mark.integration

CLOSED = ("timeout", "error", "malformed", "ungrounded", "uncited", "reject")
"""Fault kinds after which the turn must abstain (fail closed). "omission" only drives repair."""


@functools.cache
def _kit() -> EngineKit:
    kit = EngineKit(Path(tempfile.mkdtemp(prefix="formulary-stateful-")))
    atexit.register(kit.close)
    return kit


faults = st.one_of(
    st.tuples(st.just("understand"), st.sampled_from(PROVIDER_KINDS)),
    st.tuples(st.sampled_from(("generate", "repair")), st.sampled_from(GENERATOR_KINDS)),
    st.tuples(st.just("entail"), st.sampled_from(VERIFIER_KINDS)),
)
times = st.sampled_from((1, 1, 2, None))


class EngineUnderFaults(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.kit = _kit()
        self.url = self.kit.sqlite_url()
        SqlStore(self.url).close()  # create the schema once; every engine below reopens the same file
        self.max_llm_calls = 8
        self.cid: str | None = None
        self.exists = False
        self.conversation = self.kit.checker.conversation()
        self._build()

    def _build(self) -> None:
        """A new process: new engine, new store and index objects, no faults switched on."""
        self.store = FaultyStore(reopen(self.url))
        self.index = FaultyIndex(self.kit.index)
        rules = RulesUnderstander(RetrievalService(self.index).names)
        self.understander = FaultyUnderstander(rules, counts_as_llm=True)
        self.generator = FaultyGenerator(ExtractiveGenerator(), counts_as_llm=True)
        self.verifier = FaultyVerifier(LexicalVerifier(), counts_as_llm=True)
        self.engine: Engine = build_engine(
            self.kit.settings, index=self.index, store=self.store, understander=self.understander,
            generator=self.generator, verifier=self.verifier, spec=build_spec(max_calls=self.max_llm_calls),
        ).engine

    def _counters(self) -> dict[str, int]:
        return {
            "understand": self.understander.fault.injected,
            "generate": self.generator.generate_fault.injected,
            "repair": self.generator.repair_fault.injected,
            "entail": self.verifier.fault.injected,
            "index": self.index.injected,
            "read": self.store.injected_read_failures,
            "write": self.store.injected_write_failures,
        }

    def _kinds(self) -> dict[str, str | None]:
        return {"understand": self.understander.fault._kind, "generate": self.generator.generate_fault._kind,
                "repair": self.generator.repair_fault._kind, "entail": self.verifier.fault._kind}

    # ------------------------------------------------------------------------------------------ turns

    def _turn(self, text: str) -> None:
        before, kinds = self._counters(), self._kinds()
        try:
            reply = self.engine.handle(text, self.cid)
        except ConversationNotFound:
            # Only a conversation whose every turn failed to persist can be missing.
            assert not self.exists, "a persisted conversation was not found"
            self.cid, self.exists = None, False
            self.conversation.forget()
            return
        after = self._counters()
        hit = {k for k in after if after[k] > before[k]}
        self.cid = reply.conversation_id
        self.exists = self.exists or reply.persisted
        problems = self.conversation.after_turn(text, reply, llm_limit=self.max_llm_calls)
        for site in ("understand", "generate", "repair", "entail"):
            if site in hit and kinds[site] in CLOSED and reply.outcome != "abstain":
                problems.append(f"{kinds[site]} fault at {site} but the outcome is {reply.outcome}/{reply.reason}")
        if "index" in hit and (reply.outcome, reply.reason) != ("abstain", "index_unavailable"):
            problems.append(f"index fault but the outcome is {reply.outcome}/{reply.reason}")
        if "read" in hit and (reply.memory_loaded or reply.persisted):
            problems.append("store read fault but the turn claims memory or persistence")
        if "write" in hit and reply.persisted:
            problems.append("store write fault but the reply says persisted")
        assert not problems, f"«{text}» → {reply.outcome}/{reply.reason}: " + "; ".join(problems)

    @rule(text=turn())
    def user_turn(self, text: str) -> None:
        self._turn(text)

    @rule(text=question)
    def new_conversation(self, text: str) -> None:
        self.cid, self.exists = None, False
        self.conversation.forget()
        self._turn(text)

    @precondition(lambda self: self.cid is not None)
    @rule(text=st.sampled_from(("không biết", "không rõ", "chịu")))
    def non_answer(self, text: str) -> None:
        self._turn(text)

    # ----------------------------------------------------------------------------------------- faults

    @rule(fault=faults, n=times)
    def provider_fault(self, fault: tuple[str, str], n: int | None) -> None:
        site, kind = fault
        target = {"understand": self.understander.fault, "generate": self.generator.generate_fault,
                  "repair": self.generator.repair_fault, "entail": self.verifier.fault}[site]
        target.fail(kind, n)

    @rule()
    def heal_providers(self) -> None:
        self.understander.heal()
        self.generator.heal()
        self.verifier.heal()

    @rule(reads=st.booleans(), n=times)
    def store_fault(self, reads: bool, n: int | None) -> None:
        (self.store.fail_reads if reads else self.store.fail_writes)(n)

    @rule()
    def heal_store(self) -> None:
        self.store.heal()

    @rule(n=times)
    def index_fault(self, n: int | None) -> None:
        self.index.fail(n)

    @rule()
    def heal_index(self) -> None:
        self.index.heal()

    @rule(n=st.integers(1, 8))
    def call_budget(self, n: int) -> None:
        # A tighter limit is a new spec (the limits live in it): a new engine over the same store and providers.
        self.max_llm_calls = n
        self.engine = build_engine(
            self.kit.settings, index=self.index, store=self.store, understander=self.understander,
            generator=self.generator, verifier=self.verifier, spec=build_spec(max_calls=n),
        ).engine

    @rule()
    def restart(self) -> None:
        self.store.close()
        self._build()

    # ------------------------------------------------------------------------------------- invariants

    @invariant()
    def stored_streak_is_within_the_limit(self) -> None:
        if self.cid is not None and self.exists:
            snapshot = self.store.inner.load(self.cid, None)
            assert snapshot is not None and snapshot.clarify_streak <= 4, snapshot

    def teardown(self) -> None:
        self.store.close()


# Unset values (max_examples, derandomize) come from the loaded profile: "ci" in `make test`.
EngineUnderFaults.TestCase.settings = settings(
    stateful_step_count=12,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
TestEngineUnderFaults = EngineUnderFaults.TestCase
