"""routing.md and guards.md: the routing table in order, the guards with their limits, and each state's work."""

from __future__ import annotations

from engine.fingerprint import spec_fingerprint
from engine.review.labels import OUTCOME_LABEL, Lang, condition_text
from engine.spec import MachineSpec

_HEAD = {
    "vi": ("#", "Điều kiện", "Kết quả", "Lý do (reason)", "Cơ sở"),
    "en": ("#", "Condition", "Outcome", "Reason", "Rationale"),
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_routing(spec: MachineSpec, lang: Lang = "vi") -> str:
    fp = spec_fingerprint(spec)
    head = _HEAD[lang]
    title = "Bảng định tuyến — khớp đầu tiên được chọn" if lang == "vi" else "Routing table — first match wins"
    lines = [f"# {title}", "", f"Spec fingerprint: `{fp}`", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for t in spec.transitions:
        if not t.row:
            continue
        outcome = OUTCOME_LABEL[lang].get(t.outcome or "", "") if t.outcome else (
            f"→ {spec.state(t.dest).label_vi if lang == 'vi' else spec.state(t.dest).label_en}")
        lines.append("| " + " | ".join(_cell(x) for x in (
            t.row, condition_text(spec, t, lang), outcome, t.reason or "", t.rationale)) + " |")
    lines += ["", "## " + ("Các quy tắc sau định tuyến" if lang == "vi" else "Rules after routing"), "",
              "| " + " | ".join(("Từ", "Sự kiện", "Điều kiện", "Đến", "Lý do", "Cơ sở") if lang == "vi" else
                               ("From", "Trigger", "Condition", "To", "Reason", "Rationale")) + " |",
              "|---|---|---|---|---|---|"]
    for t in spec.transitions:
        if t.row:
            continue
        lines.append("| " + " | ".join(_cell(x) for x in (
            t.source, t.trigger, condition_text(spec, t, lang), t.dest, t.reason or "", t.rationale)) + " |")
    return "\n".join(lines) + "\n"


def render_guards(spec: MachineSpec, lang: Lang = "vi") -> str:
    fp = spec_fingerprint(spec)
    title = "Các điều kiện (guard) và giới hạn" if lang == "vi" else "Guards and limits"
    head = ("Guard", "Nhãn", "Label (EN)", "Giới hạn", "Khi điều kiện đúng", "Dùng ở") if lang == "vi" else (
        "Guard", "Label (VI)", "Label (EN)", "Limit", "When it decides", "Used on")
    lines = [f"# {title}", "", f"Spec fingerprint: `{fp}`", ""]
    lines += ["## " + ("Giới hạn đang chạy" if lang == "vi" else "Limits in force"), ""]
    lines += [f"- `{name}` = {value}" for name, value in spec.limits]
    lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for g in spec.guards:
        used = sorted({f"{t.source}→{t.dest}" for t in spec.transitions if g.name in t.guards})
        lines.append("| " + " | ".join(_cell(x) for x in (
            f"`{g.name}`", g.label_vi, g.label_en, g.limit or "", g.on_trip, ", ".join(used))) + " |")
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
