"""Machine overhead per turn (issue 2): routing through every guard, no I/O, no work functions.

The process's one `transitions` machine is built from `engine.spec.build_spec` as the engine builds it; each
measured turn takes a TurnContext whose frame and evidence are already prepared (what the steps would have
written), sets its state, fires each state's trigger on it exactly as `Engine.drive` does (the machine's own
events, no add_model/remove_model), until a resting state, and closes its trace. What is timed is therefore the
machine's own work: every guard evaluation (traced), every transition callback, the trace records.
"""

from __future__ import annotations

from collections.abc import Callable

from transitions import Machine

from bench.results import Distribution, GroupResult, at_most, compare
from bench.timing import cycle, interleaved, time_each
from core.budget import RequestBudget
from core.corpus import Chunk
from engine.context import TurnContext
from engine.machine import build_machine, build_machine_as
from engine.spec import MachineSpec, build_spec
from grounding.answer import Answer, Claim, EntailmentResult, GroundingResult
from states.frame import QueryFrame

TITLE = "machine overhead per turn (routing through all guards, no I/O)"
PER_SCENARIO = 200
MIX_TURNS = 2_000
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
    """`Engine.drive` without the steps: fire each state's trigger until a resting state."""

    def __init__(self, spec: MachineSpec, machine: Machine | None = None) -> None:
        self.spec = spec
        self.machine = machine if machine is not None else build_machine(spec)
        self.resting = set(spec.resting_states)
        self.trigger = {s.name: s.trigger for s in spec.states}

    def turn(self, ctx: TurnContext, initial: str = "ready") -> None:
        ctx.state = initial
        ctx.trace.states.append(initial)
        try:
            steps = 0
            while True:
                self.machine.events[self.trigger[ctx.state]].trigger(ctx)
                steps += 1
                if ctx.state in self.resting or steps > 64:
                    return
        finally:
            ctx.close_trace()


def _outcome_of(ctx: TurnContext) -> str:
    return ctx.trace.states[-2] if len(ctx.trace.states) >= 2 else ctx.state


def _locked_machine(spec: MachineSpec) -> Machine:
    """The same machine as transitions' `LockedMachine` (locks every trigger): the design alternative, for comparison."""
    from transitions.extensions import LockedMachine

    return build_machine_as(spec, LockedMachine)


def run() -> GroupResult:
    spec = build_spec()
    runner = WorkFreeRunner(spec)
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

    for name, make, _ in SCENARIOS:
        contexts = [make() for _ in range(PER_SCENARIO + 50)]
        result.figures[name] = Distribution.of(time_each(runner.turn, contexts, warmup=50)[50:])

    # The mix, scenarios interleaved, on the engine's TurnMachine (plain Machine, turns never added) and, side by
    # side on the same turns, on transitions' LockedMachine built from the same spec: what a per-trigger lock costs.
    plain = WorkFreeRunner(spec, _locked_machine(spec))
    mixed = cycle([make for _, make, _ in SCENARIOS], MIX_TURNS)
    pairs = [(make(), make()) for make in mixed]
    for a, b in pairs[:200]:
        runner.turn(a)
        plain.turn(b)
    pairs = [(make(), make()) for make in mixed]
    samples = interleaved({"engine": lambda p: runner.turn(p[0]), "locked": lambda p: plain.turn(p[1])}, pairs)
    mix = Distribution.of(samples["engine"])
    locked_mix = Distribution.of(samples["locked"])
    result.figures["mix of all scenarios, per turn (engine: TurnMachine)"] = mix
    result.figures["same mix on transitions' LockedMachine (comparison)"] = locked_mix
    result.comparisons.append(compare(
        "machine work per turn, p50", "TurnMachine (engine)", mix.p50, "LockedMachine", locked_mix.p50,
        meaning="how many times slower a per-trigger lock would make the machine"))
    result.values["guards evaluated per turn (min–max over scenarios)"] = (
        f"{min(guards_per_turn.values())}–{max(guards_per_turn.values())}")
    result.setup = {
        "machine": "engine.machine.build_machine(engine.spec.build_spec()): a transitions Machine, model=None, "
                   "auto_transitions=False; turns are never added to it",
        "turn": "set the state → fire each state's trigger (the machine's own event) until a resting state (as "
                "Engine.drive) → close the trace; the steps are replaced by prepared frames and evidence",
        "samples": f"{len(SCENARIOS)} scenarios × {PER_SCENARIO} turns each, then a mixed run of {MIX_TURNS} turns "
                   "interleaved with the same turns on a LockedMachine",
    }
    result.targets.append(at_most(2, "machine work per turn (mix), p50", mix.p50, TARGET_P50_MS, "ms", label="p50 "))
    return result
