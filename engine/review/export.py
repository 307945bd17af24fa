"""Write the review export to a directory, check it for drift, and draw a conversation's path over it."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.review.dot import dot_available, dot_to_svg, render_dot, render_routing_dot
from engine.review.examples import Example
from engine.review.html import render_html
from engine.review.labels import Lang
from engine.review.mermaid import render_mermaid
from engine.review.phases import render_phases
from engine.review.spec_json import spec_document
from engine.review.tables import render_guards, render_routing
from engine.spec import MachineSpec, build_spec
from engine.store.base import SignOff

DETERMINISTIC_FILES = ("spec.json", "machine.mmd", "machine.dot", "routing.dot", "routing.md", "guards.md",
                       *render_phases(build_spec()))
"""Files whose content depends only on the spec (review.html carries a date; SVG depends on Graphviz)."""


def render_all(spec: MachineSpec, lang: Lang = "vi") -> dict[str, str]:
    return {
        "spec.json": json.dumps(spec_document(spec), ensure_ascii=False, indent=2, sort_keys=True) + "\n",
        "machine.mmd": render_mermaid(spec, lang),
        "machine.dot": render_dot(spec, lang),
        "routing.dot": render_routing_dot(spec, lang),
        "routing.md": render_routing(spec, lang),
        "guards.md": render_guards(spec, lang),
        **render_phases(spec, lang),
    }


def write_export(spec: MachineSpec, out: Path, lang: Lang = "vi", *, now: datetime | None = None,
                 signoffs: Sequence[SignOff] | None = None, examples: Mapping[int, Example] | None = None) -> list[str]:
    """Write every file; return messages for the user (e.g. Graphviz missing). `signoffs` None: not read."""
    out.mkdir(parents=True, exist_ok=True)
    files = render_all(spec, lang)
    messages: list[str] = []
    svg: str | None = None
    routing_svg: str | None = None
    phase_svgs: dict[str, str] = {}
    if dot_available():
        svg = dot_to_svg(files["machine.dot"])
        files["machine.svg"] = svg
        routing_svg = dot_to_svg(files["routing.dot"])
        files["routing.svg"] = routing_svg
        for name in [n for n in files if n.startswith("phase-") and n.endswith(".dot")]:
            phase_svgs[name.removesuffix(".dot") + ".svg"] = dot_to_svg(files[name])
        files.update(phase_svgs)
    else:
        messages.append("Graphviz `dot` not found (Debian: apt-get install graphviz): machine.svg not written; "
                        "review.html shows the Mermaid source instead")
    files["review.html"] = render_html(spec, svg=svg, routing_svg=routing_svg, mermaid=files["machine.mmd"],
                                       generated=now or datetime.now(UTC), lang=lang, phase_svgs=phase_svgs,
                                       signoffs=signoffs, examples=examples)
    for name, text in files.items():
        tmp = out / f".{name}.tmp"
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(out / name)
    return messages


def drift(spec: MachineSpec, out: Path, lang: Lang = "vi") -> list[str]:
    """Files in `out` that no longer match the spec (empty when the export is current)."""
    problems = []
    for name, text in render_all(spec, lang).items():
        path = out / name
        if not path.exists():
            problems.append(f"{name}: missing")
        elif path.read_text(encoding="utf-8") != text:
            problems.append(f"{name}: differs from the running spec (run `make review`)")
    return problems


def path_overlay(spec: MachineSpec, turns: Sequence[dict[str, Any]]) -> tuple[set[str], dict[int, list[int]], list[str]]:
    """From stored turn traces: visited states, transition index → turn numbers, and a turn-by-turn summary."""
    index = {(t.source, t.trigger, t.dest, t.row): i for i, t in enumerate(spec.transitions)}
    loose: dict[tuple[str, str, str], int] = {}
    for i, t in enumerate(spec.transitions):
        loose.setdefault((t.source, t.trigger, t.dest), i)
    visited: set[str] = set()
    taken: dict[int, list[int]] = {}
    summary = []
    for n, turn in enumerate(turns, start=1):
        trace = turn.get("trace") or {}
        visited.update(trace.get("states", []))
        for step in trace.get("transitions", []):
            key = (step["source"], step["trigger"], step["dest"], step.get("row"))
            found = index.get(key)
            idx = found if found is not None else loose.get((key[0], key[1], key[2]))
            if idx is not None and n not in taken.setdefault(idx, []):
                taken[idx].append(n)
        summary.append(f"Lượt {n}: \"{turn.get('user_text', '')}\" → {turn.get('outcome')} / {turn.get('reason')}: "
                       + " → ".join(trace.get("states", [])))
    return visited, taken, summary


def write_overlay(spec: MachineSpec, turns: Sequence[dict[str, Any]], out: Path, lang: Lang = "vi") -> list[str]:
    out.mkdir(parents=True, exist_ok=True)
    visited, taken, summary = path_overlay(spec, turns)
    mmd = render_mermaid(spec, lang, highlight_states=visited, highlight_transitions=taken)
    dot = render_dot(spec, lang, highlight_states=visited, highlight_transitions=taken)
    (out / "path.mmd").write_text(mmd, encoding="utf-8")
    (out / "path.dot").write_text(dot, encoding="utf-8")
    (out / "path.md").write_text("# Đường đi của cuộc hội thoại\n\n" + "\n".join(f"- {s}" for s in summary) + "\n",
                                 encoding="utf-8")
    messages = []
    if dot_available():
        (out / "path.svg").write_text(dot_to_svg(dot), encoding="utf-8")
    else:
        messages.append("Graphviz `dot` not found: path.svg not written")
    return messages
