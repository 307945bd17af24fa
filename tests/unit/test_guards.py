"""The two guards that bound every conversation: the clarify streak and the per-turn request budget."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from starlette.testclient import TestClient

from core.budget import RequestBudget
from engine.config import load_settings
from engine.context import TurnContext
from engine.fingerprint import spec_fingerprint
from engine.http.app import create_app
from engine.limits import Limits
from engine.spec import build_spec
from engine.store import MemoryStore
from engine.wiring import Runtime
from grounding.answer import Answer, Claim, GenerationRequest
from states.frame import QueryFrame
from states.scripted import ScriptedUnderstander
from states.understander import UnderstandingRequest
from tests.unit.machine_kit import make_engine

NO_DRUG = QueryFrame(turn_type="drug_attribute", section_key="chi_dinh")
ANSWERABLE = QueryFrame(turn_type="drug_attribute", drugs=["paracetamol"], section_key="chi_dinh")
NO_CONDITION = QueryFrame(turn_type="condition_to_drug")


def test_fifth_consecutive_clarify_becomes_clarify_loop_exhausted() -> None:
    engine = make_engine(ScriptedUnderstander([NO_DRUG] * 5))
    first = engine.handle("thuốc này dùng để làm gì?")
    cid = first.conversation_id
    outcomes = [first.outcome] + [engine.handle("không biết", cid).outcome for _ in range(3)]
    assert outcomes == ["clarify"] * 4
    fifth = engine.handle("không biết", cid)
    assert (fifth.outcome, fifth.reason) == ("abstain", "clarify_loop_exhausted")
    assert "nêu lại đầy đủ câu hỏi" in fifth.reply and fifth.quick_replies == []
    assert fifth.state == "ready"


def test_an_answer_resets_the_streak() -> None:
    engine = make_engine(ScriptedUnderstander([NO_DRUG] * 3 + [ANSWERABLE] + [NO_CONDITION] * 5))
    cid = engine.handle("?").conversation_id
    engine.handle("?", cid)
    engine.handle("?", cid)
    assert engine.handle("paracetamol", cid).outcome == "answerable"
    after = [engine.handle("thuốc nào?", cid).reason for _ in range(5)]
    assert after == ["no_condition"] * 4 + ["clarify_loop_exhausted"]  # the count restarted at the answer


def test_streak_survives_a_new_engine_on_the_same_store() -> None:
    store = MemoryStore()
    first = make_engine(ScriptedUnderstander([NO_DRUG] * 3), store=store)
    cid = first.handle("?").conversation_id
    first.handle("?", cid)
    first.handle("?", cid)
    restarted = make_engine(ScriptedUnderstander([NO_DRUG] * 2), store=store)
    assert restarted.handle("?", cid).outcome == "clarify"  # the 4th
    assert restarted.handle("?", cid).reason == "clarify_loop_exhausted"  # the 5th, counted across the restart


def test_streak_limit_is_configurable() -> None:
    engine = make_engine(ScriptedUnderstander([NO_DRUG] * 3), spec=build_spec(max_clarify=2))
    cid = engine.handle("?").conversation_id
    assert engine.handle("?", cid).outcome == "clarify"
    assert engine.handle("?", cid).reason == "clarify_loop_exhausted"


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class CountingLlmGenerator:
    """A generator that calls an LLM: it asks the budget first, as every provider call must."""

    name = "counting"
    calls_llm = True

    def __init__(self) -> None:
        self.sent = 0

    def generate(self, request: GenerationRequest, budget: RequestBudget) -> Answer:
        budget.require("generate")
        self.sent += 1
        c = request.evidence[0]
        return Answer(claims=[Claim(text=c.text, citations=[c.doc_id])])

    def repair(self, request: GenerationRequest, answer: Answer, omissions: Sequence[str],
               budget: RequestBudget) -> Answer:
        return answer


def test_budget_guard_abstains_when_the_clock_runs_out_mid_turn() -> None:
    clock = FakeClock()

    def slow_understanding(request: UnderstandingRequest) -> QueryFrame:
        clock.now += 41_000  # the understanding call took 41 s
        return ANSWERABLE

    generator = CountingLlmGenerator()
    engine = make_engine(ScriptedUnderstander(slow_understanding), generator=generator, clock=clock)
    reply = engine.handle("chỉ định của paracetamol?")
    assert (reply.outcome, reply.reason) == ("abstain", "budget_exhausted")
    assert generator.sent == 0  # checked before the call, never after
    assert any(g.guard == "budget_remaining" and not g.result for g in reply.trace.guards)


def test_budget_guard_abstains_when_the_call_count_runs_out() -> None:
    generator = CountingLlmGenerator()
    engine = make_engine(ScriptedUnderstander([ANSWERABLE], calls_llm=True), generator=generator,
                         spec=build_spec(max_calls=1))
    reply = engine.handle("chỉ định của paracetamol?")
    assert (reply.outcome, reply.reason) == ("abstain", "budget_exhausted")
    assert generator.sent == 0
    assert len(reply.trace.llm_calls) == 0 or all(c.call_site == "understand" for c in reply.trace.llm_calls)


def test_require_raises_before_the_call_when_budget_is_spent_inside_a_state() -> None:
    class TwoCallGenerator(CountingLlmGenerator):
        def generate(self, request: GenerationRequest, budget: RequestBudget) -> Answer:
            budget.require("generate")
            budget.require("generate-retry")  # the 2nd call in this state exceeds the budget
            self.sent += 1
            return super().generate(request, budget)

    generator = TwoCallGenerator()
    engine = make_engine(ScriptedUnderstander([ANSWERABLE]), generator=generator, spec=build_spec(max_calls=1))
    reply = engine.handle("chỉ định của paracetamol?")
    assert (reply.outcome, reply.reason) == ("abstain", "budget_exhausted")
    assert generator.sent == 0


def test_evidence_with_quarantine_is_never_generated_over() -> None:
    generator = CountingLlmGenerator()
    frame = QueryFrame(turn_type="interaction", drugs=["warfarin", "acid_acetylsalicylic"], section_key="tuong_tac_thuoc")
    reply = make_engine(ScriptedUnderstander([frame]), generator=generator).handle("warfarin với aspirin?")
    assert reply.outcome == "verify_pdf" and generator.sent == 0



def test_an_engine_built_with_a_limit_of_two_carries_the_fingerprint_of_a_limit_of_two() -> None:
    engine = make_engine(ScriptedUnderstander([NO_DRUG] * 3), spec=build_spec(max_clarify=2))
    assert engine.fingerprint == spec_fingerprint(build_spec(max_clarify=2)) != spec_fingerprint(build_spec())
    cid = engine.handle("?").conversation_id
    assert engine.handle("?", cid).outcome == "clarify"
    third = engine.handle("?", cid)
    assert third.reason == "clarify_loop_exhausted" and third.spec_fingerprint == engine.fingerprint


def test_the_machine_endpoint_and_the_streak_guard_read_one_limits_object() -> None:
    spec = build_spec(max_clarify=2, max_calls=3)
    engine = make_engine(ScriptedUnderstander([NO_DRUG] * 3), spec=spec)
    runtime = Runtime(settings=load_settings(), engine=engine, index=engine.retrieval.index, store=engine.store)
    with TestClient(create_app(runtime=runtime)) as client:
        body = client.get("/v1/machine").json()
    assert body["fingerprint"] == engine.fingerprint == spec_fingerprint(spec)
    assert body["limits"] == {"MAX_CONSECUTIVE_CLARIFY": 2, "MAX_WALL_CLOCK_MS": 40_000, "MAX_LLM_CALLS_PER_TURN": 3}
    assert ["MAX_CONSECUTIVE_CLARIFY", 2] in body["spec"]["limits"]
    # What the guard reads during a turn is that same object, not a copy that could drift from it.
    seen: list[Limits] = []
    streak_guard = spec.guard("clarify_streak_exhausted")

    def spying(ctx: TurnContext) -> bool:
        seen.append(ctx.limits)
        return streak_guard.predicate(ctx)

    spied = make_engine(ScriptedUnderstander([NO_DRUG]), spec=spec.replace_guard("clarify_streak_exhausted", spying))
    spied.handle("?")
    assert seen and all(limits is spied.spec.limits for limits in seen)
    assert spied.spec.limits is spec.limits


def test_a_guard_label_quoting_another_limit_than_the_spec_holds_is_refused() -> None:
    spec = build_spec(max_clarify=2)
    with pytest.raises(ValueError, match="MAX_CONSECUTIVE_CLARIFY=2, but the spec's limit is 4"):
        dataclasses.replace(spec, limits=Limits())
