"""The process's one machine: turns fire its own events, and its debug logging costs nothing when it is off."""

from __future__ import annotations

import logging

import pytest

from engine.machine import QuietTurnMachine, TurnMachine, build_machine
from engine.spec import build_spec
from states.frame import QueryFrame
from states.scripted import ScriptedUnderstander
from tests.unit.machine_kit import make_engine

DOSE = QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], section_key="lieu_luong_cach_dung",
                  population="pediatric", age_months=60)


def test_a_turn_never_adds_itself_to_the_machine() -> None:
    engine = make_engine(ScriptedUnderstander([DOSE]))
    reply = engine.handle("Liều paracetamol cho bé 5 tuổi?")
    assert (reply.outcome, reply.reason) == ("clarify", "missing_pediatric_age_or_weight")
    assert engine.machine.models == []


def test_with_transitions_logged_at_debug_the_machine_logs_and_routes_the_same(
    caplog: pytest.LogCaptureFixture,
) -> None:
    quiet = make_engine(ScriptedUnderstander([DOSE])).handle("Liều paracetamol cho bé 5 tuổi?")
    assert type(build_machine(build_spec())) is QuietTurnMachine
    with caplog.at_level(logging.DEBUG, logger="transitions"):
        engine = make_engine(ScriptedUnderstander([DOSE]))
        assert type(engine.machine) is TurnMachine
        logged = engine.handle("Liều paracetamol cho bé 5 tuổi?")
    assert any("Initiating transition" in r.getMessage() for r in caplog.records)
    assert logged.trace.states == quiet.trace.states
    assert logged.trace.guards == quiet.trace.guards
    assert (logged.outcome, logged.reason, logged.reply) == (quiet.outcome, quiet.reason, quiet.reply)


def test_two_turns_share_the_machines_frozen_guard_and_transition_records() -> None:
    engine = make_engine(ScriptedUnderstander([DOSE, DOSE]))
    first = engine.handle("Liều paracetamol cho bé 5 tuổi?")
    second = engine.handle("Liều paracetamol cho bé 5 tuổi?")
    assert first.trace.guards == second.trace.guards
    assert all(a is b for a, b in zip(first.trace.guards, second.trace.guards, strict=True))
    assert all(a is b for a, b in zip(first.trace.transitions, second.trace.transitions, strict=True))
    with pytest.raises(ValueError, match="frozen"):
        first.trace.guards[0].result = not first.trace.guards[0].result


def test_a_quiet_turn_builds_no_event_data_and_routes_as_the_library_does(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.machine as machine_module

    built: list[object] = []
    real = machine_module.EventData

    def counting(*args: object) -> object:
        built.append(args)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(machine_module, "EventData", counting)
    quiet = make_engine(ScriptedUnderstander([DOSE])).handle("Liều paracetamol cho bé 5 tuổi?")
    assert built == []
    library = make_engine(ScriptedUnderstander([DOSE]))
    library.machine = machine_module.build_machine_as(build_spec(), TurnMachine)
    through_library = library.handle("Liều paracetamol cho bé 5 tuổi?")
    assert (quiet.trace.states, quiet.trace.transitions, quiet.trace.guards, quiet.reason, quiet.reply) == (
        through_library.trace.states, through_library.trace.transitions, through_library.trace.guards,
        through_library.reason, through_library.reply)
