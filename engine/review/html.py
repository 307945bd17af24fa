"""review.html: one self-contained, printable page for sign-off.

What a pharmacist or clinician needs to sign the machine from this page alone: the fingerprint and who has
signed it, the limits, the routing table numbered as the clinical table (4a/4b, 8a/8b), the machine drawn
phase by phase at a readable size, plain-language wording (codes only in the details column), and for each
routing row an example conversation as the user sees it. Every visible string follows `lang`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from engine.fingerprint import spec_fingerprint
from engine.review.examples import Example
from engine.review.labels import Lang, condition_text, row_labels
from engine.review.phases import PHASES
from engine.review.tables import details, outcome_text, state_label, state_rows
from engine.review.wording import effect, limit_label, rationale
from engine.signoff import SIGN_COMMAND
from engine.spec import MachineSpec
from engine.store.base import SignOff
from states.reason_labels import outcome_badge, reason_label

_CSS = """
body{font-family:"DejaVu Sans",Arial,sans-serif;margin:2rem;color:#111;max-width:1500px}
h1{font-size:1.5rem}h2{font-size:1.25rem;margin-top:2.2rem;border-bottom:2px solid #c7d2fe;padding-bottom:.2rem}
h3{font-size:1.05rem;margin:1.4rem 0 .4rem}
table{border-collapse:collapse;width:100%;font-size:.9rem;margin:.5rem 0}
th,td{border:1px solid #999;padding:.35rem .5rem;vertical-align:top;text-align:left}
th{background:#eef2ff}.fp{font-family:monospace;background:#f3f4f6;padding:.2rem .4rem;word-break:break-all}
td.details,td.details code{font-size:.75rem;color:#4b5563;font-family:monospace}
.diagram{overflow-x:auto;border:1px solid #e5e7eb;padding:.5rem;margin:.5rem 0 1rem}
.diagram svg{height:auto;max-width:none}
.signed{background:#dcfce7;border:1px solid #16a34a;padding:.6rem 1rem}
.unsigned{background:#fef3c7;border:1px solid #d97706;padding:.6rem 1rem}
pre,code.cmd{white-space:pre-wrap;font-size:.8rem;background:#f9fafb;padding:.3rem .5rem}
.sign td{height:3rem}
.example{border:1px solid #e5e7eb;border-radius:8px;padding:.6rem;margin:.4rem 0 1rem;background:#fafafa;max-width:760px}
.bubble{border-radius:12px;padding:.5rem .75rem;margin:.35rem 0;white-space:pre-wrap;line-height:1.4}
.user{background:#2563eb;color:#fff;margin-left:25%}
.bot{background:#fff;border:1px solid #d1d5db;margin-right:10%}
.badge{display:inline-block;font-size:.75rem;border-radius:999px;padding:.05rem .5rem;margin-bottom:.25rem}
.b-answerable{background:#dcfce7;color:#166534}.b-clarify{background:#e0e7ff;color:#3730a3}
.b-verify_pdf{background:#fef3c7;color:#92400e}.b-abstain{background:#fee2e2;color:#991b1b}
.cite{font-size:.8rem;color:#374151;border-left:3px solid #9ca3af;padding-left:.5rem;margin:.25rem 0}
.sr{position:absolute;left:-9999px}
.chip{display:inline-block;border:1px solid #2563eb;color:#2563eb;border-radius:999px;padding:0 .5rem;
margin:.2rem .2rem 0 0;font-size:.8rem}
@media print{body{margin:1cm}.diagram{page-break-inside:avoid;overflow:visible}.example{page-break-inside:avoid}}
"""

UI: dict[str, dict[str, str]] = {
    "vi": {
        "title": "formulary-fsm — hồ sơ duyệt máy trạng thái (bản để ký duyệt)",
        "fingerprint": "Mã vân tay của đặc tả (spec fingerprint)",
        "generated": "Ngày tạo",
        "signoffs": "Ký duyệt đã ghi nhận cho đúng mã vân tay này",
        "signed_by": "Người ký", "role": "Vai trò", "when": "Thời điểm", "note": "Ghi chú",
        "none_signed": "Chưa có ai ký duyệt mã vân tay này. Máy chủ chạy với REQUIRE_SIGNOFF=true sẽ từ chối khởi "
                       "động cho đến khi có chữ ký.",
        "unknown_signed": "Không đọc được danh sách ký duyệt từ cơ sở dữ liệu khi tạo trang này.",
        "how_to_sign": "Cách ký duyệt: sau khi đọc toàn bộ trang này, chạy lệnh sau với cùng cấu hình máy chủ "
                       "(lệnh từ chối nếu mã vân tay khác với máy đang chạy):",
        "limits": "Giới hạn đang chạy",
        "routing_diagram": "Sơ đồ định tuyến (đọc từ trên xuống, điều kiện đầu tiên khớp được chọn)",
        "phases": "Máy trạng thái theo từng giai đoạn",
        "phases_intro": "Mỗi giai đoạn một sơ đồ. Ô nét đứt là bước thuộc giai đoạn khác. Sơ đồ đầy đủ (một hình) "
                        "nằm trong tệp machine.svg bên cạnh trang này.",
        "routing_table": "Bảng định tuyến (điều kiện đầu tiên khớp được chọn)",
        "after_routing": "Các quy tắc sau định tuyến",
        "guards": "Các điều kiện và giới hạn",
        "examples": "Ví dụ hội thoại cho từng dòng định tuyến",
        "examples_intro": "Mỗi ví dụ lấy từ bộ hội thoại mẫu (fixtures/transcripts), chạy trên Dược thư thử nghiệm "
                          "tổng hợp với các thành phần ngoại tuyến, hiển thị như người dùng thấy.",
        "no_example": "Không có hội thoại mẫu nào đi qua dòng này với bộ hiểu câu hỏi ngoại tuyến (dòng này chỉ "
                      "xảy ra khi bước hiểu câu hỏi lỗi hoặc dùng mô hình ngôn ngữ).",
        "row": "Dòng", "condition": "Điều kiện", "outcome": "Kết quả", "told": "Người dùng thấy",
        "why": "Cơ sở", "details": "Chi tiết kỹ thuật", "example": "Ví dụ", "see_example": "xem ví dụ",
        "from": "Từ bước", "to": "Đến", "limit": "Giới hạn", "effect": "Khi điều kiện đúng",
        "you": "Người dùng", "assistant": "Trợ lý", "sources": "Nguồn",
        "manual_sign": "Ký tay (bản in)", "pharmacist": "Dược sĩ lâm sàng", "doctor": "Bác sĩ",
        "name": "Họ tên", "signature": "Chữ ký", "date": "Ngày", "conversation": "hội thoại mẫu",
        "reason_code": "mã lý do", "outcome_code": "kết quả",
    },
    "en": {
        "title": "formulary-fsm — state machine review (for sign-off)",
        "fingerprint": "Spec fingerprint",
        "generated": "Generated",
        "signoffs": "Sign-offs recorded for exactly this fingerprint",
        "signed_by": "Signed by", "role": "Role", "when": "When", "note": "Note",
        "none_signed": "Nobody has signed this fingerprint yet. A server running with REQUIRE_SIGNOFF=true refuses to "
                       "start until it is signed.",
        "unknown_signed": "The sign-offs could not be read from the database when this page was generated.",
        "how_to_sign": "How to sign: after reading this whole page, run the following with the server's "
                       "configuration (the command refuses if the fingerprint is not the running one):",
        "limits": "Limits in force",
        "routing_diagram": "Routing diagram (read top to bottom; the first matching condition wins)",
        "phases": "The machine, phase by phase",
        "phases_intro": "One diagram per phase. Dashed boxes are steps of another phase. The full machine in one "
                        "picture is machine.svg beside this page.",
        "routing_table": "Routing table (the first matching condition wins)",
        "after_routing": "Rules after routing",
        "guards": "Conditions and limits",
        "examples": "An example conversation for each routing row",
        "examples_intro": "Each example comes from the golden transcripts (fixtures/transcripts), run over the "
                          "synthetic test formulary with the offline components, shown as the user sees it (replies "
                          "are in Vietnamese, as users read them).",
        "no_example": "No golden transcript takes this row with the offline understander (it happens only when "
                      "understanding fails or a language model understands the question).",
        "row": "Row", "condition": "Condition", "outcome": "Outcome", "told": "What the user is told",
        "why": "Rationale", "details": "Technical details", "example": "Example", "see_example": "see example",
        "from": "From", "to": "To", "limit": "Limit", "effect": "What happens",
        "you": "User", "assistant": "Assistant", "sources": "Sources",
        "manual_sign": "Signature (printed copy)", "pharmacist": "Clinical pharmacist", "doctor": "Physician",
        "name": "Name", "signature": "Signature", "date": "Date", "conversation": "golden conversation",
        "reason_code": "reason code", "outcome_code": "outcome",
    },
}

_EMPHASIS = re.compile(r"(\*\*|\*)(?=\S)(.+?)(?<=\S)\1", re.S)


def _e(text: str | None) -> str:
    return html.escape(text or "")


def render_markdown_inline(text: str) -> str:
    """Escape everything, then turn *italic* and **bold** into emphasis (the formulary's own labels use them)."""
    escaped = html.escape(text)
    return _EMPHASIS.sub(lambda m: f"<{'strong' if m.group(1) == '**' else 'em'}>{m.group(2)}"
                                   f"</{'strong' if m.group(1) == '**' else 'em'}>", escaped)


def _signoff_block(fp: str, signoffs: Sequence[SignOff] | None, t: Mapping[str, str]) -> str:
    command = f"{SIGN_COMMAND} --fingerprint {fp}"
    how = f"<p>{_e(t['how_to_sign'])}</p><code class=\"cmd\">{_e(command)}</code>"
    if signoffs is None:
        return f'<div class="unsigned" id="signoffs"><p>{_e(t["unknown_signed"])}</p>{how}</div>'
    if not signoffs:
        return f'<div class="unsigned" id="signoffs"><p>{_e(t["none_signed"])}</p>{how}</div>'
    rows = "".join(
        f"<tr><td>{_e(s.signed_by)}</td><td>{_e(s.role)}</td>"
        f"<td>{_e(s.signed_at.strftime('%Y-%m-%d %H:%M UTC') if s.signed_at else '')}</td><td>{_e(s.note)}</td></tr>"
        for s in signoffs)
    return (f'<div class="signed" id="signoffs"><table><tr><th>{_e(t["signed_by"])}</th><th>{_e(t["role"])}</th>'
            f'<th>{_e(t["when"])}</th><th>{_e(t["note"])}</th></tr>{rows}</table>{how}</div>')


def _example_html(example: Example, t: Mapping[str, str]) -> str:
    parts = [f'<div class="example" data-transcript="{_e(example.transcript_id)}">']
    for user, reply in example.turns:
        parts.append(f'<div class="bubble user"><span class="sr">{_e(t["you"])}: </span>{_e(user)}</div>')
        badge = outcome_badge(reply.outcome, reply.reason)  # what the chat page shows, in Vietnamese
        head = f'<span class="badge b-{_e(reply.outcome)}">{_e(badge)}</span>\n' if badge else ""
        cites = []
        seen: set[tuple[str, str]] = set()
        for c in reply.citations:
            key = (c.doc_id, c.quote)
            if key in seen:
                continue
            seen.add(key)
            page = f", tr. {c.page}" if c.page else ""
            cites.append(f'<div class="cite"><strong>{_e(c.drug_name)} — {_e(c.section_title)}{_e(page)}</strong>'
                         f"<br>{render_markdown_inline(c.quote)}</div>")
        chips = "".join(f'<span class="chip">{_e(q)}</span>' for q in reply.quick_replies)
        parts.append(f'<div class="bubble bot">{head}{render_markdown_inline(reply.reply)}{"".join(cites)}'
                     f"{('<div>' + chips + '</div>') if chips else ''}</div>")
    parts.append("</div>")
    return "".join(parts)


def render_html(spec: MachineSpec, *, svg: str | None, mermaid: str, generated: datetime, lang: Lang = "vi",
                routing_svg: str | None = None, phase_svgs: Mapping[str, str] | None = None,
                signoffs: Sequence[SignOff] | None = None, examples: Mapping[int, Example] | None = None) -> str:
    t = UI[lang]
    fp = spec_fingerprint(spec)
    numbers = row_labels(spec)
    examples = examples or {}
    rows = []
    for i, tr in enumerate(spec.transitions):
        if not tr.row:
            continue
        told = reason_label(tr.reason, lang) if tr.reason else ""
        link = (f'<a href="#example-{_e(numbers[i])}">{_e(t["see_example"])}</a>' if i in examples else "—")
        rows.append(f'<tr id="row-{_e(numbers[i])}"><td>{_e(numbers[i])}</td><td>{_e(condition_text(spec, tr, lang))}'
                    f"</td><td>{_e(outcome_text(spec, tr, lang))}</td><td>{_e(told)}</td>"
                    f"<td>{_e(rationale(tr.rationale, lang))}</td><td>{link}</td>"
                    f'<td class="details"><code>{_e(details(tr))}</code></td></tr>')
    others = [
        f"<tr><td>{_e(state_label(spec, tr.source, lang))}</td><td>{_e(condition_text(spec, tr, lang))}</td>"
        f"<td>{_e(state_label(spec, tr.dest, lang))}</td>"
        f"<td>{_e(reason_label(tr.reason, lang) if tr.reason else '')}</td><td>{_e(rationale(tr.rationale, lang))}"
        f'</td><td class="details"><code>{_e(tr.trigger)}: {_e(details(tr))}</code></td></tr>'
        for tr in spec.transitions if not tr.row
    ]
    guards = [
        f"<tr><td>{_e(g.label_vi if lang == 'vi' else g.label_en)}</td><td>{_e(g.limit.replace(';', ',') if g.limit else '')}"
        f'</td><td>{_e(effect(g.name, lang))}</td><td class="details"><code>{_e(g.name)}</code></td></tr>'
        for g in spec.guards
    ]
    # Engineers' table: the state's plain label, then its code names in "details" cells.
    states = "".join(
        f"<tr><td>{_e(state_label(spec, row[0], lang))}</td>"
        + "".join(f'<td class="details"><code>{_e(x)}</code></td>' for x in row) + "</tr>"
        for row in state_rows(spec))
    state_head = ("Bước", "Mã trạng thái", "Sự kiện", "Hàm (step)", "Đọc", "Ghi", "Gọi mô hình") if lang == "vi" else (
        "Step", "State code", "Trigger", "Function (step)", "Reads", "Writes", "Calls a model")
    state_title = "Các trạng thái và công việc" if lang == "vi" else "States and their work"
    limits = "".join(f"<li>{_e(limit_label(n, lang))}: <strong>{v}</strong> <code>{_e(n)}</code></li>"
                     for n, v in spec.limits)
    phase_parts = []
    for n, phase in enumerate(PHASES, 1):
        drawing = (phase_svgs or {}).get(f"phase-{n}-{phase.key}.svg")
        body = drawing if drawing else f"<pre>{_e(mermaid)}</pre>" if n == 1 else ""
        phase_parts.append(f'<h3>{_e(phase.title(lang))}</h3><div class="diagram phase" id="phase-{_e(phase.key)}">'
                           f"{body}</div>")
    example_parts = []
    for i, tr in enumerate(spec.transitions):
        if not tr.row:
            continue
        result = outcome_text(spec, tr, lang)
        arrow = " " if result.startswith("→") else " → "
        head = f"{_e(t['row'])} {_e(numbers[i])}: {_e(condition_text(spec, tr, lang))}{arrow}{_e(result)}"
        if tr.reason:
            head += f" ({_e(reason_label(tr.reason, lang))})"
        body = _example_html(examples[i], t) if i in examples else f"<p><em>{_e(t['no_example'])}</em></p>"
        example_parts.append(f'<h3 id="example-{_e(numbers[i])}">{head}</h3>{body}')
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{_e(t["title"])}</title>
<style>{_CSS}</style></head><body>
<h1>{_e(t["title"])}</h1>
<p>{_e(t["fingerprint"])}: <span class="fp" id="fingerprint">{fp}</span><br>
{_e(t["generated"])}: <span id="generated">{generated.strftime("%Y-%m-%d %H:%M UTC")}</span></p>
<h2>{_e(t["signoffs"])}</h2>{_signoff_block(fp, signoffs, t)}
<h2>{_e(t["limits"])}</h2><ul>{limits}</ul>
<h2>{_e(t["routing_diagram"])}</h2>
<div class="diagram routing-diagram">{routing_svg or ""}</div>
<h2>{_e(t["routing_table"])}</h2>
<table id="routing"><tr><th>#</th><th>{_e(t["condition"])}</th><th>{_e(t["outcome"])}</th><th>{_e(t["told"])}</th>
<th>{_e(t["why"])}</th><th>{_e(t["example"])}</th><th>{_e(t["details"])}</th></tr>
{"".join(rows)}</table>
<h2>{_e(t["phases"])}</h2><p>{_e(t["phases_intro"])}</p>
{"".join(phase_parts)}
<h2>{_e(t["after_routing"])}</h2>
<table id="after-routing"><tr><th>{_e(t["from"])}</th><th>{_e(t["condition"])}</th><th>{_e(t["to"])}</th>
<th>{_e(t["told"])}</th><th>{_e(t["why"])}</th><th>{_e(t["details"])}</th></tr>{"".join(others)}</table>
<h2>{_e(t["guards"])}</h2>
<table id="guards"><tr><th>{_e(t["condition"])}</th><th>{_e(t["limit"])}</th><th>{_e(t["effect"])}</th>
<th>{_e(t["details"])}</th></tr>
{"".join(guards)}</table>
<h2>{_e(state_title)}</h2>
<table id="states"><tr>{"".join(f"<th>{_e(h)}</th>" for h in state_head)}</tr>
{states}</table>
<h2 id="examples">{_e(t["examples"])}</h2><p>{_e(t["examples_intro"])}</p>
{"".join(example_parts)}
<h2>{_e(t["manual_sign"])}</h2>
<table class="sign"><tr><th>{_e(t["role"])}</th><th>{_e(t["name"])}</th><th>{_e(t["signature"])}</th>
<th>{_e(t["date"])}</th></tr>
<tr><td>{_e(t["pharmacist"])}</td><td></td><td></td><td></td></tr><tr><td>{_e(t["doctor"])}</td><td></td><td></td>
<td></td></tr></table>
</body></html>
"""
