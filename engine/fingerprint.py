"""The spec fingerprint: a hash of the canonical spec (states with their trigger and step, transitions in order,
guards in order, limits).

Stable across runs and machines (no ids, no addresses, sorted keys); any change to states, transitions,
guard order or limits changes it. Served by /v1/machine, stored on every conversation, printed in the diagram.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from engine.spec import MachineSpec


def canonical_spec(spec: MachineSpec) -> dict[str, Any]:
    return {
        "initial": spec.initial,
        "states": [
            [s.name, s.kind, s.calls_model, s.trigger, s.step_name, list(s.reads), list(s.writes)] for s in spec.states
        ],
        "guards": [[g.name, g.label_vi, g.label_en, g.limit] for g in spec.guards],
        "transitions": [
            [t.trigger, t.source, t.dest, list(t.guards), t.row, t.outcome, t.reason] for t in spec.transitions
        ],
        "limits": [list(item) for item in spec.limits.items()],
    }


def spec_fingerprint(spec: MachineSpec) -> str:
    blob = json.dumps(canonical_spec(spec), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()
