"""Monograph heading → section key, matched without diacritics and tolerant of real variants.

Converted PDF text spells headings many ways ("Thời kì", "Thông tin qui chế", "Tác dụng không mong
muốn(ADR)", OCR damage such as "Đô ổn đinh"). Matching works on a *heading form*: folded (no
diacritics), punctuation dropped, and y → i (Vietnamese writes "kỳ"/"kì", "quy"/"qui" interchangeably).
Exact forms and listed variants are tried first; a high-threshold fuzzy match catches residual OCR damage.
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from core.sections import SECTION_HEADINGS
from core.text import fold

_NON_WORD = re.compile(r"[^a-z0-9]+")

# Variants seen in converted text (see /work/shared/FORMULARY.md), beyond the canonical headings.
VARIANTS: dict[str, tuple[str, ...]] = {
    "dang_thuoc_ham_luong": ("Dạng bào chế và hàm lượng", "Dạng thuốc", "Dạng thuốc, hàm lượng"),
    "duoc_ly_co_che": ("Dược lý", "Dược lý và cơ chế", "Cơ chế tác dụng"),
    "tac_dung_khong_mong_muon": ("Tác dụng không mong muốn", "Tác dụng phụ"),
    "huong_dan_xu_tri_adr": ("Hướng dẫn cách sử trí ADR", "Hướng dẫn xử trí ADR", "Xử trí ADR"),
    "lieu_luong_cach_dung": ("Liều dùng và cách dùng", "Liều lượng, cách dùng", "Cách dùng và liều lượng",
                             "Liều lượng và cách sử dụng", "Liều dùng"),
    "do_on_dinh_bao_quan": ("Bảo quản", "Độ ổn định", "Độ ổn định, bảo quản"),
    "qua_lieu_xu_tri": ("Quá liều cấp tính và xử trí", "Quá liều và cách xử trí", "Quá liều", "Quá liều và điều trị",
                        "Quá liều và xử lý"),
    "thong_tin_quy_che": ("Thông tin qui chế",),
    "ten_thuong_mai": ("Tên biệt dược", "Biệt dược"),
    "ten_chung_quoc_te": ("Tên quốc tế",),
    "tuong_tac_thuoc": ("Tương tác", "Tương tác với thuốc khác"),
}

FUZZY_THRESHOLD = 90.0


def heading_form(text: str) -> str:
    """'## **Thời kì mang thai:**' → 'thoi ki mang thai'."""
    stripped = text.strip().lstrip("#").strip()
    words = _NON_WORD.sub(" ", fold(stripped)).split()
    return " ".join(w.replace("y", "i") for w in words)


def _build_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for key, heading in SECTION_HEADINGS.items():
        table[heading_form(heading)] = key
        table[heading_form(key.replace("_", " "))] = key
    for key, variants in VARIANTS.items():
        for variant in variants:
            table[heading_form(variant)] = key
    return table


_TABLE = _build_table()


def match_heading(text: str) -> str | None:
    """The section key a heading names, or None when it names none (the caller keeps and reports it)."""
    form = heading_form(text)
    if not form:
        return None
    if form in _TABLE:
        return _TABLE[form]
    best_key, best_score = None, 0.0
    for known, key in _TABLE.items():
        score = fuzz.ratio(form, known)
        if score > best_score:
            best_key, best_score = key, score
    return best_key if best_score >= FUZZY_THRESHOLD else None
