"""The dosing calculator: this patient's amount from one weight-based regimen line, with its arithmetic.

Pure and exact. Every value is a `Fraction` (the book's decimals and the frame's weight are exact decimals), so
a result is never rounded on the way: a figure that cannot be written exactly in two decimals is shown with "≈"
and rounded *down*, and the derivation keeps the exact value. No model ever does this arithmetic.

What it computes, for a rule of the line (`core.dosage.model.Rule`):
- `per_kg_dose` (mg/kg/lần): rule × weight per dose; doses a day from the line's "n lần/ngày" or from its
  interval (24 h ÷ "mỗi h giờ"); the daily total = per dose × doses a day.
- `per_kg_day_divided` (mg/kg/ngày, chia n lần): rule × weight a day; per dose = daily ÷ n.
- every stated maximum that applies (per dose, per kg per dose, per day, per kg per day, doses a day), each
  applied to the figure it limits; a capped figure says it is capped and by which text.
Fixed doses (mg/lần) are not recomputed: `compute` refuses them and the cited line is shown as stated.
The amount is of the active substance; the formulation (tablet, syrup, ml) is never chosen here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal
from fractions import Fraction

from pydantic import BaseModel, Field

from core.dosage.model import Maximum, Rule

__all__ = [
    "Ceiling",
    "Calculation",
    "Derivation",
    "Operand",
    "Operation",
    "Refusal",
    "Span",
    "compute",
    "exact",
    "format_amount",
    "format_range",
]

WEIGHT_SOURCE = "frame.weight_kg"
ACTIVE_SUBSTANCE_NOTE = (
    "Đây là lượng hoạt chất (mg hoạt chất), không phải số viên hay số ml: chọn dạng thuốc, hàm lượng và cách "
    "đong theo bác sĩ hoặc dược sĩ."
)
_HOURS_A_DAY = Fraction(24)


# ---------------------------------------------------------------------------------------------- records


class Span(BaseModel):
    """A line of a cited block: `text` is exactly `block.text[start:end]`."""

    doc_id: str
    start: int
    end: int
    text: str

    @property
    def ref(self) -> str:
        return f"{self.doc_id}[{self.start}:{self.end}]"


class Operand(BaseModel):
    """One number the arithmetic uses, and where it comes from (a cited line's span, or the frame's weight)."""

    name: str
    """'rule' | 'weight' | 'doses_per_day' | 'interval_hours' | a maximum's kind."""
    low: str
    high: str
    """Exact values (decimal or fraction strings)."""
    unit: str
    shown: str
    """As the reply writes it: '10–15 mg/kg', '18 kg', 'tối đa 60 mg/kg/ngày'."""
    source: str
    """'<doc_id>[start:end]' of the cited line, or 'frame.weight_kg'."""


class Operation(BaseModel):
    quantity: str
    """'per_dose' | 'doses_per_day' | 'per_day' | 'cap_per_dose' | 'cap_per_day'."""
    expression: str
    result_low: str
    result_high: str
    unit: str
    capped_by: str | None = None
    """The maximum's text when this figure was lowered to it."""


class Derivation(BaseModel):
    """Operands, operations and results of one calculation: part of the reply's citation and the turn's trace."""

    doc_id: str
    rule_line: Span
    ceiling_lines: list[Span] = Field(default_factory=list)
    weight_kg: str
    operands: list[Operand] = Field(default_factory=list)
    operations: list[Operation] = Field(default_factory=list)
    per_dose: tuple[str, str] | None = None
    """mg per dose (exact), after every cap."""
    doses_per_day: tuple[str, str] | None = None
    per_day: tuple[str, str] | None = None
    """mg per day (exact), after every cap."""


class Calculation(BaseModel):
    """What the reply shows under the cited line, and the derivation that reproduces it."""

    drug_id: str = ""
    lines: list[str]
    derivation: Derivation

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True)
class Ceiling:
    maximum: Maximum
    span: Span


@dataclass(frozen=True)
class Refusal:
    """No calculation, and why (for the trace): the cited line alone is shown."""

    reason: str


# ---------------------------------------------------------------------------------------------- numbers


def exact(value: float | str | Decimal | Fraction) -> Fraction:
    """A float from the parser or the frame as the exact decimal it was written as (0.1 → 1/10, not 0.1000…01)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, float):
        return Fraction(Decimal(repr(value)))
    return Fraction(Decimal(value)) if isinstance(value, Decimal) else Fraction(value)


def _str(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


def _group(digits: str) -> str:
    out = ""
    while len(digits) > 3:
        out = " " + digits[-3:] + out
        digits = digits[:-3]
    return digits + out


def format_amount(value: Fraction) -> str:
    """Vietnamese, as the book writes numbers: decimal comma, space between thousands ('1 080', '7,5', '≈ 56,66')."""
    approx = (value * 100).denominator != 1
    dec = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
    whole, _, frac = f"{dec:f}".partition(".")
    frac = frac.rstrip("0")
    text = _group(whole) + ("," + frac if frac else "")
    return f"≈ {text}" if approx else text


def format_range(low: Fraction, high: Fraction) -> str:
    return format_amount(low) if low == high else f"{format_amount(low)}–{format_amount(high)}"


_PER = {"per_dose": "mg/lần", "per_kg_dose": "mg/kg/lần", "per_day": "mg/ngày", "per_kg_day": "mg/kg/ngày",
        "doses_per_day": "lần/ngày"}


def _maximum_shown(m: Maximum) -> str:
    return f"tối đa {format_range(exact(m.low), exact(m.high))} {_PER.get(m.kind, m.unit)}"


# ---------------------------------------------------------------------------------------------- compute


@dataclass
class _Work:
    derivation: Derivation
    lines: list[str]

    def operation(self, quantity: str, expression: str, low: Fraction, high: Fraction, unit: str,
                  capped_by: str | None = None) -> None:
        self.derivation.operations.append(Operation(quantity=quantity, expression=expression, result_low=_str(low),
                                                    result_high=_str(high), unit=unit, capped_by=capped_by))


def _doses_per_day(rule: Rule) -> tuple[Fraction, Fraction, str] | None:
    """(fewest, most) doses a day as the line states them, and how that was read; None when not stated exactly."""
    if rule.doses_per_day is not None:
        low, high = (exact(v) for v in rule.doses_per_day)
        return low, high, ""
    if rule.interval_hours is not None:
        short, long_ = (exact(v) for v in rule.interval_hours)
        if short <= 0 or long_ > _HOURS_A_DAY:
            return None
        most, fewest = _HOURS_A_DAY / short, _HOURS_A_DAY / long_
        if most.denominator != 1 or fewest.denominator != 1:
            return None  # "mỗi 5 giờ": how many doses fall in a day is not a reading of the text
        hours = format_range(short, long_)
        return fewest, most, f"24 giờ ÷ mỗi {hours} giờ = {format_range(fewest, most)} lần/ngày"
    return None


def compute(rule: Rule, ceilings: Sequence[Ceiling], weight_kg: Fraction, *, rule_line: Span,
            frequency_certain: bool = True, frequency_shown: str = "", drug_id: str = "") -> Calculation | Refusal:
    """This patient's amounts for one weight-based rule and the maxima that apply to it.

    `ceilings` are every maximum that applies to the line (its own and its context's), each with its span.
    `frequency_certain` False (the line states two frequencies, "mỗi 8 giờ hoặc mỗi 12 giờ") leaves the
    per-dose split of a daily rule, and the daily total of a per-dose rule, uncomputed.
    """
    if rule.kind == "fixed":
        return Refusal("fixed dose: shown as stated, not recomputed")
    if rule.kind not in ("per_kg_dose", "per_kg_day_divided"):
        return Refusal(f"rule kind {rule.kind!r} is not computed (mg/m² and others are out of scope)")
    if weight_kg <= 0:
        return Refusal("no weight")
    low, high = exact(rule.low), exact(rule.high)
    if low <= 0 or high < low:
        return Refusal("rule values not a valid range")
    caps = {kind: [c for c in ceilings if c.maximum.kind == kind]
            for kind in ("per_dose", "per_kg_dose", "per_day", "per_kg_day", "doses_per_day")}
    unknown = [c for c in ceilings if c.maximum.kind not in caps]
    if unknown:
        # "tối đa 6,25 mg" — per dose or per day is not stated: a cap we cannot place is no reason to guess.
        return Refusal(f"maximum not placeable as per dose or per day: {unknown[0].maximum.text!r}")
    w = format_amount(weight_kg)
    frequency = frequency_shown or rule.frequency_text
    derivation = Derivation(doc_id=rule_line.doc_id, rule_line=rule_line,
                            ceiling_lines=_unique([c.span for c in ceilings]), weight_kg=_str(weight_kg))
    rule_unit = "mg/kg/lần" if rule.kind == "per_kg_dose" else "mg/kg/ngày"
    rule_shown = f"{format_range(low, high)} {'mg/kg' if rule.kind == 'per_kg_dose' else 'mg/kg/ngày'}"
    derivation.operands += [
        Operand(name="rule", low=_str(low), high=_str(high), unit=rule_unit, shown=rule_shown, source=rule_line.ref),
        Operand(name="weight", low=_str(weight_kg), high=_str(weight_kg), unit="kg", shown=f"{w} kg",
                source=WEIGHT_SOURCE),
    ]
    for c in ceilings:
        derivation.operands.append(Operand(name=c.maximum.kind, low=_str(exact(c.maximum.low)),
                                           high=_str(exact(c.maximum.high)), unit=c.maximum.unit,
                                           shown=_maximum_shown(c.maximum), source=c.span.ref))
    work = _Work(derivation, [])
    doses = _doses_per_day(rule) if frequency_certain else None
    if doses is not None:
        fewest, most, how = doses
        for c in caps["doses_per_day"]:
            limit = exact(c.maximum.high)
            if most > limit:
                most, fewest = limit, min(fewest, limit)
                how += f" → tối đa {format_amount(limit)} lần/ngày"
        doses = fewest, most, how
        derivation.operands.append(Operand(name="doses_per_day", low=_str(fewest), high=_str(most), unit="lần/ngày",
                                           shown=frequency, source=rule_line.ref))
        work.operation("doses_per_day", how, fewest, most, "lần/ngày")
        derivation.doses_per_day = (_str(fewest), _str(most))
    day_caps = [(exact(c.maximum.high) * weight_kg, c) for c in caps["per_kg_day"]]
    day_caps += [(exact(c.maximum.high), c) for c in caps["per_day"]]
    dose_caps = [(exact(c.maximum.high) * weight_kg, c) for c in caps["per_kg_dose"]]
    dose_caps += [(exact(c.maximum.high), c) for c in caps["per_dose"]]
    intro = "Tính theo cân nặng"
    if rule.kind == "per_kg_dose":
        dose_low, dose_high = low * weight_kg, high * weight_kg
        expression = f"{rule_shown} × {w} kg"
        work.operation("per_dose", expression, dose_low, dose_high, "mg/lần")
        line = f"{intro}: {expression} = {format_range(dose_low, dose_high)} mg/lần"
        # A single dose is never above a per-dose cap, nor above a whole day's cap.
        dose_low, dose_high, why = _capped(work, "cap_per_dose", dose_low, dose_high,
                                           [*dose_caps, *day_caps], weight_kg, "mg/lần")
        work.lines.append(line + why + ".")
        if doses is not None:
            fewest, most, _ = doses
            day_low, day_high = dose_low * fewest, dose_high * most
            expression = f"{format_range(dose_low, dose_high)} mg/lần × {format_range(fewest, most)} lần/ngày"
            work.operation("per_day", expression, day_low, day_high, "mg/ngày")
            line = (f"Số lần theo Dược thư: {frequency}{_how(work)}. "
                    f"Tổng mỗi ngày: {expression} = {format_range(day_low, day_high)} mg/ngày")
            day_low, day_high, why = _capped(work, "cap_per_day", day_low, day_high, day_caps, weight_kg, "mg/ngày")
            work.lines.append(line + why + ".")
            derivation.per_day = (_str(day_low), _str(day_high))
        elif day_caps:
            work.lines.append(_daily_ceiling_line(work, day_caps, weight_kg, frequency))
        else:
            work.lines.append("Dòng này không ghi một số lần dùng trong ngày chắc chắn: không tính tổng mỗi ngày.")
        derivation.per_dose = (_str(dose_low), _str(dose_high))
    else:
        day_low, day_high = low * weight_kg, high * weight_kg
        expression = f"{rule_shown} × {w} kg"
        work.operation("per_day", expression, day_low, day_high, "mg/ngày")
        line = f"{intro}: {expression} = {format_range(day_low, day_high)} mg/ngày"
        day_low, day_high, why = _capped(work, "cap_per_day", day_low, day_high, day_caps, weight_kg, "mg/ngày")
        work.lines.append(line + why + ".")
        derivation.per_day = (_str(day_low), _str(day_high))
        if doses is not None:
            fewest, most, _ = doses
            dose_low, dose_high = day_low / most, day_high / fewest
            expression = f"{format_range(day_low, day_high)} mg/ngày ÷ {format_range(fewest, most)} lần"
            work.operation("per_dose", expression, dose_low, dose_high, "mg/lần")
            line = (f"Số lần theo Dược thư: {frequency}{_how(work)}. "
                    f"Mỗi lần: {expression} = {format_range(dose_low, dose_high)} mg/lần")
            dose_low, dose_high, why = _capped(work, "cap_per_dose", dose_low, dose_high, dose_caps, weight_kg,
                                               "mg/lần")
            work.lines.append(line + why + ".")
            derivation.per_dose = (_str(dose_low), _str(dose_high))
        elif dose_caps:
            work.lines.append("Dược thư không ghi rõ số lần chia trong ngày ở dòng này: không tính liều mỗi lần; "
                              + "; ".join(f"{_maximum_shown(c.maximum)}" for _, c in dose_caps) + ".")
        else:
            work.lines.append("Dược thư không ghi rõ số lần chia trong ngày ở dòng này: không tính liều mỗi lần.")
    if ceilings:
        work.lines.append("Mức tối đa Dược thư ghi, đã áp dụng: "
                          + "; ".join(_limit_for_patient(c, weight_kg) for c in _unique_ceilings(ceilings)) + ".")
    work.lines.append(ACTIVE_SUBSTANCE_NOTE)
    return Calculation(drug_id=drug_id, lines=work.lines, derivation=derivation)


def _how(work: _Work) -> str:
    how = next(o.expression for o in work.derivation.operations if o.quantity == "doses_per_day")
    return f" ({how})" if how else ""


def _daily_ceiling_line(work: _Work, day_caps: Sequence[tuple[Fraction, Ceiling]], weight_kg: Fraction,
                        frequency: str) -> str:
    """No frequency to total by: the most a day may hold, from the daily maxima, is still this patient's figure."""
    limit, ceiling = min(day_caps, key=lambda pair: pair[0])
    expression = _cap_expression(ceiling, weight_kg)
    work.operation("cap_per_day", expression, limit, limit, "mg/ngày", capped_by=_maximum_shown(ceiling.maximum))
    work.derivation.per_day = None
    stated = f" ({frequency})" if frequency else ""
    return (f"Dòng này không ghi một số lần dùng trong ngày chắc chắn{stated}: không tính tổng mỗi ngày; tổng "
            f"trong ngày không vượt quá {format_amount(limit)} mg/ngày ({expression}).")


def _cap_expression(ceiling: Ceiling, weight_kg: Fraction) -> str:
    m = ceiling.maximum
    if m.kind in ("per_kg_day", "per_kg_dose"):
        unit = _PER[m.kind]
        return f"{_maximum_shown(m)}: {format_amount(exact(m.high))} {unit} × {format_amount(weight_kg)} kg"
    return _maximum_shown(m)


def _capped(work: _Work, quantity: str, low: Fraction, high: Fraction,
            caps: Sequence[tuple[Fraction, Ceiling]], weight_kg: Fraction, unit: str) -> tuple[Fraction, Fraction, str]:
    """Lower a range to the smallest cap it exceeds; say so, and why."""
    binding = [(limit, c) for limit, c in caps if high > limit]
    if not binding:
        return low, high, ""
    limit, ceiling = min(binding, key=lambda pair: pair[0])
    new_low, new_high = min(low, limit), limit
    expression = _cap_expression(ceiling, weight_kg)
    work.operation(quantity, expression, new_low, new_high, unit, capped_by=_maximum_shown(ceiling.maximum))
    # The cap's own figure for this patient, in the cap's own unit (a daily cap may bound a single dose).
    of_cap = f" = {format_amount(limit)} {_CAP_UNIT[ceiling.maximum.kind]}" if ceiling.maximum.kind.startswith(
        "per_kg") else ""
    return new_low, new_high, (f" → vượt mức tối đa, giới hạn ở {format_range(new_low, new_high)} {unit} "
                               f"(vì {expression}{of_cap})")


_CAP_UNIT = {"per_kg_day": "mg/ngày", "per_kg_dose": "mg/lần", "per_day": "mg/ngày", "per_dose": "mg/lần"}


def _limit_for_patient(ceiling: Ceiling, weight_kg: Fraction) -> str:
    m = ceiling.maximum
    if m.kind in ("per_kg_day", "per_kg_dose"):
        unit = "mg/ngày" if m.kind == "per_kg_day" else "mg/lần"
        return f"{_maximum_shown(m)} (× {format_amount(weight_kg)} kg = {format_amount(exact(m.high) * weight_kg)} {unit})"
    return _maximum_shown(m)


def _unique_ceilings(ceilings: Sequence[Ceiling]) -> list[Ceiling]:
    seen: dict[tuple[str, float], Ceiling] = {}
    for c in ceilings:
        seen.setdefault((c.maximum.kind, c.maximum.high), c)
    return list(seen.values())


def _unique(spans: Sequence[Span]) -> list[Span]:
    seen: dict[str, Span] = {}
    for s in spans:
        seen.setdefault(s.ref, s)
    return list(seen.values())
