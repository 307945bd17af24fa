"""Build the one `transitions` machine a process runs, from the spec data.

`model=None`, `auto_transitions=False`: the machine has no model of its own, and no turn is ever added to it.
A turn's context carries its current state (`ctx.state`) and the runner fires the machine's own events on it
(`TurnMachine.fire`: `Event.trigger(ctx)`, the guards in spec order, first match wins), so the object that runs
is the object that is exported and drawn, without `add_model`/`remove_model` per turn (which rebuilt a
trigger method per event and an `is_<state>` per state on every turn, and mutated a shared model list under a
lock). Every guard is wrapped so its evaluation is recorded in the turn, and every transition records itself and
the reason it decides. The records are frozen and shared: one `GuardEvaluation` per (state, guard, result) and one
`TransitionTaken` per spec transition, built once per process, so a turn appends references instead of building
≈30 pydantic objects.

Concurrency: a non-queued `transitions.Machine` keeps all per-turn state on the model (each trigger builds its
own EventData), and no turn mutates the machine, so turns run on different worker threads at once without a
lock. (`LockedMachine` would lock every trigger: measured 3× slower per turn.)

Logging: `transitions` calls `Logger.debug` about 140 times a turn (each transition tried, each guard that fails,
each state entered and left). When the process does not log `transitions` at DEBUG (checked when the machine is
built), the machine uses `Transition`/`State` subclasses that do exactly the same work without those calls.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from typing import Any, TypeVar, cast

from transitions import EventData, Machine, State, Transition

from engine.context import TurnContext
from engine.reply import GuardEvaluation, TransitionTaken
from engine.spec import Guard, MachineSpec, TransitionSpec

M = TypeVar("M", bound=Machine)
_Plan = tuple[tuple[Callable[[EventData], None], ...], State, str]
_Outcomes = tuple[GuardEvaluation, GuardEvaluation]
"""A guard's two possible records in one state: (False, True), indexed by the result."""
_Inline = tuple[tuple[Callable[[TurnContext], None], ...], str, str]
"""What `QuietTurnMachine.fire` does when a transition's guards pass: its `after` records (called with the turn),
the destination state's name, and the model attribute that holds the state."""
_Route = tuple[Transition, tuple[tuple[Callable[[TurnContext], object], _Outcomes], ...], _Inline | None]


class _Traced:
    """A guard as the machine's condition: its predicate's result, recorded in the turn's guard log.

    A plain callable object (not a closure) so `QuietTurnMachine.fire` can read `predicate` and `outcomes` and make
    the same evaluation and the same record without a call through `EventData` per guard."""

    __slots__ = ("__name__", "_outcomes", "name", "predicate")

    def __init__(self, guard: Guard) -> None:
        self.name = self.__name__ = guard.name
        self.predicate = guard.predicate
        self._outcomes: dict[str, _Outcomes] = {}

    def outcomes(self, state: str) -> _Outcomes:
        """The shared records of this guard evaluated in `state` (built on first use; the same pair afterwards,
        and an equal one should two threads build it at once)."""
        pair = self._outcomes.get(state)
        if pair is None:
            pair = self._outcomes[state] = (GuardEvaluation(state=state, guard=self.name, result=False),
                                            GuardEvaluation(state=state, guard=self.name, result=True))
        return pair

    def __call__(self, event: EventData) -> bool:
        ctx = cast(TurnContext, event.model)
        result = bool(self.predicate(ctx))
        ctx.guard_log.append(self.outcomes(ctx.state)[result])
        return result


def _traced(guard: Guard) -> _Traced:
    return _Traced(guard)


class _Taken:
    """A transition's `after` callback: record the transition (its shared record), the state entered, and the
    reason the transition decides. `transitions` calls it with the EventData; `QuietTurnMachine.fire` calls
    `on(ctx)` directly, and so builds no EventData for a transition nothing else reads it for."""

    __slots__ = ("__name__", "dest", "reason", "record")

    def __init__(self, spec: TransitionSpec) -> None:
        self.__name__ = "taken"
        self.record = TransitionTaken(source=spec.source, trigger=spec.trigger, dest=spec.dest, row=spec.row)
        self.dest = spec.dest
        self.reason = spec.reason

    def __call__(self, event: EventData) -> None:
        self.on(cast(TurnContext, event.model))

    def on(self, ctx: TurnContext) -> None:
        ctx.record_transition(self.record)
        ctx.trace.states.append(self.dest)
        if self.reason is not None:
            ctx.reason = self.reason


class _QuietTransition(Transition):
    """`Transition.execute` and `_eval_conditions` (transitions 0.9), the same callbacks in the same order, unlogged.

    The conditions are this machine's own guard wrappers (`_traced`, callables, each expected True): they are
    called directly, as `Condition.check` would call them after resolving a callable to itself. When the
    transition's callbacks are plain callables and the machine and both states add none of their own (as
    `build_machine_as` builds it; checked on first use), `execute` is `_change_state` unrolled: the guards, the
    source state left and the destination entered (`set_state`: the model's state attribute and the event's
    state), the `after` callbacks — the same calls, without resolving and chaining empty callback lists."""

    _guards: tuple[Callable[[EventData], bool], ...] | None = None
    _plan: tuple[tuple[Callable[[EventData], None], ...], State, str] | None = None
    _planned = False

    def _eval_conditions(self, event_data: EventData) -> bool:
        guards = self._guards
        if guards is None:
            if all(callable(c.func) and c.target is True for c in self.conditions):
                guards = self._guards = tuple(cast(Callable[[EventData], bool], c.func) for c in self.conditions)
            else:  # not built by build_machine_as: the library's own check
                return all(condition.check(event_data) for condition in self.conditions)
        return all(guard(event_data) for guard in guards)

    def _lean_plan(self, machine: Machine) -> tuple[tuple[Callable[[EventData], None], ...], State, str] | None:
        """(after callbacks, destination state, model attribute) when nothing else runs around the transition."""
        if not self.dest or self.prepare or self.before or not all(callable(f) for f in self.after):
            return None
        if not machine.send_event or machine.before_state_change or machine.after_state_change or machine.on_final:
            return None
        source, dest = machine.get_state(self.source), machine.get_state(self.dest)
        if source.on_exit or dest.on_enter or dest.final or type(source).exit is not _QuietState.exit \
                or type(dest).enter is not _QuietState.enter:
            return None
        return tuple(cast(Callable[[EventData], None], f) for f in self.after), dest, machine.model_attribute

    def execute(self, event_data: EventData) -> bool:
        machine = event_data.machine
        if not self._planned:
            self._plan, self._planned = self._lean_plan(machine), True
        plan = self._plan
        if plan is not None:
            if not self._eval_conditions(event_data):
                return False
            after, dest, attribute = plan
            setattr(event_data.model, attribute, dest.value)
            event_data.state = dest
            for callback in after:
                callback(event_data)
            return True
        if self.prepare:
            machine.callbacks(self.prepare, event_data)
        if not self._eval_conditions(event_data):
            return False
        machine.callbacks(itertools.chain(machine.before_state_change, self.before), event_data)
        if self.dest:  # None is an internal transition (none in this spec)
            self._change_state(event_data)
        machine.callbacks(itertools.chain(self.after, machine.after_state_change), event_data)
        return True


class _QuietState(State):
    """`State.enter`/`exit` without their debug and info lines."""

    def enter(self, event_data: EventData) -> None:
        event_data.machine.callbacks(self.on_enter, event_data)

    def exit(self, event_data: EventData) -> None:
        event_data.machine.callbacks(self.on_exit, event_data)


class TurnMachine(Machine):
    """The process's one machine. Turns are never added to it: `fire` runs one of its events on a turn."""

    def fire(self, ctx: TurnContext, trigger: str) -> None:
        """Fire `trigger` from `ctx.state`: its transitions in spec order, the first whose guards all pass."""
        if not self.events[trigger].trigger(ctx):
            raise RuntimeError(f"no transition on {trigger!r} out of {ctx.state!r} passed its guards")


class QuietTurnMachine(TurnMachine):
    """The TurnMachine built when `transitions` is not logged at DEBUG: the same machine, without the log calls."""

    transition_cls = _QuietTransition
    state_cls = _QuietState

    def fire(self, ctx: TurnContext, trigger: str) -> None:
        """`Event.trigger` → `Event._trigger` → `Event._process` of transitions 0.9, for this machine: the
        event's transitions out of `ctx.state` in spec order, the first whose guards pass executes. What the
        library adds around that loop is empty here and checked at build (`_lean_checked`): no queue, no
        prepare/finalize/exception callbacks; an error in a guard or callback propagates as it would.

        A transition with a lean plan (`_QuietTransition._lean_plan`) whose conditions are all this machine's
        guard wrappers (`_Traced`) and whose `after` callbacks are all this machine's records (`_Taken`) is
        executed inline: each guard's predicate evaluated and recorded in order as `_Traced.__call__` does,
        stopping at the first False as `all` does, then the state set and the records made as
        `_QuietTransition.execute` does. Nothing in that reads an EventData, so none is built: only a transition
        that runs its own `execute` gets one (built once per fire, when the first such transition is tried)."""
        state = ctx.state
        routes = self._routes.get((trigger, state))
        if routes is None:
            routes = self._routes[(trigger, state)] = self._routes_of(trigger, state)
        event_data: EventData | None = None
        log = ctx.guard_log
        for transition, guards, inline in routes:
            if inline is None:
                if event_data is None:
                    event_data = EventData(self.states[state], self.events[trigger], self, ctx, (), {})
                event_data.transition = transition
                if transition.execute(event_data):
                    return
                continue
            passed = True
            for predicate, outcomes in guards:
                result = bool(predicate(ctx))
                log.append(outcomes[result])
                if not result:
                    passed = False
                    break
            if not passed:
                continue
            records, dest, attribute = inline
            setattr(ctx, attribute, dest)
            for record in records:
                record(ctx)
            return
        raise RuntimeError(f"no transition on {trigger!r} out of {ctx.state!r} passed its guards")

    @property
    def _routes(self) -> dict[tuple[str, str], tuple[_Route, ...]]:
        routes: dict[tuple[str, str], tuple[_Route, ...]] | None = self.__dict__.get("_route_table")
        if routes is None:
            routes = self.__dict__["_route_table"] = {}
        return routes

    def _routes_of(self, trigger: str, state: str) -> tuple[_Route, ...]:
        """The event's transitions out of `state`, each with its inline guards and what it does when they pass
        (None: run `execute`). Built on first use (the same for every turn: no turn mutates the machine),
        idempotent under threads."""
        out: list[_Route] = []
        for transition in self.events[trigger].transitions.get(state, ()):
            plan = transition._lean_plan(self) if isinstance(transition, _QuietTransition) else None
            conditions = transition.conditions
            if plan is None or not all(isinstance(c.func, _Traced) and c.target is True for c in conditions) \
                    or not all(isinstance(f, _Taken) for f in plan[0]):
                out.append((transition, (), None))
                continue
            guards = tuple(cast(_Traced, c.func) for c in conditions)
            records = tuple(cast(_Taken, f).on for f in plan[0])
            out.append((transition, tuple((g.predicate, g.outcomes(state)) for g in guards),
                        (records, cast(str, plan[1].value), plan[2])))
        return tuple(out)


def _lean_checked(machine: M) -> M:
    """A QuietTurnMachine's `fire` skips the library's event plumbing: only while that plumbing does nothing."""
    if isinstance(machine, QuietTurnMachine) and (
        machine.has_queue or machine.prepare_event or machine.finalize_event or machine.on_exception
    ):
        raise ValueError("QuietTurnMachine.fire assumes no queue and no prepare/finalize/exception callbacks")
    return machine


def build_machine(spec: MachineSpec) -> TurnMachine:
    """The process's machine for `spec` (the quiet one unless `transitions` is logged at DEBUG)."""
    debug = logging.getLogger("transitions").isEnabledFor(logging.DEBUG)
    return build_machine_as(spec, TurnMachine if debug else QuietTurnMachine)


def build_machine_as(spec: MachineSpec, machine_class: type[M]) -> M:
    """The machine for `spec` as another `transitions` class (the bench compares a LockedMachine)."""
    guards = {g.name: _traced(g) for g in spec.guards}
    transitions: list[dict[str, Any]] = []
    for t in spec.transitions:
        transitions.append(
            {
                "trigger": t.trigger,
                "source": t.source,
                "dest": t.dest,
                "conditions": [guards[name] for name in t.guards],
                "after": [_Taken(t)],
            }
        )
    return _lean_checked(machine_class(
        model=None,
        states=[s.name for s in spec.states],
        transitions=transitions,
        initial=spec.initial,
        auto_transitions=False,
        send_event=True,
        ignore_invalid_triggers=False,
    ))
