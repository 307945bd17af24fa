"""What one regimen line states: its maxima, its dose rule (where certain), whether it excludes, whether it is a
flattened table. Pure functions over one line's text."""

from __future__ import annotations

import re
from functools import lru_cache

from core.dosage.model import Maximum, MaximumKind, Rule
from core.numbers import Quantity, extract_quantities
from core.text import fold

_DOSE_UNIT = re.compile(r"^(mg|ml|iu|don vi|vien|goi|ong|giot|mmol|meq)(/|$)")
_MAX_CUE = re.compile(r"\b(toi da|lieu toi da|khong (duoc )?(qua|vuot qua|vuot)|khong (tiem|truyen|dung) (vuot )?qua|"
                      r"khong (nen |duoc )?(dung|uong|tiem|truyen|cho)( lieu)? (vuot )?qua|"
                      r"khong vuot qua|den toi da|co the (tang )?(len )?toi)\b")
_EXCLUSION = re.compile(
    r"\b(khong (duoc )?(dung|nen dung|khuyen cao( dung)?|su dung)|chong chi dinh|tranh dung|"
    r"chua (duoc )?xac dinh|chua co (du lieu|kinh nghiem)|khong co (du lieu|lieu))\b")
_FORM_RESTRICTION = re.compile(r"^\s*(cac dang|dang|vien|thuoc tiem|de tu|ong tiem|ong thuoc|bom tiem|(?:lo|chai|ong|tui)\b|"
                               r"dung moi|dung dich|che pham|san pham|loai (thuoc|che pham)|lieu tan cong|keo dai|qua \d|[a-z]+ de tu|paracetamol|"
                               r"lieu (qua|vuot|cao hon|lon hon|toi da))")
"""What follows "không dùng …" when it restricts a form or a dose, not the patient: "không dùng liều tấn công",
"không nên dùng liều quá 100 mg/kg/ngày" (a ceiling), "không dùng thuốc tiêm có alcol benzylic …", "không dùng ống tiêm chứa dung dịch pha có alcol benzylic" (a product or
container: the child is still given the drug, prepared another way).
A route that follows ("không khuyến cáo tiêm bắp … cho trẻ
em") is an exclusion on that route: the parser keeps the route on the line."""
_DIVIDED = re.compile(r"\bchia( lam| thanh)? (\d+)(?:\s*(?:-|–|hoac)\s*(\d+))? (lan|lieu)")
_TIMES_A_DAY = re.compile(r"(\d+)(?:\s*(?:-|–)\s*(\d+))? lan\s*/\s*(ngay|24 gio)")
_INTERVAL = re.compile(r"\b(cach|moi|cu)( nhau)?( khoang)? (\d+)(?:\s*(?:-|–)\s*(\d+))?\s*gio")


def is_dose(q: Quantity) -> bool:
    return bool(_DOSE_UNIT.match(q.unit)) and not q.unit.startswith("ml/phut")


def dose_quantities(text: str) -> list[Quantity]:
    return [q for q in extract_quantities(text) if is_dose(q)]


def _max_kind(q: Quantity, after: str) -> MaximumKind:
    unit = q.unit
    if unit.startswith(("lieu/", "lan/")):
        return "doses_per_day"
    if unit.startswith("mg/kg/"):
        return "per_kg_day" if re.search(r"/(ngay|24gio)$", unit) else "per_kg_dose"
    if unit == "mg/kg" or unit == "mg/kg/lan":
        return "per_kg_dose"
    if re.search(r"/(ngay|24gio)$", unit):
        return "per_day"
    if unit.endswith("/lan") or re.match(r"^\s*(mot lan|moi lan|/ ?lan)", after):
        return "per_dose"
    return "absolute"


@lru_cache(maxsize=16_384)
def maxima(text: str) -> tuple[Maximum, ...]:
    """Every 'tối đa …' / 'không quá …' ceiling the line states, with its kind.

    Cached: a pure function of the line (Maximum is frozen); the calculator's selection, the binding and omission
    checks read the same lines' ceilings many times per dosing turn."""
    folded = fold(text)
    found: list[Maximum] = []
    for cue in _MAX_CUE.finditer(folded):
        window = folded[cue.end(): cue.end() + 40]
        for q in extract_quantities(window):
            if not (is_dose(q) or q.unit.startswith(("lieu/", "lan/"))):
                continue
            after = window[window.find(q.text) + len(q.text):]
            found.append(Maximum(_max_kind(q, after), float(q.low), float(q.high), q.unit,
                                 folded[cue.start(): cue.end() + window.find(q.text) + len(q.text)]))
            break
    return tuple(found)


def _pair(a: str, b: str | None) -> tuple[float, float]:
    return float(a), float(b) if b else float(a)


def rule(text: str) -> Rule | None:
    """The line's dose rule when it states exactly one dose (outside its ceilings); None when not certain."""
    folded = fold(text)
    ceilings = {m.text for m in maxima(text)}
    doses = [q for q in dose_quantities(folded) if not any(q.text in c for c in ceilings)]
    if len(doses) != 1:
        return None
    q = doses[0]
    divided = _DIVIDED.search(folded)
    times = _TIMES_A_DAY.search(folded)
    interval = _INTERVAL.search(folded)
    per_day = _pair(divided.group(2), divided.group(3)) if divided else (
        _pair(times.group(1), times.group(2)) if times else None)
    hours = _pair(interval.group(4), interval.group(5)) if interval else None
    frequency = ", ".join(m.group(0) for m in (divided, times, interval) if m)
    if q.unit in ("mg", "mg/lan"):
        return Rule("fixed", float(q.low), float(q.high), "mg", per_day, hours, frequency)
    if q.unit in ("mg/kg", "mg/kg/lan"):
        return Rule("per_kg_dose", float(q.low), float(q.high), "mg/kg", per_day, hours, frequency)
    if q.unit in ("mg/kg/ngay", "mg/kg/24gio"):
        return Rule("per_kg_day_divided", float(q.low), float(q.high), q.unit, per_day, hours, frequency)
    return None


def excludes(text: str) -> bool:
    """The line says the drug is not to be given (to the band it names): never a dose for that band.

    A restriction of one form ("không dùng các dạng hỗn hợp…", "không dùng liều tấn công") is not an exclusion
    of the patient."""
    folded = fold(text)
    m = _EXCLUSION.search(folded)
    if not m:
        return False
    return not _FORM_RESTRICTION.match(folded[m.end():])


def restricts_form(text: str) -> bool:
    """The line forbids a form or a dose, not the patient ("Không dùng viên 875 mg khi …"): see `_FORM_RESTRICTION`."""
    folded = fold(text)
    m = _EXCLUSION.search(folded)
    return m is not None and _FORM_RESTRICTION.match(folded[m.end():]) is not None


_ABSENCE = re.compile(r"\b(khong co (du lieu|so lieu)|chua co (du lieu|so lieu)|lieu chua (duoc )?xac dinh)\b")


def absence(text: str) -> bool:
    """The exclusion says the book has no data or no dose for its band ("từ 12 tháng tuổi - 10 tuổi: không có dữ
    liệu", "Dưới 3 tuổi: Liều chưa được xác định"), not that the drug must not be given. It withholds the general
    lines from that band, but not a line whose own band the patient is in (the starting dose stated for 12 months -
    18 years beside "no maintenance data for 12 months - 10 years")."""
    return _ABSENCE.search(fold(text)) is not None


def looks_like_table(text: str) -> bool:
    """A flattened table: column headings and runs of numbers that lost their labels.

    Measured on real extracted text: a table row run has many numbers with no unit next to each other
    ("> 10 0 - 10 Không cần điều chỉnh 200 mg …"); running text almost never has three such numbers."""
    folded = fold(text)
    quantities = extract_quantities(folded)
    bare = [q for q in quantities if q.is_bare]
    header = re.search(r"\((ml/ ?phut|mg|kg)\)\s+[a-z]", folded) is not None
    return (len(bare) >= 3 and len(quantities) >= 6) or (header and len(quantities) >= 4)
