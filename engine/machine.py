"""Build the one `transitions` machine a process runs, from the spec data.

`model=None`, `auto_transitions=False`: the machine has no model of its own, and no turn is ever added to it.
A turn's context carries its current state (`ctx.state`) and the runner fires the machine's own events on it
(`TurnMachine.fire`: `Event.trigger(ctx)`, the guards in spec order, first match wins), so the object that runs
is the object that is exported and drawn, without `add_model`/`remove_model` per turn (which rebuilt a
trigger method per event and an `is_<state>` per state on every turn, and mutated a shared model list under a
lock). Every guard is wrapped so its evaluation is recorded in the turn (as a plain tuple, made into the
trace's records once per turn), and every transition records itself and the reason it decides.

Concurrency: a non-queued `transitions.Machine` keeps all per-turn state on the model (each trigger builds its
own EventData), and no turn mutates the machine, so turns run on different worker threads at once without a
lock. (`LockedMachine` would lock every trigger: measured 3× slower per turn.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from transitions import EventData, Machine

from engine.context import TurnContext
from engine.spec import Guard, MachineSpec, TransitionSpec


def _traced(guard: Guard) -> Callable[[EventData], bool]:
    name, predicate = guard.name, guard.predicate

    def check(event: EventData) -> bool:
        ctx = cast(TurnContext, event.model)
        result = bool(predicate(ctx))
        ctx.guard_log.append((ctx.state, name, result))
        return result

    check.__name__ = guard.name
    return check


def _after(spec: TransitionSpec) -> Callable[[EventData], None]:
    def taken(event: EventData) -> None:
        ctx = cast(TurnContext, event.model)
        ctx.record_transition(spec.source, spec.trigger, spec.dest, spec.row)
        ctx.trace.states.append(spec.dest)
        if spec.reason is not None:
            ctx.reason = spec.reason

    return taken


class TurnMachine(Machine):
    """The process's one machine. Turns are never added to it: `fire` runs one of its events on a turn."""

    def fire(self, ctx: TurnContext, trigger: str) -> None:
        """Fire `trigger` from `ctx.state`: its transitions in spec order, the first whose guards all pass."""
        if not self.events[trigger].trigger(ctx):
            raise RuntimeError(f"no transition on {trigger!r} out of {ctx.state!r} passed its guards")


def build_machine(spec: MachineSpec) -> TurnMachine:
    guards = {g.name: _traced(g) for g in spec.guards}
    transitions: list[dict[str, Any]] = []
    for t in spec.transitions:
        transitions.append(
            {
                "trigger": t.trigger,
                "source": t.source,
                "dest": t.dest,
                "conditions": [guards[name] for name in t.guards],
                "after": [_after(t)],
            }
        )
    return TurnMachine(
        model=None,
        states=[s.name for s in spec.states],
        transitions=transitions,
        initial=spec.initial,
        auto_transitions=False,
        send_event=True,
        ignore_invalid_triggers=False,
    )
