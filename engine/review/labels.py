"""Plain-language labels of transitions, shared by the Mermaid, DOT and table renderers."""

from __future__ import annotations

from typing import Literal

from engine.spec import MachineSpec, TransitionSpec

Lang = Literal["vi", "en"]

ELSE = {"vi": "ngược lại", "en": "otherwise"}
OUTCOME_LABEL = {
    "vi": {"answerable": "trả lời", "verify_pdf": "đối chiếu PDF", "clarify": "hỏi lại", "abstain": "từ chối"},
    "en": {"answerable": "answer", "verify_pdf": "verify in PDF", "clarify": "clarify", "abstain": "abstain"},
}


def row_labels(spec: MachineSpec) -> dict[int, str]:
    """Transition index → its row as numbered in the clinical table: a number the spec gives to several
    consecutive transitions is one clinical row with sub-rows (4a, 4b; 8a, 8b), never two rows "4"."""
    counts: dict[str, int] = {}
    for t in spec.transitions:
        if t.row:
            counts[t.row] = counts.get(t.row, 0) + 1
    seen: dict[str, int] = {}
    labels: dict[int, str] = {}
    for i, t in enumerate(spec.transitions):
        if not t.row:
            continue
        if counts[t.row] > 1 and t.row.isdigit():
            labels[i] = f"{t.row}{'abcdefghij'[seen.get(t.row, 0)]}"
            seen[t.row] = seen.get(t.row, 0) + 1
        else:
            labels[i] = t.row
    return labels


def guard_labels(spec: MachineSpec, transition: TransitionSpec, lang: Lang) -> list[str]:
    return [getattr(spec.guard(g), f"label_{lang}") for g in transition.guards]


def is_fallback(spec: MachineSpec, transition: TransitionSpec) -> bool:
    """An unguarded transition after guarded ones of the same trigger and source."""
    if transition.guards:
        return False
    siblings = [t for t in spec.transitions if t.source == transition.source and t.trigger == transition.trigger]
    return siblings.index(transition) > 0


def condition_text(spec: MachineSpec, transition: TransitionSpec, lang: Lang) -> str:
    labels = guard_labels(spec, transition, lang)
    if labels:
        return (" và " if lang == "vi" else " and ").join(labels)
    return ELSE[lang] if is_fallback(spec, transition) else ""


def transition_label(spec: MachineSpec, transition: TransitionSpec, lang: Lang, row: str | None = None) -> str:
    """'#2 route [Hỏi liều, … chưa rõ người lớn hay trẻ em] → hỏi lại / missing_population'."""
    parts = []
    if transition.row:
        parts.append(f"#{row or transition.row}")
    parts.append(transition.trigger)
    cond = condition_text(spec, transition, lang)
    if cond:
        parts.append(f"[{cond}]")
    label = " ".join(parts)
    if transition.reason:
        label += f" / {transition.reason}"
    return label
