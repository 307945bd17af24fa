"""The two guards that bound every conversation: the clarify streak and the per-turn request budget."""

from __future__ import annotations

from collections.abc import Sequence

from core.budget import RequestBudget
from engine.runner import EngineLimits
from engine.store import MemoryStore
from grounding.answer import Answer, Claim, GenerationRequest
from states.frame import QueryFrame
from states.scripted import ScriptedUnderstander
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
    engine = make_engine(ScriptedUnderstander([NO_DRUG] * 3), limits=EngineLimits(max_consecutive_clarify=2))
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

    def slow_understanding(request):  # type: ignore[no-untyped-def]
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
                         limits=EngineLimits(max_llm_calls=1))
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
    engine = make_engine(ScriptedUnderstander([ANSWERABLE]), generator=generator, limits=EngineLimits(max_llm_calls=1))
    reply = engine.handle("chỉ định của paracetamol?")
    assert (reply.outcome, reply.reason) == ("abstain", "budget_exhausted")
    assert generator.sent == 0


def test_evidence_with_quarantine_is_never_generated_over() -> None:
    generator = CountingLlmGenerator()
    frame = QueryFrame(turn_type="interaction", drugs=["warfarin", "acid_acetylsalicylic"], section_key="tuong_tac_thuoc")
    reply = make_engine(ScriptedUnderstander([frame]), generator=generator).handle("warfarin với aspirin?")
    assert reply.outcome == "verify_pdf" and generator.sent == 0

