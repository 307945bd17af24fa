"""Mermaid state diagram (renders in GitLab/GitHub Markdown and the browser)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.fingerprint import spec_fingerprint
from engine.review.labels import Lang, row_labels, transition_label
from engine.spec import MachineSpec

_ESCAPES = {":": "#58;", ";": "#59;", '"': "#quot;", "<": "#lt;", ">": "#gt;", "{": "#123;", "}": "#125;"}


def _escape(text: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def render_mermaid(
    spec: MachineSpec,
    lang: Lang = "vi",
    *,
    highlight_states: Iterable[str] = (),
    highlight_transitions: dict[int, list[int]] | None = None,
) -> str:
    """The machine as `stateDiagram-v2`. `highlight_transitions` maps a transition's index to the turns that took it."""
    fp = spec_fingerprint(spec)
    title = "Máy trạng thái formulary-fsm" if lang == "vi" else "formulary-fsm turn machine"
    lines = ["---", f"title: {title} — spec {fp[:12]}", "---", "stateDiagram-v2", "    direction TB"]
    for s in spec.states:
        label = s.label_vi if lang == "vi" else s.label_en
        lines.append(f'    state "{_escape(label)} ({s.name})" as {s.name}')
    lines.append(f"    [*] --> {spec.initial}")
    taken = highlight_transitions or {}
    rows = row_labels(spec)
    for i, t in enumerate(spec.transitions):
        label = transition_label(spec, t, lang, rows.get(i))
        if i in taken:
            turns = ", ".join(str(n) for n in taken[i])
            label = f"★ {label} ({'lượt' if lang == 'vi' else 'turn'} {turns})"
        lines.append(f"    {t.source} --> {t.dest} : {_escape(label)}")
    highlighted = list(dict.fromkeys(highlight_states))
    if highlighted:
        lines.append("    classDef visited fill:#ffe08a,stroke:#b45309,stroke-width:3px")
        lines.append(f"    class {','.join(highlighted)} visited")
    return "\n".join(lines) + "\n"
