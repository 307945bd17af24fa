"""routing.md and guards.md: the routing table in order, the guards with their limits, and each state's work.

Clinical columns are plain language (vi or en); code names (reasons, guards, states) sit in the last,
"details" column only, for engineers tracing a row to the code.
"""

from __future__ import annotations

from engine.fingerprint import spec_fingerprint
from engine.review.labels import OUTCOME_LABEL, Lang, condition_text, row_labels
from engine.review.wording import effect, limit_label, rationale
from engine.spec import MachineSpec, TransitionSpec
from states.reason_labels import reason_label

_HEAD = {
    "vi": ("#", "Điều kiện", "Kết quả", "Người dùng thấy", "Cơ sở", "Chi tiết kỹ thuật"),
    "en": ("#", "Condition", "Outcome", "What the user is told", "Rationale", "Technical details"),
}
_AFTER_HEAD = {
    "vi": ("Từ bước", "Điều kiện", "Đến", "Người dùng thấy", "Cơ sở", "Chi tiết kỹ thuật"),
    "en": ("From", "Condition", "To", "What the user is told", "Rationale", "Technical details"),
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def state_label(spec: MachineSpec, name: str, lang: Lang) -> str:
    state = spec.state(name)
    return state.label_vi if lang == "vi" else state.label_en


def outcome_text(spec: MachineSpec, t: TransitionSpec, lang: Lang) -> str:
    if t.outcome:
        return OUTCOME_LABEL[lang].get(t.outcome, "")
    return "→ " + state_label(spec, t.dest, lang)


def details(t: TransitionSpec) -> str:
    """The codes of a transition: where it goes, on which guards, with which reason."""
    parts = [f"{t.source} → {t.dest}"]
    if t.guards:
        parts.append("guard: " + ", ".join(t.guards))
    if t.reason:
        parts.append(f"reason: {t.reason}")
    return "; ".join(parts)


def render_routing(spec: MachineSpec, lang: Lang = "vi") -> str:
    fp = spec_fingerprint(spec)
    title = "Bảng định tuyến — khớp đầu tiên được chọn" if lang == "vi" else "Routing table — first match wins"
    rows = row_labels(spec)
    head = _HEAD[lang]
    lines = [f"# {title}", "", f"Spec fingerprint: `{fp}`", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for i, t in enumerate(spec.transitions):
        if not t.row:
            continue
        told = reason_label(t.reason, lang) if t.reason else ""
        lines.append("| " + " | ".join(_cell(x) for x in (
            rows[i], condition_text(spec, t, lang), outcome_text(spec, t, lang), told,
            rationale(t.rationale, lang), f"`{details(t)}`")) + " |")
    after = _AFTER_HEAD[lang]
    lines += ["", "## " + ("Các quy tắc sau định tuyến" if lang == "vi" else "Rules after routing"), "",
              "| " + " | ".join(after) + " |", "|" + "---|" * len(after)]
    for t in spec.transitions:
        if t.row:
            continue
        told = reason_label(t.reason, lang) if t.reason else ""
        lines.append("| " + " | ".join(_cell(x) for x in (
            state_label(spec, t.source, lang), condition_text(spec, t, lang), state_label(spec, t.dest, lang), told,
            rationale(t.rationale, lang), f"`{t.trigger}: {details(t)}`")) + " |")
    return "\n".join(lines) + "\n"


def render_guards(spec: MachineSpec, lang: Lang = "vi") -> str:
    fp = spec_fingerprint(spec)
    title = "Các điều kiện và giới hạn" if lang == "vi" else "Conditions (guards) and limits"
    head = ("Điều kiện", "Giới hạn", "Khi điều kiện đúng", "Chi tiết kỹ thuật") if lang == "vi" else (
        "Condition", "Limit", "What happens", "Technical details")
    lines = [f"# {title}", "", f"Spec fingerprint: `{fp}`", ""]
    lines += ["## " + ("Giới hạn đang chạy" if lang == "vi" else "Limits in force"), ""]
    lines += [f"- {limit_label(name, lang)}: {value} (`{name}`)" for name, value in spec.limits]
    lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for g in spec.guards:
        used = sorted({f"{t.source}→{t.dest}" for t in spec.transitions if g.name in t.guards})
        label = g.label_vi if lang == "vi" else g.label_en
        limit = g.limit.replace(";", ",") if g.limit else ""
        lines.append("| " + " | ".join(_cell(x) for x in (
            label, limit, effect(g.name, lang), f"`{g.name}` — " + ", ".join(used))) + " |")
    lines += ["", *render_states(spec, lang)]
    return "\n".join(lines) + "\n"


def state_rows(spec: MachineSpec) -> list[tuple[str, str, str, str, str, str]]:
    """(state, trigger, step, reads, writes, calls a model) per state, in spec order."""
    return [(s.name, s.trigger, s.step_name or "", ", ".join(s.reads), ", ".join(s.writes),
             "✓" if s.calls_model else "") for s in spec.states]


def render_states(spec: MachineSpec, lang: Lang = "vi") -> list[str]:
    """Each state's work: its step (a function in states/), what it reads and writes, whether it calls a model."""
    title = "Các trạng thái và công việc" if lang == "vi" else "States and their work"
    head = ("Trạng thái", "Sự kiện", "Bước (step)", "Đọc", "Ghi", "Gọi mô hình") if lang == "vi" else (
        "State", "Trigger", "Step", "Reads", "Writes", "Calls a model")
    lines = [f"## {title}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in state_rows(spec):
        name, trigger, step, reads, writes, calls = row
        lines.append("| " + " | ".join(_cell(x) for x in (
            f"`{name}`", f"`{trigger}`", f"`{step}`" if step else "", reads, writes, calls)) + " |")
    return lines
