"""A line giving one dose per purpose is quoted only for the purpose asked (#17: aspirin long-term vs loading)."""

from __future__ import annotations

from core.dosage.model import RegimenLine
from core.dosage.parse import parse_dosage
from core.dosage.select import purpose_text

# Synthetic, in the real book's shape (numbers changed).
SECTION = (
    "Người lớn: Ức chế kết tập tiểu cầu: Trong trường hợp dự phòng dài hạn biến chứng tim mạch ở bệnh nhân nguy cơ "
    "cao, dùng liều 70 - 140 mg/ngày. Trong trường hợp cấp tính như nhồi máu cơ tim, nhồi máu não, dùng liều nạp "
    "160 - 310 mg."
)
FUROSEMIDE_LIKE = "Uống: Người lớn: Phù: khởi đầu 20 mg/ngày. Phù kháng trị có thể cần 80 mg/ngày hoặc hơn."


def _line(section: str) -> RegimenLine:
    return next(line for line in parse_dosage(section).lines if line.kind == "regimen")


def test_the_long_term_question_gets_the_long_term_sentence_only() -> None:
    part = purpose_text(_line(SECTION), "dự phòng biến chứng tim mạch lâu dài")
    assert "70 - 140 mg/ngày" in part and "160 - 310" not in part


def test_the_infarction_question_gets_the_loading_dose_only() -> None:
    part = purpose_text(_line(SECTION), "nhồi máu cơ tim cấp")
    assert "160 - 310 mg" in part and "70 - 140" not in part


def test_no_purpose_named_keeps_the_whole_line() -> None:
    line = _line(SECTION)
    assert purpose_text(line, None) == line.text


def test_the_lines_own_lead_in_keeps_the_whole_line() -> None:
    line = _line(FUROSEMIDE_LIKE)
    assert purpose_text(line, "phù") == line.text
