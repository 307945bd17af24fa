"""review.html: one self-contained, printable page for sign-off (inline SVG, tables, fingerprint, date)."""

from __future__ import annotations

import html
from datetime import datetime

from engine.fingerprint import spec_fingerprint
from engine.review.labels import OUTCOME_LABEL, Lang, condition_text
from engine.review.tables import state_rows
from engine.spec import MachineSpec

_CSS = """
body{font-family:"DejaVu Sans",Arial,sans-serif;margin:2rem;color:#111}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}
table{border-collapse:collapse;width:100%;font-size:.85rem;margin:.5rem 0}
th,td{border:1px solid #999;padding:.3rem .5rem;vertical-align:top;text-align:left}
th{background:#eef2ff}.fp{font-family:monospace;background:#f3f4f6;padding:.2rem .4rem}
.diagram svg{max-width:100%;height:auto}.sign td{height:3rem}
pre{white-space:pre-wrap;font-size:.75rem;background:#f9fafb;padding:1rem}
@media print{body{margin:1cm}.diagram{page-break-after:always}}
"""


def _e(text: str | None) -> str:
    return html.escape(text or "")


def render_html(spec: MachineSpec, *, svg: str | None, mermaid: str, generated: datetime, lang: Lang = "vi",
                routing_svg: str | None = None) -> str:
    fp = spec_fingerprint(spec)
    rows = []
    for t in spec.transitions:
        if not t.row:
            continue
        outcome = OUTCOME_LABEL[lang].get(t.outcome or "", "") if t.outcome else f"→ {t.dest}"
        rows.append(f"<tr><td>{_e(t.row)}</td><td>{_e(condition_text(spec, t, lang))}</td><td>{_e(outcome)}</td>"
                    f"<td><code>{_e(t.reason)}</code></td><td>{_e(t.rationale)}</td></tr>")
    guards = [
        f"<tr><td><code>{_e(g.name)}</code></td><td>{_e(g.label_vi)}</td><td>{_e(g.label_en)}</td>"
        f"<td>{_e(g.limit)}</td><td>{_e(g.on_trip)}</td></tr>"
        for g in spec.guards
    ]
    others = [
        f"<tr><td>{_e(t.source)}</td><td>{_e(t.trigger)}</td><td>{_e(condition_text(spec, t, lang))}</td>"
        f"<td>{_e(t.dest)}</td><td><code>{_e(t.reason)}</code></td></tr>"
        for t in spec.transitions if not t.row
    ]
    states = "".join("<tr>" + "".join(f"<td>{_e(x)}</td>" for x in row) + "</tr>" for row in state_rows(spec))
    diagram = svg if svg else f"<p>Graphviz không có sẵn; sơ đồ Mermaid:</p><pre>{_e(mermaid)}</pre>"
    limits = "".join(f"<li><code>{_e(n)}</code> = {v}</li>" for n, v in spec.limits)
    return f"""<!DOCTYPE html>
<html lang="vi"><head><meta charset="utf-8"><title>formulary-fsm — hồ sơ duyệt máy trạng thái</title>
<style>{_CSS}</style></head><body>
<h1>formulary-fsm — hồ sơ duyệt máy trạng thái (bản để ký duyệt)</h1>
<p>Spec fingerprint: <span class="fp" id="fingerprint">{fp}</span><br>
Ngày tạo: <span id="generated">{generated.strftime("%Y-%m-%d %H:%M UTC")}</span></p>
<h2>Giới hạn đang chạy</h2><ul>{limits}</ul>
<h2>Sơ đồ định tuyến (đọc từ trên xuống, khớp đầu tiên được chọn)</h2>
<div class="diagram routing-diagram">{routing_svg or ""}</div>
<h2>Sơ đồ toàn bộ máy trạng thái</h2><div class="diagram">{diagram}</div>
<h2>Bảng định tuyến (khớp đầu tiên được chọn)</h2>
<table id="routing"><tr><th>#</th><th>Điều kiện</th><th>Kết quả</th><th>Lý do</th><th>Cơ sở</th></tr>
{"".join(rows)}</table>
<h2>Các quy tắc sau định tuyến</h2>
<table><tr><th>Từ</th><th>Sự kiện</th><th>Điều kiện</th><th>Đến</th><th>Lý do</th></tr>{"".join(others)}</table>
<h2>Các điều kiện (guard)</h2>
<table id="guards"><tr><th>Guard</th><th>Nhãn</th><th>Label</th><th>Giới hạn</th><th>Khi điều kiện đúng</th></tr>
{"".join(guards)}</table>
<h2>Các trạng thái và công việc</h2>
<table id="states"><tr><th>Trạng thái</th><th>Sự kiện</th><th>Bước</th><th>Đọc</th><th>Ghi</th><th>Gọi mô hình</th></tr>
{states}</table>
<h2>Ký duyệt</h2>
<table class="sign"><tr><th>Vai trò</th><th>Họ tên</th><th>Chữ ký</th><th>Ngày</th></tr>
<tr><td>Dược sĩ lâm sàng</td><td></td><td></td><td></td></tr><tr><td>Bác sĩ</td><td></td><td></td><td></td></tr></table>
</body></html>
"""
