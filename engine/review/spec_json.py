"""spec.json: the machine as data — `transitions`' markup form plus guard labels — and its fingerprint."""

from __future__ import annotations

from typing import Any

from transitions.extensions.markup import MarkupMachine

from engine.fingerprint import spec_fingerprint
from engine.spec import MachineSpec


def markup(spec: MachineSpec) -> dict[str, Any]:
    """The `transitions` MarkupMachine form, built from the same spec (guards named, in order)."""
    machine = MarkupMachine(
        model=None,
        states=[s.name for s in spec.states],
        transitions=[
            {"trigger": t.trigger, "source": t.source, "dest": t.dest, "conditions": list(t.guards)}
            for t in spec.transitions
        ],
        initial=spec.initial,
        auto_transitions=False,
    )
    return dict(machine.markup)


def spec_document(spec: MachineSpec) -> dict[str, Any]:
    return {
        "fingerprint": spec_fingerprint(spec),
        "markup": markup(spec),
        "states": [
            {"name": s.name, "kind": s.kind, "label_vi": s.label_vi, "label_en": s.label_en, "trigger": s.trigger,
             "step": s.step_name, "reads": list(s.reads), "writes": list(s.writes), "calls_model": s.calls_model}
            for s in spec.states
        ],
        "guards": [
            {"name": g.name, "label_vi": g.label_vi, "label_en": g.label_en, "limit": g.limit, "on_trip": g.on_trip}
            for g in spec.guards
        ],
        "transitions": [
            {"trigger": t.trigger, "source": t.source, "dest": t.dest, "guards": list(t.guards), "row": t.row,
             "outcome": t.outcome, "reason": t.reason, "rationale": t.rationale}
            for t in spec.transitions
        ],
        "limits": dict(spec.limits.items()),
    }
