"""Patient and dosing slots stated in one Vietnamese turn: population, age, weight, route, patient context.

Everything matches on folded text (no diacritics), so "18 ký", "18 ky" and "18kg" read alike; values quoted
back to the user (age text, renal phrase) are taken from the turn as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.text import fold, normalize
from core.vocabulary import (
    CHAT_ADULT,
    CHAT_BREASTFEEDING,
    CHAT_CHILD,
    CHAT_PREGNANT,
    NEWBORN,
    ROUTES,
    route_patterns,
)

ADULT_FROM_MONTHS = 18 * 12

# A minus sign before a number makes it no age or weight at all ("bé -5 tuổi" is a typo or a probe): the
# slot stays empty and the machine asks, rather than dosing for 5 years.
_NUM = r"(?<![-\u2212])(\d+(?:[.,]\d+)?)"

# --- age -------------------------------------------------------------------------------------------------
_PERSON = r"(be|tre|chau|con|em be|toi|minh|nguoi|benh nhan|bn|ba|ong|anh|chi|em|me|bo|nam|nu)"
_AGE_YEARS = re.compile(rf"\b{_NUM}\s*(?:tuoi|t)\b(?! thai)")
_AGE_MONTHS_TUOI = re.compile(rf"\b{_NUM}\s*thang tuoi\b")
_AGE_MONTHS_PERSON = re.compile(rf"\b{_PERSON}( [a-z]+){{0,2}} {_NUM}\s*thang\b(?! (dau|cuoi|giua|nay|truoc|sau))")
_AGE_MONTHS_BARE = re.compile(rf"^(?:be |chau |tre |con )?{_NUM}\s*thang\b")
_AGE_WEEKS = re.compile(rf"\b{_NUM}\s*tuan tuoi\b")
_AGE_DAYS = re.compile(rf"\b{_NUM}\s*ngay tuoi\b")
_PREGNANCY_MONTHS = re.compile(rf"\b(thai|bau|mang thai|co thai)( [a-z]+){{0,2}} {_NUM}\s*(thang|tuan)\b")

# --- weight ----------------------------------------------------------------------------------------------
_WEIGHT = re.compile(rf"(?<![/\w]){_NUM}\s*(?:kg|kgs|ky|ki|kilo|kilogram|kilogam|can)\b")
_WEIGHT_BARE = re.compile(rf"\bnang {_NUM}\b(?!\s*(?:tuoi|thang|mg|ml|g)\b)")

# --- population ------------------------------------------------------------------------------------------
_ADULT = CHAT_ADULT
_CHILD = CHAT_CHILD
_NEWBORN = NEWBORN

# --- route -----------------------------------------------------------------------------------------------
_ROUTES = route_patterns("chat")
_AS_WRITTEN = {r.route: r.as_written for r in ROUTES if r.as_written}
_ASCII_INHALED = re.compile(r"\b(xit|hit|phun mu|binh xit|(may|bang|dang|duong|phun|thuoc) khi dung|khi dung (cho|mot|ngay|lan))\b")

# --- patient context -------------------------------------------------------------------------------------
_PREGNANT = CHAT_PREGNANT
_BREASTFEEDING = CHAT_BREASTFEEDING
_RENAL = re.compile(r"\b(suy than( (nhe|vua|nang|man|cap|giai doan \d))?|do thanh thai creatinin[^.,;?]*|"
                    r"thanh thai creatinin[^.,;?]*|clcr[^.,;?]*|chay than|loc mau|benh than|chuc nang than kem)")
_HEPATIC = re.compile(r"\b(suy gan( (nhe|vua|nang))?|xo gan|benh gan|viem gan( [a-z])?|men gan cao|"
                      r"chuc nang gan kem)\b")
_COMORBIDITY_CUE = re.compile(r"\b(benh nen|tien su|co benh|dang bi|mac benh|mac|kem theo|bi ca)\b")
COMORBIDITIES: tuple[str, ...] = (
    "tang huyet ap", "huyet ap cao", "dai thao duong", "tieu duong", "hen phe quan", "hen", "suy tim", "benh tim",
    "loet da day", "viem loet da day", "dong kinh", "gut", "roi loan dong mau", "benh mach vanh", "copd",
    "benh phoi tac nghen", "roi loan mo mau", "cuong giap", "suy giap", "tram cam",
)


@dataclass
class Slots:
    population: str | None = None
    age_text: str | None = None
    age_months: float | None = None
    weight_kg: float | None = None
    route: str | None = None
    pregnant: bool = False
    breastfeeding: bool = False
    renal: str | None = None
    hepatic: str | None = None
    comorbidities: list[str] = field(default_factory=list)
    newborn: bool = False

    def any_patient_value(self) -> bool:
        return any(v is not None for v in (self.population, self.age_months, self.weight_kg, self.route))


def _number(raw: str) -> float:
    return float(raw.replace(",", "."))


def _fmt(value: float) -> str:
    return str(int(value)) if value.is_integer() else f"{value:g}".replace(".", ",")


def _span_as_written(text: str, folded: str, m: re.Match[str]) -> str:
    # normalize() + fold() keep character positions for NFC text, so the match maps back to the original words.
    if len(text) == len(folded):
        return text[m.start():m.end()].strip()
    return m.group(0).strip()


def extract_age(folded: str) -> tuple[float | None, str | None]:
    """Age in months and as Vietnamese text; pregnancy durations ("mang thai 3 tháng") are not ages."""
    scrubbed = _PREGNANCY_MONTHS.sub(" ", folded)
    for pattern, unit in ((_AGE_MONTHS_TUOI, "m"), (_AGE_WEEKS, "w"), (_AGE_DAYS, "d"),
                          (_AGE_MONTHS_PERSON, "m"), (_AGE_MONTHS_BARE, "m"), (_AGE_YEARS, "y")):
        m = pattern.search(scrubbed)
        if not m:
            continue
        raw = next(g for g in reversed(m.groups()) if g and re.fullmatch(_NUM, g))
        n = _number(raw)
        if unit == "y":
            if m.group(0).endswith("t") and not _short_or_person(scrubbed, m):
                continue
            if n > 120:
                continue
            return n * 12, f"{_fmt(n)} tuổi"
        if unit == "w":
            return round(n / 4.345, 2), f"{_fmt(n)} tuần tuổi"
        if unit == "d":
            return round(n / 30.44, 2), f"{_fmt(n)} ngày tuổi"
        if n > 60:
            continue
        return n, f"{_fmt(n)} tháng tuổi"
    return None, None


def _short_or_person(folded: str, m: re.Match[str]) -> bool:
    """'5t' counts as an age in a short reply or right after a person word ('bé 5t')."""
    before = folded[:m.start()].split()
    return len(folded.split()) <= 3 or bool(before and re.fullmatch(_PERSON, before[-1]))


def extract_weight(folded: str) -> float | None:
    m = _WEIGHT.search(folded) or _WEIGHT_BARE.search(folded)
    if not m:
        return None
    value = _number(m.group(1))
    return value if 0.3 <= value <= 300 else None


def _route_named(route: str, pattern: re.Pattern[str], folded: str, text: str) -> bool:
    if not pattern.search(folded):
        return False
    if route in _AS_WRITTEN and text and not text.isascii():
        lowered = text.lower()
        return any(word in lowered for word in _AS_WRITTEN[route])
    if route == "inhaled" and text.isascii():
        return bool(_ASCII_INHALED.search(folded))
    return True


def extract_route(folded: str, text: str = "") -> str | None:
    """The one route the turn names; None when it names none or several ("uống hay đặt hậu môn?")."""
    found: list[str] = []
    rest = folded
    for route, pattern in _ROUTES:
        if _route_named(route, pattern, rest, text):
            found.append(route)
            rest = pattern.sub(" ", rest)  # "tiêm tĩnh mạch" must not also count as another route
    if len(found) == 2 and found[1] == "oral" and not re.search(r"\b(hay|hoac|hoặc)\b", folded):
        # "uống" is often just the verb ("uống Ventolin xịt"); a choice ("uống hay đặt hậu môn?") is no route.
        return found[0]
    return found[0] if len(found) == 1 else None


def extract_population(folded: str, age_months: float | None, *, mother: bool) -> str | None:
    if age_months is not None:
        return "adult" if age_months >= ADULT_FROM_MONTHS else "pediatric"
    if mother:
        # "mẹ cho con bú … có ảnh hưởng đến bé không": the patient is the mother; "bé" is the nursing infant.
        return "adult"
    adult, child = bool(_ADULT.search(folded)), bool(_CHILD.search(_BREASTFEEDING.sub(" ", folded)))
    if adult and child:
        return None
    if adult:
        return "adult"
    if child:
        return "pediatric"
    return None


def extract_slots(text: str) -> Slots:
    text = normalize(text)
    folded = fold(text)
    age_months, age_text = extract_age(folded)
    pregnant = bool(_PREGNANT.search(folded))
    breastfeeding = bool(_BREASTFEEDING.search(folded))
    renal_m = _RENAL.search(folded)
    hepatic_m = _HEPATIC.search(folded)
    comorbidities: list[str] = []
    if _COMORBIDITY_CUE.search(folded):
        for name in COMORBIDITIES:
            m = re.search(rf"\b{name}\b", folded)
            if m and not any(name in fold(c) for c in comorbidities):
                comorbidities.append(_span_as_written(text, folded, m))
    return Slots(
        population=extract_population(folded, age_months, mother=(pregnant or breastfeeding)
                                      and not re.search(r"\b(tre em|so sinh)\b", folded)),
        age_text=age_text,
        age_months=age_months,
        weight_kg=extract_weight(folded),
        route=extract_route(folded, text),
        pregnant=pregnant,
        breastfeeding=breastfeeding,
        renal=_span_as_written(text, folded, renal_m) if renal_m else None,
        hepatic=_span_as_written(text, folded, hepatic_m) if hepatic_m else None,
        comorbidities=comorbidities,
        newborn=bool(_NEWBORN.search(folded)),
    )
