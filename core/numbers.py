"""Every number in Vietnamese formulary text, with its unit, normalised so a claim can be compared with its block.

Text is folded first (no diacritics, lower case), so `giờ` is `gio` and `tuổi` is `tuoi`. Normalisation:

- decimal commas (`0,5`) and thousands separators (`1 000`, `1.000`) become exact `Decimal`s;
- units are spelled one way (`µg`, `microgam` → mcg; `tháng tuổi` → months) and mass, volume and age are
  converted to one unit per dimension (g → mg, l → ml, tuổi → months), so `1 g` equals `1 000 mg` and
  `2 tuổi` equals `24 tháng`: a conversion states the same quantity, a computed dose does not;
- a range (`10–50 kg`, `10-50 kg`, `10 đến 50 kg`, `500 mg – 1 g`, `6 tháng – 2 tuổi`) is ONE quantity with
  both ends in the same unit; an end written without a unit takes the other end's unit.

Digits glued to letters (`G6PD`, `N02BE01`, `beta2`, `CYP3A4`) are names, not numbers, and are skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from core.text import fold

__all__ = ["Quantity", "extract_quantities", "written_numbers", "has_number", "display_unit"]

# A numeral: space/dot thousands groups, or digits with an optional decimal comma/point.
_NUM = (
    r"(?:\d{1,3}(?: \d{3})+(?![\d,.]?\d)"  # 1 000, 10 000 000
    r"|\d{1,3}(?:\.\d{3})+(?:,\d+)?(?!\.?\d)"  # 1.000, 1.000,5
    r"|\d+(?:[.,]\d+)?)"  # 500, 0,5, 1.25
)

# Folded base units, longest first so `mg` wins over `m…` and `gio` over `g`.
_BASE_UNITS: dict[str, tuple[str, Decimal]] = {
    "microgam": ("mg", Decimal("0.001")),
    "mcg": ("mg", Decimal("0.001")),
    "µg": ("mg", Decimal("0.001")),
    "μg": ("mg", Decimal("0.001")),
    "ug": ("mg", Decimal("0.001")),
    "miligam": ("mg", Decimal(1)),
    "mg": ("mg", Decimal(1)),
    "gam": ("mg", Decimal(1000)),
    "g": ("mg", Decimal(1000)),
    "ng": ("mg", Decimal("0.000001")),
    "kg": ("kg", Decimal(1)),
    "ml": ("ml", Decimal(1)),
    "lit": ("ml", Decimal(1000)),
    "l": ("ml", Decimal(1000)),
    "mmol": ("mmol", Decimal(1)),
    "meq": ("meq", Decimal(1)),
    "dvqt": ("iu", Decimal(1)),
    "iu": ("iu", Decimal(1)),
    "don vi": ("don vi", Decimal(1)),
    "thang tuoi": ("thang", Decimal(1)),
    "nam tuoi": ("thang", Decimal(12)),
    "tuoi": ("thang", Decimal(12)),
    "thang": ("thang", Decimal(1)),
    "tuan": ("tuan", Decimal(1)),
    "ngay": ("ngay", Decimal(1)),
    "gio": ("gio", Decimal(1)),
    "phut": ("phut", Decimal(1)),
    "giay": ("giay", Decimal(1)),
    "nam": ("nam", Decimal(1)),
    "lan": ("lan", Decimal(1)),
    "lieu": ("lieu", Decimal(1)),
    "vien": ("vien", Decimal(1)),
    "goi": ("goi", Decimal(1)),
    "ong": ("ong", Decimal(1)),
    "giot": ("giot", Decimal(1)),
    "m2": ("m2", Decimal(1)),
    "m²": ("m2", Decimal(1)),
    "°c": ("°c", Decimal(1)),
    "%": ("%", Decimal(1)),
}
_BASE = "|".join(re.escape(u) for u in sorted(_BASE_UNITS, key=len, reverse=True))
_END = r"(?![^\W\d_])"  # a unit is not the start of a longer word: `g` in `gan` is not grams
_UNIT = rf"(?:{_BASE}){_END}(?:\s*/\s*(?:{_NUM}\s*)?(?:{_BASE}){_END})*"
_ATOM = re.compile(
    rf"(?<![^\W_])(?P<frac>{_NUM}\s*/\s*{_NUM})(?!\s*[^\W\d_])"  # 1/100, 1/1 000 (ADR frequency bands)
    rf"|(?<![^\W_])(?P<num>{_NUM})(?![^\W\d_]*\d)(?:\s*(?P<unit>{_UNIT}))?"
)
_RANGE_SEP = re.compile(r"\s*(?:–|—|-|~|den|toi)\s*")
_PER = re.compile(rf"/\s*(?:(?P<n>{_NUM})\s*)?(?P<u>{_BASE})")

_DISPLAY = {
    "thang": "tháng", "tuan": "tuần", "ngay": "ngày", "gio": "giờ", "phut": "phút", "giay": "giây",
    "nam": "năm", "lan": "lần", "lieu": "liều", "vien": "viên", "goi": "gói", "ong": "ống", "giot": "giọt",
    "don vi": "đơn vị",
}


def _parse_numeral(raw: str) -> Decimal:
    raw = raw.replace(" ", "")
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?", raw):
        raw = raw.replace(".", "")  # Vietnamese thousands dot
    return Decimal(raw.replace(",", "."))


@dataclass(frozen=True)
class _Unit:
    dimension: str
    """Canonical unit of the numerator, e.g. 'mg', 'thang', '' for a bare number."""
    factor: Decimal
    per: str
    """Normalised denominators, e.g. '/kg/ngay', '/5ml', ''."""
    per_numbers: tuple[Decimal, ...]

    @property
    def canonical(self) -> str:
        return f"{self.dimension}{self.per}"


_BARE = _Unit("", Decimal(1), "", ())


def _parse_unit(raw: str | None) -> _Unit:
    if not raw:
        return _BARE
    head = re.match(rf"(?:{_BASE})", raw)
    assert head is not None  # the atom regex only captures units that start with a base unit
    dimension, factor = _BASE_UNITS[head.group(0)]
    per_parts: list[str] = []
    numbers: list[Decimal] = []
    for m in _PER.finditer(raw[head.end():]):
        base = _BASE_UNITS[m.group("u")][0]
        if m.group("n"):
            n = _parse_numeral(m.group("n"))
            numbers.append(n)
            per_parts.append(f"/{n.normalize():f}{base}")
        else:
            per_parts.append(f"/{base}")
    return _Unit(dimension, factor, "".join(per_parts), tuple(numbers))


@dataclass(frozen=True)
class Quantity:
    """One stated value (or range) in canonical units. `low == high` for a single value."""

    low: Decimal
    high: Decimal
    unit: str
    """Canonical unit: 'mg', 'mg/kg/ngay', 'thang', 'kg', '%', … ; '' for a bare number."""
    text: str
    """The span as written (folded)."""
    written: tuple[Decimal, ...]
    """The numerals exactly as written, before unit conversion (bare-number matching uses these)."""

    @property
    def is_range(self) -> bool:
        return self.low != self.high

    @property
    def is_bare(self) -> bool:
        return self.unit == ""

    def ends(self) -> tuple[Quantity, ...]:
        """The range's ends as single values (each end counts, with the unit carried over)."""
        if not self.is_range:
            return (self,)
        return (
            Quantity(self.low, self.low, self.unit, self.text, self.written),
            Quantity(self.high, self.high, self.unit, self.text, self.written),
        )

    def __str__(self) -> str:
        unit = display_unit(self.unit)
        value = _fmt(self.low) if not self.is_range else f"{_fmt(self.low)}–{_fmt(self.high)}"
        return f"{value} {unit}".strip()


def _fmt(value: Decimal) -> str:
    return f"{value.normalize():f}".replace(".", ",")


def display_unit(unit: str) -> str:
    """A canonical unit spelled for a human: 'mg/kg/ngay' → 'mg/kg/ngày'."""
    parts = re.split(r"(/)", unit)
    out = []
    for part in parts:
        m = re.match(r"^([\d.]*)(.*)$", part)
        assert m is not None
        number, name = m.groups()
        out.append(f"{number}{' ' if number else ''}{_DISPLAY.get(name, name)}")
    return "".join(out)


@dataclass(frozen=True)
class _Atom:
    start: int
    end: int
    value: Decimal
    unit: _Unit
    explicit: bool
    text: str


def _atoms(folded: str) -> list[_Atom]:
    atoms: list[_Atom] = []
    for m in _ATOM.finditer(folded):
        if m.group("frac"):
            num, den = re.split(r"\s*/\s*", m.group("frac"), maxsplit=1)
            d = _parse_numeral(den)
            unit = _Unit("", Decimal(1), f"/{d.normalize():f}", (d,))
            atoms.append(_Atom(m.start(), m.end(), _parse_numeral(num), unit, True, m.group(0)))
            continue
        unit = _parse_unit(m.group("unit"))
        atoms.append(_Atom(m.start(), m.end(), _parse_numeral(m.group("num")), unit, bool(m.group("unit")),
                           m.group(0)))
    return atoms


def _single(atom: _Atom) -> Quantity:
    value = atom.value * atom.unit.factor
    return Quantity(value, value, atom.unit.canonical, atom.text, (atom.value, *atom.unit.per_numbers))


def _as_range(folded: str, left: _Atom, right: _Atom) -> Quantity | None:
    """Two atoms joined by a range separator, as one quantity; None if their units cannot be one unit."""
    if left.unit.per and left.unit.dimension == "" or right.unit.per and right.unit.dimension == "":
        return None  # fractions (1/100) never form ranges
    if not _RANGE_SEP.fullmatch(folded[left.end:right.start]):
        return None
    if not right.explicit:
        return None  # "3–6" with no unit on the right: leave both bare
    lu = left.unit if left.explicit else right.unit
    if lu.dimension != right.unit.dimension:
        return None
    if lu.per != right.unit.per:
        if lu.per:
            return None  # "10 mg/kg – 15 mg" is two statements, not one range
        lu = _Unit(lu.dimension, lu.factor, right.unit.per, right.unit.per_numbers)  # 500 mg – 1 g/lần
    low, high = left.value * lu.factor, right.value * right.unit.factor
    text = folded[left.start:right.end]
    return Quantity(low, high, right.unit.canonical, text, (left.value, right.value, *right.unit.per_numbers))


def extract_quantities(text: str) -> list[Quantity]:
    """Every number in `text`, with its unit, ranges merged, in reading order."""
    return list(_extract_quantities(text))


@lru_cache(maxsize=16_384)
def _extract_quantities(text: str) -> tuple[Quantity, ...]:
    # Evidence blocks are re-read for every claim that cites them; Quantity is immutable, so caching is safe.
    folded = fold(text)
    atoms = _atoms(folded)
    out: list[Quantity] = []
    i = 0
    while i < len(atoms):
        if i + 1 < len(atoms):
            joined = _as_range(folded, atoms[i], atoms[i + 1])
            if joined is not None:
                out.append(joined)
                i += 2
                continue
        out.append(_single(atoms[i]))
        i += 1
    return tuple(out)


def written_numbers(text: str) -> set[Decimal]:
    """Every numeral as written in `text` (range ends, denominators and fraction parts included)."""
    return {n for q in extract_quantities(text) for n in q.written}


def has_number(text: str) -> bool:
    return bool(extract_quantities(text))
