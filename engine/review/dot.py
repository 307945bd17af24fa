"""Graphviz DOT, and SVG through the `dot` program when it is installed (Debian `graphviz`)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable

from core.errors import ConfigurationError
from engine.fingerprint import spec_fingerprint
from engine.review.labels import OUTCOME_LABEL, Lang, condition_text, row_labels, transition_label
from engine.spec import MachineSpec
from states.reason_labels import reason_label

_KIND_STYLE = {
    "resting": 'shape=doublecircle, style=filled, fillcolor="#dbeafe"',
    "work": 'shape=box, style="rounded,filled", fillcolor="#f3f4f6"',
    "outcome": 'shape=box, style="rounded,filled,bold", fillcolor="#dcfce7"',
}


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_dot(
    spec: MachineSpec,
    lang: Lang = "vi",
    *,
    highlight_states: Iterable[str] = (),
    highlight_transitions: dict[int, list[int]] | None = None,
) -> str:
    fp = spec_fingerprint(spec)
    title = "Máy trạng thái formulary-fsm" if lang == "vi" else "formulary-fsm turn machine"
    visited = set(highlight_states)
    taken = highlight_transitions or {}
    lines = [
        "digraph formulary_fsm {",
        f"  label={_q(f'{title} — spec {fp[:12]}')}; labelloc=t; fontsize=18;",
        '  rankdir=LR; ranksep=1.2; nodesep=0.35; node [fontname="DejaVu Sans", fontsize=11]; edge [fontname="DejaVu Sans", fontsize=9];',
    ]
    for s in spec.states:
        label = f"{s.label_vi if lang == 'vi' else s.label_en}\\n({s.name})"
        style = _KIND_STYLE[s.kind]
        if s.name in visited:
            style += ', color="#b45309", penwidth=3'
        lines.append(f'  {s.name} [label="{label}", {style}];')
    rows = row_labels(spec)
    for i, t in enumerate(spec.transitions):
        label = transition_label(spec, t, lang, rows.get(i))
        attrs = [f"label={_q(label)}"]
        if i in taken:
            turns = ", ".join(str(n) for n in taken[i])
            attrs = [f"label={_q(f'★ {label} (lượt {turns})')}", 'color="#b45309"', "penwidth=3"]
        lines.append(f"  {t.source} -> {t.dest} [{', '.join(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_routing_dot(spec: MachineSpec, lang: Lang = "vi") -> str:
    """The routing table alone, as a decision list a reviewer can read top to bottom (first match wins)."""
    fp = spec_fingerprint(spec)
    title = ("Bảng định tuyến — khớp đầu tiên được chọn" if lang == "vi" else "Routing — first match wins")
    lines = [
        "digraph routing {",
        f"  label={_q(f'{title} — spec {fp[:12]}')}; labelloc=t; fontsize=16;",
        '  rankdir=LR; nodesep=0.15; node [fontname="DejaVu Sans", fontsize=11]; edge [fontname="DejaVu Sans"];',
        f'  routing [label={_q(spec.state("routing").label_vi if lang == "vi" else "Routing")}, shape=diamond, '
        'style=filled, fillcolor="#fef3c7"];',
    ]
    numbers = row_labels(spec)
    rows = [(numbers[n], t) for n, t in enumerate(spec.transitions) if t.row and t.source == "routing"]
    for i, (number, t) in enumerate(rows):
        dest = spec.state(t.dest)
        outcome = OUTCOME_LABEL[lang].get(t.outcome or "", "") if t.outcome else (
            dest.label_vi if lang == "vi" else dest.label_en)
        # Plain language only: the reason code is in the table's details column, not in the clinician's diagram.
        why = f": {reason_label(t.reason, lang)}" if t.reason else ""
        text = f"#{number}  {condition_text(spec, t, lang)}\n→ {outcome}{why}\n"
        # Graphviz's "\\l" ends a left-aligned line; quote first, then turn the newlines into it.
        label = _q(text).replace("\n", "\\l")
        lines.append(f'  row_{i} [label={label}, shape=box, style="rounded,filled", fillcolor="#f9fafb"];')
        lines.append(f"  routing -> row_{i};")
    lines.append("  { rank=same; " + " ".join(f"row_{i};" for i in range(len(rows))) + " }")
    lines += [f"  row_{i} -> row_{i + 1} [style=invis];" for i in range(len(rows) - 1)]
    lines.append("}")
    return "\n".join(lines) + "\n"


def dot_available() -> bool:
    return shutil.which("dot") is not None


def dot_to_svg(dot_source: str) -> str:
    exe = shutil.which("dot")
    if exe is None:
        raise ConfigurationError("Graphviz `dot` is not installed (Debian: apt-get install graphviz); "
                                 "machine.mmd and machine.dot were written, machine.svg was not")
    done = subprocess.run([exe, "-Tsvg"], input=dot_source.encode(), capture_output=True, timeout=60, check=False)
    if done.returncode != 0:
        raise ConfigurationError(f"dot failed: {done.stderr.decode(errors='replace')[:500]}")
    return done.stdout.decode()


def render_svg(spec: MachineSpec, lang: Lang = "vi") -> str:
    return dot_to_svg(render_dot(spec, lang))
