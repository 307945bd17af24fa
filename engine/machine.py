"""Build the one `transitions` machine a process runs, from the spec data.

`model=None`, `auto_transitions=False`: the machine has no model of its own; each turn's context is
added with `add_model(ctx, initial=<persisted state>)` and removed afterwards. Every guard is wrapped
so its evaluation is recorded in the turn trace, and every transition records itself and the reason it
decides. `LockedMachine` serialises triggers across worker threads; a trigger does no I/O, so the lock
is held for microseconds, never across a provider call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from transitions import EventData
from transitions.extensions import LockedMachine

from engine.context import TurnContext
from engine.spec import Guard, MachineSpec, TransitionSpec


def _traced(guard: Guard) -> Callable[[EventData], bool]:
    def check(event: EventData) -> bool:
        ctx = cast(TurnContext, event.model)
        result = bool(guard.predicate(ctx))
        ctx.record_guard(guard.name, result)
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


def build_machine(spec: MachineSpec) -> LockedMachine:
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
    return LockedMachine(
        model=None,
        states=[s.name for s in spec.states],
        transitions=transitions,
        initial=spec.initial,
        auto_transitions=False,
        send_event=True,
        ignore_invalid_triggers=False,
    )
