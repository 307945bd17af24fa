"""The dosage tree: a "Liều lượng và cách dùng" section read as route → indication → population → band → lines.

Every regimen line is an exact span of the section text (`start`/`end`, `text` = the span), so it can be quoted
verbatim, and it carries its whole context path (the lead-ins that open its context, as written): a line such as
"Trẻ em 12 - 18 tuổi: 1 g …" means nothing without "Đau sau phẫu thuật › Đường trực tràng". A band is the set of
patients a line is for; `Band.contains` is the one definition of "this line applies to this patient" that the
selection, the verification binding and the property tests share.

Safety: a line the parser cannot place (a flattened table, a band it cannot read) is kept in `DosageTree.unplaced`
and never in `lines`, so no code path can attribute it to a band by guess.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

Interval = tuple[float, float]
"""[low, high] in the band's unit; math.inf for an open top. Ends are inclusive or not per `Band.*_open`."""

LineKind = Literal["regimen", "exclusion", "note"]
MaximumKind = Literal["per_dose", "per_day", "per_kg_dose", "per_kg_day", "doses_per_day", "absolute"]
RuleKind = Literal["fixed", "per_kg_dose", "per_kg_day_divided"]
HepaticGrade = Literal["mild", "moderate", "severe", "any"]
DialysisKind = Literal["haemo", "peritoneal", "any"]


@dataclass(frozen=True)
class Bound:
    """One end-qualified interval: `low_open`/`high_open` say whether the ends themselves are excluded."""

    low: float
    high: float
    low_open: bool = False
    high_open: bool = True

    def contains(self, value: float, *, closed: bool = False) -> bool:
        """`closed` ignores the open ends (the fallback for a patient exactly at a band's top edge)."""
        if self.low == self.high:
            return value == self.low
        above = value >= self.low if closed or not self.low_open else value > self.low
        below = value <= self.high if closed or not self.high_open or self.high == math.inf else value < self.high
        return above and below

    def overlaps(self, other: Bound) -> bool:
        return self.low <= other.high and other.low <= self.high

    def __str__(self) -> str:
        high = "∞" if self.high == math.inf else f"{self.high:g}"
        return f"{'(' if self.low_open else '['}{self.low:g}, {high}{')' if self.high_open else ']'}"


@dataclass(frozen=True)
class Band:
    """Who a line is for, beyond its population: any of age, weight, renal function, hepatic grade, gestation."""

    age_months: Bound | None = None
    weight_kg: Bound | None = None
    renal_ml_min: Bound | None = None
    """ClCr or eGFR (ml/phút, or ml/phút/1,73 m²), as the text states it."""
    hepatic: HepaticGrade | None = None
    gestation_weeks: Bound | None = None
    """Neonatal bands by (corrected) gestational age; a patient whose gestation is unknown is in none of them."""

    @property
    def empty(self) -> bool:
        return (self.age_months is None and self.weight_kg is None and self.renal_ml_min is None
                and self.hepatic is None and self.gestation_weeks is None)

    def merged(self, inner: Band) -> Band:
        """This band narrowed by an inner one (inner values win where both state the same dimension)."""
        return Band(
            age_months=inner.age_months or self.age_months,
            weight_kg=inner.weight_kg or self.weight_kg,
            renal_ml_min=inner.renal_ml_min or self.renal_ml_min,
            hepatic=inner.hepatic or self.hepatic,
            gestation_weeks=inner.gestation_weeks or self.gestation_weeks,
        )

    def describe(self) -> str:
        parts = []
        if self.age_months:
            parts.append(f"age {self.age_months} months")
        if self.weight_kg:
            parts.append(f"weight {self.weight_kg} kg")
        if self.renal_ml_min:
            parts.append(f"ClCr/eGFR {self.renal_ml_min} ml/min")
        if self.hepatic:
            parts.append(f"hepatic {self.hepatic}")
        if self.gestation_weeks:
            parts.append(f"gestation {self.gestation_weeks} weeks")
        return ", ".join(parts) or "any"


@dataclass(frozen=True)
class Patient:
    """What the dose path knows of the patient. None = not known (never assumed)."""

    population: Literal["adult", "pediatric"] | None = None
    age_months: float | None = None
    weight_kg: float | None = None
    route: str | None = None
    indication: str | None = None
    """The condition as the user wrote it (folded match against the indication path)."""
    pregnant: bool = False
    """The patient said she is pregnant: the book's lines for pregnant women are hers (core.dosage.pregnancy)."""
    immunocompromised: bool | None = None
    """Stated immune status: True "suy giảm miễn dịch", False "miễn dịch bình thường", None not stated."""
    renal_ml_min: float | None = None
    renal: bool = False
    renal_grade: Literal["mild", "moderate", "severe"] | None = None
    """The grade the user named in words ("suy thận nặng"), when no value was given."""
    dialysis: DialysisKind | None = None
    """The patient is on dialysis ("chạy thận nhân tạo", "thẩm phân phúc mạc"): the book's line for patients on that
    dialysis is theirs, not a ClCr band."""
    hepatic: HepaticGrade | None = None
    gestation_weeks: float | None = None
    gestation: Bound | None = None
    """A gestation stated by words only ("đủ tháng" → [37, ∞), "thiếu tháng" → [0, 37)) when no number is given: a
    gestation band holds the patient only when it holds the whole range (never a narrower band by guess)."""
    elderly: bool = False
    """The question is about an elderly patient ("người cao tuổi"): the book's elderly lines are theirs."""
    device: Literal["metered", "nebulizer"] | None = None
    """The inhalation device the question names (core.dosage.device): the other device's lines are not shown."""
    conditions: tuple[str, ...] = ()
    """Conditions the user stated about the patient ("sa sút trí tuệ", "tiền sử bệnh Parkinson"), as written: the
    safety sections' sentences that name one are this patient's (grounding.patient_safety)."""


@dataclass(frozen=True)
class Maximum:
    kind: MaximumKind
    low: float
    high: float
    unit: str
    """Canonical unit (core.numbers), e.g. 'mg/ngay', 'mg/kg/24gio', 'lieu/24gio'."""
    text: str
    """The span as written (folded), e.g. 'toi da 4 g/ngay'."""


@dataclass(frozen=True)
class Rule:
    """A dose rule, parsed only where the line is unambiguous; `RegimenLine.rule` is None otherwise."""

    kind: RuleKind
    low: float
    high: float
    unit: str
    """'mg' for fixed, 'mg/kg' per dose, 'mg/kg/ngay' (or /24gio) per day."""
    doses_per_day: tuple[float, float] | None = None
    interval_hours: tuple[float, float] | None = None
    frequency_text: str = ""


@dataclass(frozen=True)
class Context:
    """Where a line sits: each slot as read from the lead-ins above it (or from the line itself)."""

    routes: tuple[str, ...] = ()
    """Routes the line is for ("Uống, đặt trực tràng:" opens two); empty when the text names none."""
    indication: tuple[str, ...] = ()
    """Indication lead-ins, outermost first, as written."""
    population: Literal["adult", "pediatric"] | None = None
    neonate: bool = False
    renal: bool = False
    hepatic: bool = False
    band: Band = field(default_factory=Band)
    path: tuple[str, ...] = ()
    """Every lead-in above the line, as written, outermost first."""


@dataclass(frozen=True)
class RegimenLine:
    text: str
    """Exactly `section_text[start:end]`."""
    start: int
    end: int
    context: Context
    kind: LineKind = "regimen"
    maxima: tuple[Maximum, ...] = ()
    rule: Rule | None = None
    absence: bool = False
    """An exclusion that states no data / no dose for its band (core.dosage.lines.absence), not a prohibition."""
    either: bool = False
    """One alternative of an exclusion naming bands of different dimensions joined by "hoặc" ("trẻ dưới 6 tuổi hoặc
    trẻ có eGFR dưới 30"): the same span, once per alternative, each with that alternative's band only."""

    @property
    def routes(self) -> tuple[str, ...]:
        return self.context.routes

    @property
    def population(self) -> str | None:
        return self.context.population

    @property
    def band(self) -> Band:
        return self.context.band

    @property
    def path(self) -> tuple[str, ...]:
        return self.context.path

    def quoted(self) -> str:
        """The line with its context path, for a reply: 'Trẻ em › Đau, sốt › Uống: Trẻ em 3 - 6 tháng tuổi: 60 mg'."""
        text = self.text.rstrip(";, ")  # the clause separator is not part of what is quoted
        return f"{' › '.join(self.path)}: {text}" if self.path else text


@dataclass(frozen=True)
class Unplaced:
    text: str
    start: int
    end: int
    reason: str


@dataclass
class DosageTree:
    text: str
    lines: list[RegimenLine] = field(default_factory=list)
    unplaced: list[Unplaced] = field(default_factory=list)

    def routes(self) -> list[str]:
        found: list[str] = []
        for line in self.lines:
            found += [r for r in line.routes if r not in found]
        return found

    def placement(self) -> tuple[int, int]:
        """(lines placed, lines seen): the load report's measure of how much of the section was read."""
        return len(self.lines), len(self.lines) + len(self.unplaced)
