"""No-op state steps: the engine's own machine, each work state's step returning a prepared update.

bench.noop makes the providers no-ops, but the engine's states still do their own work every turn (frame merge,
refusal patterns, query synthesis, the grounding check, reply composition); LangGraph's reference nodes
(bench.langgraph_reference) only return prepared dicts. For a like-for-like comparison this module derives a spec
from the real one in which each step on the no-op turn's path returns the `Update` the real step returned on one
no-op turn, recorded once (as LangGraph's values are prepared once). Everything else is the engine's own: the same
states, triggers, guards (each evaluated and traced), transitions and `transitions` machine, the budget, the
clarify-streak guard, and `Engine.handle` with its store read and one durable commit per turn.

The derived spec differs from the real one only in its steps, so its fingerprint differs (a step's name is part
of it); the engine code is unchanged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from core.budget import RequestBudget
from engine.context import TurnContext
from engine.runner import Engine
from engine.spec import MachineSpec
from states.step import Services, Step, TurnView, Update


def with_steps(spec: MachineSpec, steps: Mapping[str, Step]) -> MachineSpec:
    """`spec` with the named states' steps swapped; every other state, and every guard, transition and limit,
    is the spec's own object."""
    unknown = set(steps) - {s.name for s in spec.states if s.step is not None}
    if unknown:
        raise ValueError(f"no work state with a step named {sorted(unknown)}")
    states = tuple(dataclasses.replace(s, step=steps[s.name]) if s.name in steps else s for s in spec.states)
    return MachineSpec(states, spec.guards, spec.transitions, spec.initial, spec.limits)


def _recording(name: str, step: Step, into: dict[str, Update]) -> Step:
    def recorded(view: TurnView, services: Services) -> Update:
        out = step(view, services)
        if name in into:  # verify ⇄ repair: one prepared update could not replay the loop
            raise ValueError(f"state {name!r} ran twice in the recorded turn; a prepared update cannot replay it")
        into[name] = out
        return out
    return recorded


def prepared_step(update: Update) -> Step:
    """A step that does no work: it returns `update`, prepared once, on every turn."""
    def prepared(view: TurnView, services: Services) -> Update:
        return update
    return prepared


@dataclasses.dataclass(frozen=True)
class RecordedTurn:
    updates: Mapping[str, Update]
    """The update each work state's real step returned, by state."""
    states: tuple[str, ...]
    """The states the turn visited, resting state to resting state."""


def record_turn(engine: Engine, text: str) -> RecordedTurn:
    """Run `text` as the first turn of a new conversation through `engine`'s real steps, persisting nothing, and
    record what each step returned and the states the turn visited."""
    recorded: dict[str, Update] = {}
    spec = engine.spec
    recorder = dataclasses.replace(engine, spec=with_steps(spec, {
        s.name: _recording(s.name, s.step, recorded) for s in spec.states if s.step is not None}))
    limits = spec.limits
    ctx = TurnContext(text=text, budget=RequestBudget(limits.max_wall_clock_ms, limits.max_llm_calls, engine.clock),
                      limits=limits)
    recorder.drive(ctx, spec.initial)
    return RecordedTurn(updates=dict(recorded), states=tuple(ctx.trace.states))


def noop_state_spec(spec: MachineSpec, turn: RecordedTurn) -> MachineSpec:
    """`spec` with each step the recorded turn ran replaced by one returning its recorded update. Steps the turn
    did not reach (asking, the other retrieval paths, calculating, repairing, the other outcomes) stay the real
    ones: a no-op turn that left the recorded path would run them, and its state path would show it."""
    return with_steps(spec, {name: prepared_step(update) for name, update in turn.updates.items()})
