"""The orchestration bench's like-for-like engine: the real spec with prepared steps takes the real no-op turn's path."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.engines import offline_settings
from bench.noop import NoOpGenerator, NoOpIndex, NoOpUnderstander, NoOpVerifier
from bench.noop_states import noop_state_spec, prepared_step, record_turn, with_steps
from engine.spec import MachineSpec
from engine.wiring import Runtime, build_engine
from states.step import Update

QUESTION = "Chống chỉ định của paracetamol?"
FOLLOW_UP = "Còn khi suy gan thì sao?"


def _runtime(data_dir: Path, spec: MachineSpec | None = None) -> Runtime:
    return build_engine(offline_settings(data_dir), index=NoOpIndex(), understander=NoOpUnderstander(),
                        generator=NoOpGenerator(), verifier=NoOpVerifier(), spec=spec)


@pytest.fixture
def own(tmp_path: Path) -> Iterator[Runtime]:
    runtime = _runtime(tmp_path / "own")
    yield runtime
    runtime.close()


def test_the_prepared_engine_answers_every_turn_along_the_real_engines_path(own: Runtime, tmp_path: Path) -> None:
    recorded = record_turn(own.engine, QUESTION)
    real = own.engine.handle(QUESTION)
    assert real.trace is not None and tuple(real.trace.states) == recorded.states
    assert recorded.states == ("ready", "understanding", "routing", "retrieving_single", "generating", "verifying",
                               "answered", "ready")
    prepared = _runtime(tmp_path / "prepared", noop_state_spec(own.engine.spec, recorded))
    try:
        first = prepared.engine.handle(QUESTION)
        second = prepared.engine.handle(FOLLOW_UP, first.conversation_id)
        for reply in (first, second):
            assert (reply.outcome, reply.reason, reply.persisted) == ("answerable", real.reason, True)
            assert reply.trace is not None and tuple(reply.trace.states) == recorded.states
            assert reply.reply == real.reply
        assert second.turn == 2
    finally:
        prepared.close()


def test_only_the_steps_change_every_guard_transition_and_limit_is_the_specs_own(own: Runtime) -> None:
    spec = own.engine.spec
    recorded = record_turn(own.engine, QUESTION)
    derived = noop_state_spec(spec, recorded)
    assert derived.guards is spec.guards and derived.transitions is spec.transitions and derived.limits is spec.limits
    for real, swapped in zip(spec.states, derived.states, strict=True):
        assert real == swapped  # name, kind, trigger, reads, writes (the step is not part of equality)
        assert (swapped.step is real.step) == (real.name not in recorded.updates)


def test_a_step_can_only_be_swapped_on_a_work_state_that_has_one(own: Runtime) -> None:
    with pytest.raises(ValueError, match="routing"):
        with_steps(own.engine.spec, {"routing": prepared_step(Update())})
