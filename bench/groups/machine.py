"""Machine overhead per turn (issue 2): routing through every guard, no I/O, no work functions.

The process's one `transitions` machine is built from `engine.spec.build_spec` as the engine builds it; each
measured turn adds a TurnContext whose frame and evidence are already prepared (what the work functions
would have written), fires the triggers exactly as `Engine._run` does, until a resting state, and removes the
context. What is timed is therefore the machine's own work: add_model, every guard evaluation (traced), every
transition callback, remove_model.
"""

from __future__ import annotations

from collections.abc import Callable

from bench.results import Distribution, GroupResult, at_most
from bench.timing import cycle, time_each
from engine.context import TurnContext
from engine.machine import build_machine
from engine.spec import MachineSpec, build_spec
from grounding.answer import Answer, Claim, EntailmentResult, GroundingResult
from grounding.budget import RequestBudget
from retrieval.corpus import Chunk
from states.frame import QueryFrame

TITLE = "machine overhead per turn (routing through all guards, no I/O)"
TURNS = 6_000
TARGET_P50_MS = 0.5


def _chunk(drug: str, section: str, text: str, quarantined: bool = False) -> Chunk:
    return Chunk(doc_id=f"{drug}__{section}__0", drug_id=drug, section_key=section, text=text, page=1,
                 has_quarantined_content=quarantined)


_ANSWER = Answer(claims=[Claim(text="Suy gan nặng.", citations=["paracetamol__chong_chi_dinh__0"])])
_OK = {"answer": _ANSWER, "grounding": GroundingResult(ok=True), "entailment": EntailmentResult(ok=True)}

Scenario = tuple[str, Callable[[], TurnContext], str]
"""(name, a fresh prepared context, the outcome state it must reach)."""


def _ctx(frame: QueryFrame, **prepared: object) -> TurnContext:
    ctx = TurnContext(text="(prepared)", budget=RequestBudget())
    ctx.frame = frame
    for key, value in prepared.items():
        setattr(ctx, key, value)
    return ctx


SCENARIOS: tuple[Scenario, ...] = (
    ("single drug, answered (row 16: every routing guard)",
     lambda: _ctx(QueryFrame(turn_type="drug_attribute", drugs=["paracetamol"], section_key="chong_chi_dinh"),
                  evidence=[_chunk("paracetamol", "chong_chi_dinh", "Suy gan nặng.")], **_OK), "answered"),
    ("paediatric dose, complete, answered",
     lambda: _ctx(QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], population="pediatric",
                             age_months=60, weight_kg=18),
                  evidence=[_chunk("paracetamol", "lieu_luong_cach_dung", "*Uống – Trẻ em:* 15 mg/kg/lần.")],
                  routes_found=["oral"], **_OK), "answered"),
    ("dose without population, clarified (row 2)",
     lambda: _ctx(QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"])), "clarified"),
    ("interaction, answered (row 15)",
     lambda: _ctx(QueryFrame(turn_type="interaction", drugs=["warfarin", "acid_acetylsalicylic"]),
                  evidence=[_chunk("warfarin", "tuong_tac_thuoc", "Aspirin làm tăng nguy cơ chảy máu.")], **_OK),
     "answered"),
    ("condition with patient context, safety review, answered (row 7)",
     lambda: _ctx(QueryFrame(turn_type="condition_to_drug", condition="tăng huyết áp", pregnant=True),
                  evidence=[_chunk("amlodipin", "chi_dinh", "Tăng huyết áp.")], candidates=["amlodipin"],
                  safety_evidence=[_chunk("amlodipin", "thoi_ky_mang_thai", "Chỉ dùng khi thật cần.")], **_OK),
     "answered"),
    ("quarantined evidence, flagged",
     lambda: _ctx(QueryFrame(turn_type="interaction", drugs=["warfarin", "ibuprofen"]),
                  evidence=[_chunk("warfarin", "tuong_tac_thuoc", "| bảng |", quarantined=True)]), "flagged"),
    ("non-human subject, abstained (row 1)",
     lambda: _ctx(QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], non_human=True)), "abstained"),
    ("smalltalk, answered (row 11)", lambda: _ctx(QueryFrame(turn_type="smalltalk")), "answered"),
)


class WorkFreeRunner:
    """`Engine._run` without the work functions: fire each state's trigger until a resting state."""

    def __init__(self, spec: MachineSpec) -> None:
        self.spec = spec
        self.machine = build_machine(spec)
        self.resting = set(spec.resting_states)

    def turn(self, ctx: TurnContext, initial: str = "ready") -> None:
        self.machine.add_model(ctx, initial=initial)
        try:
            ctx.trace.states.append(initial)
            steps = 0
            while True:
                triggers = self.spec.triggers_from(ctx.state)
                ctx.trigger(triggers[0])  # type: ignore[attr-defined]
                steps += 1
                if ctx.state in self.resting or steps > 64:
                    return
        finally:
            self.machine.remove_model(ctx)


def _outcome_of(ctx: TurnContext) -> str:
    return ctx.trace.states[-2] if len(ctx.trace.states) >= 2 else ctx.state


def run() -> GroupResult:
    runner = WorkFreeRunner(build_spec())
    result = GroupResult(group="machine", title=TITLE)
    # Every scenario must reach the outcome it is meant to exercise, or the timing would measure a wrong path.
    guards_per_turn: dict[str, int] = {}
    for name, make, expected in SCENARIOS:
        ctx = make()
        runner.turn(ctx)
        reached = _outcome_of(ctx)
        if reached != expected:
            result.notes.append(f"scenario {name!r} reached {reached}, expected {expected}")
        guards_per_turn[name] = len(ctx.trace.guards)

    per_scenario = TURNS // len(SCENARIOS)
    all_samples: list[float] = []
    for name, make, _ in SCENARIOS:
        contexts = [make() for _ in range(per_scenario + 50)]
        samples = time_each(runner.turn, contexts, warmup=50)[50:]
        result.figures[name] = Distribution.of(samples)
        all_samples += samples
    # The mix: the scenarios interleaved, so no one of them enjoys a warmer cache than the others.
    mixed = cycle([make for _, make, _ in SCENARIOS], TURNS)
    contexts = [make() for make in mixed]
    mix = time_each(runner.turn, contexts, warmup=200)
    result.figures["mix of all scenarios, per turn"] = Distribution.of(mix)
    result.values["guards evaluated per turn (min–max over scenarios)"] = (
        f"{min(guards_per_turn.values())}–{max(guards_per_turn.values())}")
    result.setup = {
        "machine": "transitions LockedMachine from engine.spec.build_spec (model=None, auto_transitions=False)",
        "turn": "add_model → triggers until a resting state (as Engine._run) → remove_model; work functions "
                "replaced by prepared frames/evidence",
        "samples": f"{len(SCENARIOS)} scenarios × {per_scenario} turns, then a mixed run of {TURNS} turns",
    }
    result.targets.append(at_most(2, "machine work per turn (mix), p50", result.figures[
        "mix of all scenarios, per turn"].p50, TARGET_P50_MS, "ms", label="p50 "))
    return result
