"""Choosing the dosing text for one patient: labelled paragraphs, then the age band and weight rule lines.

A dosage section is a run of paragraphs each starting with a label, `*Uống – Trẻ em:*`, naming a route and
a population. Paediatric paragraphs list bands one per line (`- Trẻ 4–6 tuổi: 240 mg/lần.`,
`- Trẻ dưới 10 kg: …`). The label/route/population patterns live here, the lower layer; `states/dosing.py`
uses them to find the routes the evidence offers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.corpus import Chunk
from core.text import fold
from core.vocabulary import BOOK_ADULT, BOOK_CHILD, NEONATE, route_patterns
from grounding.numbers import extract_quantities

_ROUTE_PATTERNS = route_patterns("book")
LABEL = re.compile(r"^\s*\*([^*]{2,80}?):?\*\s*:?\s*")
_POP_ADULT = BOOK_ADULT
_POP_CHILD = BOOK_CHILD
_NEONATE = NEONATE
_BULLET = re.compile(r"^\s*(?:[-•+–]|\d+[.)])\s+")
_BELOW = re.compile(r"\b(duoi|nho hon|<)\s*$")
_ABOVE = re.compile(r"\b(tren|lon hon|>|≥|tu)\s*$")
NEONATE_MAX_MONTHS = 1.0


def label_of(text: str) -> str:
    """The folded label a paragraph starts with (`*Uống – Trẻ em:*` → 'uong – tre em'); '' if none."""
    m = LABEL.match(text)
    return fold(m.group(1)) if m else ""


def routes_of(text: str) -> list[str]:
    folded = fold(text)
    return [route for route, pattern in _ROUTE_PATTERNS if pattern.search(folded)]


def population_of(text: str) -> set[str]:
    folded = fold(text)
    found: set[str] = set()
    if _POP_ADULT.search(folded):
        found.add("adult")
    if _POP_CHILD.search(folded):
        found.add("pediatric")
    return found


@dataclass
class DosingParagraph:
    """One labelled paragraph of a dosage chunk, as its lines (markup kept: they are quoted from the chunk)."""

    chunk: Chunk
    label: str
    lines: list[str] = field(default_factory=list)

    @property
    def routes(self) -> list[str]:
        return routes_of(self.label)

    @property
    def populations(self) -> set[str]:
        return population_of(self.label)

    @property
    def neonatal(self) -> bool:
        return bool(_NEONATE.search(self.label))


def paragraphs(chunk: Chunk) -> list[DosingParagraph]:
    """Split a dosage chunk at its labels (a chunk may hold one labelled paragraph or several)."""
    found: list[DosingParagraph] = []
    current: DosingParagraph | None = None
    for raw in chunk.text.splitlines():
        line = raw.strip()
        if not line or line.startswith("<!--"):
            continue
        label = label_of(line)
        if label:
            current = DosingParagraph(chunk, label, [line])
            found.append(current)
        elif current is not None:
            current.lines.append(line)
        else:
            current = DosingParagraph(chunk, "", [line])
            found.append(current)
    return found


def select_paragraphs(
    chunks: Sequence[Chunk], population: str | None, route: str | None, age_months: float | None
) -> list[DosingParagraph]:
    """The labelled paragraphs for this population and route (neonatal ones only for a neonate, when split)."""
    chosen = [
        p for c in chunks for p in paragraphs(c)
        if p.label
        and (population is None or population in p.populations)
        and (route is None or route in p.routes)
        and (population is not None or route is not None)
    ]
    if population == "pediatric" and age_months is not None:
        neonate = age_months < NEONATE_MAX_MONTHS
        by_age = [p for p in chosen if p.neonatal == neonate]
        chosen = by_age or chosen
    return chosen


Interval = tuple[float, float]


def _band(prefix: str, unit: str) -> Interval | None:
    """The age (months) or weight (kg) interval a band line's prefix states, e.g. 'tre 4–6 tuoi' → (48, 72)."""
    folded = fold(prefix)
    for q in extract_quantities(folded):
        if q.unit != unit:
            continue
        before = folded[: folded.find(q.text)] if q.text in folded else ""
        low, high = float(q.low), float(q.high)
        if q.is_range:
            return low, high
        if _BELOW.search(before):
            return 0.0, low
        if _ABOVE.search(before):
            return low, math.inf
        return low, low
    return None


@dataclass(frozen=True)
class BandLine:
    text: str
    age: Interval | None
    weight: Interval | None

    @property
    def is_band(self) -> bool:
        return self.age is not None or self.weight is not None


def band_line(line: str) -> BandLine:
    """A list item whose prefix (before ':') states an age or weight band; any other line is general."""
    body = LABEL.sub("", line)
    if not _BULLET.match(body) and not re.match(r"\s*tre\b", fold(body)):
        return BandLine(line, None, None)
    prefix = body.split(":", 1)[0] if ":" in body else ""
    return BandLine(line, _band(prefix, "thang"), _band(prefix, "kg"))


def _within(value: float, interval: Interval, *, closed: bool) -> bool:
    low, high = interval
    if low == high:
        return value == low
    return low <= value <= high if closed else low <= value < high


def _matches(line: BandLine, age_months: float | None, weight_kg: float | None, *, closed: bool) -> bool:
    if line.age is not None and (age_months is None or not _within(age_months, line.age, closed=closed)):
        return False
    return not (line.weight is not None and (weight_kg is None or not _within(weight_kg, line.weight,
                                                                                  closed=closed)))


def patient_lines(paragraph: DosingParagraph, age_months: float | None, weight_kg: float | None) -> list[str]:
    """The paragraph's general lines plus the band lines that fit this child.

    Bands are half-open first ("2–4 tuổi" then "4–6 tuổi": a 4-year-old is in the second), closed as a
    fallback so a child at the top edge of the last band still finds it. When no band fits (a 2-month-old
    and bands from 3 months), only the general lines are quoted: another age band's dose is never put in
    front of a reader for this child (`no_band_fits` lets the generator say so).
    """
    lines = [band_line(line) for line in paragraph.lines]
    bands = [b for b in lines if b.is_band]
    if not bands:
        return paragraph.lines
    fitting = [b for b in bands if _matches(b, age_months, weight_kg, closed=False)]
    if not fitting:
        fitting = [b for b in bands if _matches(b, age_months, weight_kg, closed=True)]
    keep = {id(b) for b in fitting}
    return [b.text for b in lines if not b.is_band or id(b) in keep]


def no_band_fits(paragraph: DosingParagraph, age_months: float | None, weight_kg: float | None) -> bool:
    """The paragraph has age/weight bands and none of them fits this child."""
    bands = [b for b in (band_line(line) for line in paragraph.lines) if b.is_band]
    return bool(bands) and not any(_matches(b, age_months, weight_kg, closed=True) for b in bands)
