"""Each work state's step is declared in the spec with what it reads and writes, and the runner holds it to that."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pytest

from core.budget import RequestBudget
from core.corpus import Chunk
from engine.runner import UndeclaredWrite
from engine.spec import MachineSpec, StateSpec, TransitionSpec, build_spec
from grounding.answer import Answer, EntailmentResult
from states.frame import QueryFrame
from states.scripted import ScriptedUnderstander
from states.step import Services, Step, TurnView, Update
from tests.unit.machine_kit import make_engine

SINGLE = QueryFrame(turn_type="drug_attribute", drugs=["paracetamol"], section_key="chong_chi_dinh")
INTERACTION = QueryFrame(turn_type="interaction", drugs=["ibuprofen", "acid_acetylsalicylic"],
                         section_key="tuong_tac_thuoc")
QUARANTINED = QueryFrame(turn_type="interaction", drugs=["warfarin", "acid_acetylsalicylic"],
                         section_key="tuong_tac_thuoc")
CONDITION_PREGNANT = QueryFrame(turn_type="condition_to_drug", condition="sốt", pregnant=True)
NO_DRUG = QueryFrame(turn_type="drug_attribute", section_key="chi_dinh")
SMALLTALK = QueryFrame(turn_type="smalltalk")


class OmitsOnceVerifier:
    """Reports one grounded omission on the first answer, accepts the repaired one: drives verifying ⇄ repairing."""

    name = "omits-once"
    calls_llm = False

    def __init__(self) -> None:
        self.calls = 0

    def verify(self, answer: Answer, evidence: Sequence[Chunk], budget: RequestBudget) -> EntailmentResult:
        self.calls += 1
        if self.calls == 1:
            return EntailmentResult(ok=False, omissions=["Quá mẫn với paracetamol."])
        return EntailmentResult(ok=True)


class ReadRecorder:
    """A TurnView that records every attribute a step reads."""

    def __init__(self, ctx: TurnView, seen: set[str]) -> None:
        self._ctx, self._seen = ctx, seen

    def __getattr__(self, name: str) -> Any:
        self._seen.add(name)
        return getattr(self._ctx, name)


def _recording(spec: MachineSpec, reads: dict[str, set[str]]) -> MachineSpec:
    def wrap(state: StateSpec) -> StateSpec:
        step = state.step
        if step is None:
            return state
        seen = reads.setdefault(state.name, set())

        def recorded(ctx: TurnView, services: Services, step: Step = step) -> Update:
            return step(ReadRecorder(ctx, seen), services)

        return dataclasses.replace(state, step=recorded)

    return dataclasses.replace(spec, states=tuple(wrap(s) for s in spec.states))


def test_every_work_state_but_routing_names_its_step_in_a_states_module() -> None:
    spec = build_spec()
    for state in spec.states:
        if state.kind == "resting" or state.name == "routing":
            assert state.step is None, state.name
        else:
            assert state.step is not None and state.step.__module__.startswith("states."), state.name
            assert state.writes, state.name


def test_every_step_reads_only_what_its_state_declares() -> None:
    spec = build_spec()
    reads: dict[str, set[str]] = {}
    frames = [SINGLE, INTERACTION, QUARANTINED, CONDITION_PREGNANT, NO_DRUG, SMALLTALK]
    engine = make_engine(ScriptedUnderstander(frames), spec=_recording(spec, reads), verifier=OmitsOnceVerifier())
    outcomes = [engine.handle("?").outcome for _ in frames]
    assert set(outcomes) == {"answerable", "verify_pdf", "clarify"}
    assert {"repairing", "reviewing_safety", "retrieving_interaction", "asking"} <= {s for s, r in reads.items() if r}
    for name, seen in reads.items():
        assert seen <= set(spec.state(name).reads), f"{name} reads {sorted(seen - set(spec.state(name).reads))}"


def test_a_step_that_writes_a_field_its_state_does_not_declare_is_refused() -> None:
    spec = build_spec()
    asking = spec.state("asking")
    narrowed = dataclasses.replace(asking, writes=("reply_text", "quick_replies"))
    broken = dataclasses.replace(spec, states=tuple(narrowed if s is asking else s for s in spec.states))
    engine = make_engine(ScriptedUnderstander([NO_DRUG]), spec=broken)
    with pytest.raises(UndeclaredWrite, match="'asking' wrote 'new_pending'"):
        engine.handle("thuốc này dùng để làm gì?")


def test_a_transition_on_a_trigger_its_state_does_not_fire_is_refused() -> None:
    spec = build_spec()
    stray = TransitionSpec("route", "asking", "clarified")
    with pytest.raises(ValueError, match="state 'asking' fires 'ask'"):
        dataclasses.replace(spec, transitions=(*spec.transitions, stray))


def test_the_fingerprint_changes_when_a_state_declares_another_read() -> None:
    from engine.fingerprint import spec_fingerprint

    spec = build_spec()
    asking = spec.state("asking")
    wider = dataclasses.replace(asking, reads=(*asking.reads, "history"))
    other = dataclasses.replace(spec, states=tuple(wider if s is asking else s for s in spec.states))
    assert spec_fingerprint(other) != spec_fingerprint(spec)


def test_the_understand_command_carries_what_the_spec_would_ask_into_the_next_turn() -> None:
    from engine.commands.understand import understand_turns

    asked = QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], section_key="lieu_luong_cach_dung",
                       population="pediatric")
    understander = ScriptedUnderstander([asked, QueryFrame(weight_kg=18)])
    engine = make_engine(understander)
    frame, _ = understand_turns(engine, ["Liều paracetamol cho trẻ em?", "Bé nặng 18 kg"], RequestBudget())
    second = understander.requests[1]
    assert second.pending is not None and second.pending.reason == "missing_pediatric_age_or_weight"
    assert second.pending.missing == ["age", "weight"]
    assert (frame.drugs, frame.population, frame.weight_kg) == (["paracetamol"], "pediatric", 18)
    assert not engine.metrics.turns  # no turn was completed or stored: the command stops before retrieval
