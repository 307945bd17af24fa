"""The machine drawn by phase, one readable diagram each, instead of one diagram shrunk until it is unreadable.

Phases: understanding and routing, looking up the formulary, composing and verifying, outcomes. A phase shows
its own states and every transition leaving them; a state of another phase appears as a dashed box. Edges
between the same two states are drawn once, their conditions listed on it. Labels are plain language: the
codes are in the tables' details column.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.fingerprint import spec_fingerprint
from engine.review.labels import OUTCOME_LABEL, Lang, condition_text, row_labels
from engine.spec import MachineSpec
from states.reason_labels import outcome_badge, reason_label


@dataclass(frozen=True)
class Phase:
    key: str
    title_vi: str
    title_en: str
    states: tuple[str, ...]
    rankdir: str = "LR"

    def title(self, lang: Lang) -> str:
        return self.title_vi if lang == "vi" else self.title_en


PHASES: tuple[Phase, ...] = (
    Phase("understand", "1. Hiểu câu hỏi và định tuyến", "1. Understanding and routing",
          ("ready", "awaiting_answer", "understanding", "routing", "asking"), rankdir="TB"),
    Phase("retrieve", "2. Tra cứu Dược thư", "2. Looking up the formulary",
          ("retrieving_single", "retrieving_interaction", "retrieving_condition", "reviewing_safety")),
    Phase("generate", "3. Soạn và kiểm chứng câu trả lời", "3. Composing and verifying the answer",
          ("generating", "verifying", "repairing")),
    Phase("outcomes", "4. Kết quả người dùng nhận được", "4. What the user receives",
          ("answered", "flagged", "clarified", "abstained")),
)

_FILL = {"resting": "#dbeafe", "work": "#f3f4f6", "outcome": "#dcfce7"}


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _wrap(text: str, width: int = 34) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _label(lines: list[str]) -> str:
    """A left-aligned multi-line Graphviz label (each line ends with \\l)."""
    return _q("\n".join(lines) + "\n").replace("\n", "\\l")


_OUTCOME_OF = {"answered": "answerable", "flagged": "verify_pdf", "clarified": "clarify", "abstained": "abstain"}


def _routing_text(numbers: list[str], key: tuple[str, str], spec: MachineSpec, lang: Lang) -> list[str]:
    src, dst = key
    decided = next((t.outcome for t in spec.transitions if t.source == src and t.dest == dst and t.row), None)
    head = OUTCOME_LABEL[lang].get(decided or "", "")
    text = ("dòng " if lang == "vi" else "rows ") + ", ".join(numbers) + (f" ({head})" if head else "")
    return _wrap(text, 30)


def unplaced_states(spec: MachineSpec) -> list[str]:
    placed = {s for p in PHASES for s in p.states}
    return [s.name for s in spec.states if s.name not in placed]


def render_phase_dot(spec: MachineSpec, phase: Phase, lang: Lang = "vi") -> str:
    fp = spec_fingerprint(spec)
    rows = row_labels(spec)
    own = set(phase.states)
    lines = [
        f"digraph phase_{phase.key} {{",
        f"  label={_q(f'{phase.title(lang)} — spec {fp[:12]}')}; labelloc=t; fontsize=20;",
        f'  rankdir={phase.rankdir}; ranksep=0.6; nodesep=0.25; node [fontname="DejaVu Sans", fontsize=14]; '
        'edge [fontname="DejaVu Sans", fontsize=12];',
    ]
    grouped: dict[tuple[str, str], list[str]] = {}
    routing_rows: dict[tuple[str, str], list[str]] = {}
    for i, t in enumerate(spec.transitions):
        if t.source not in own:
            continue
        key = (t.source, t.dest)
        if t.row:
            # Routing rows are listed by number only; the routing diagram and table spell each condition out.
            routing_rows.setdefault(key, []).append(f"#{rows[i]}")
            continue
        cond = condition_text(spec, t, lang)
        why = f" → {reason_label(t.reason, lang)}" if t.reason else ""
        grouped.setdefault(key, []).append(f"{cond}{why}".strip(" →") or ("luôn" if lang == "vi" else "always"))

    def node(name: str, node_id: str, external: bool) -> str:
        state = spec.state(name)
        text = state.label_vi if lang == "vi" else state.label_en
        if phase.key == "outcomes" and state.kind == "outcome":
            badge = outcome_badge(_OUTCOME_OF.get(name, ""), None, lang)
            text += f"\n({'nhãn' if lang == 'vi' else 'badge'}: {badge})" if badge else ""
        style = ('shape=box, style="rounded,dashed", color="#6b7280", fontcolor="#374151"' if external
                 else f'shape=box, style="rounded,filled", fillcolor="{_FILL[state.kind]}"')
        return f"  {node_id} [label={_q(text)}, {style}];"

    lines += [node(name, name, False) for name in phase.states]
    edges = [(key, _routing_text(numbers, key, spec, lang)) for key, numbers in routing_rows.items()]
    edges += [(key, [line for c in dict.fromkeys(conds) for line in _wrap("• " + c)]) for key, conds in grouped.items()]
    for (src, dst), label in edges:
        target = dst
        if dst not in own:
            # A state of another phase is drawn once per edge into it: each step reads as its own small tree
            # instead of every line crossing the page to one shared box.
            target = f"{dst}__from__{src}"
            lines.append(node(dst, target, True))
        lines.append(f"  {src} -> {target} [label={_label(label)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_phases(spec: MachineSpec, lang: Lang = "vi") -> dict[str, str]:
    """File name → DOT source, one per phase (phase-1-understand.dot …)."""
    return {f"phase-{n}-{p.key}.dot": render_phase_dot(spec, p, lang) for n, p in enumerate(PHASES, 1)}
