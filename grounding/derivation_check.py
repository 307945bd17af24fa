"""A computed number is accepted only when its derivation reproduces it from the cited text and the frame.

Nothing of the derivation is trusted: the rule and the maxima are re-read from the cited block's text at the
spans the derivation names (`calculation_lines.rule_of`, `line_maxima`: the same reading the calculator was
given), the weight is the frame's, and the calculator runs again. The calculation is accepted only when the
re-derived text and derivation equal the ones shown, number for number; and, belt and braces, when no figure
exceeds a maximum it re-read. A calculation citing a block that was not retrieved, or one that is quarantined,
or whose spans are not the block's text, fails.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from core.corpus import Chunk
from grounding.calculation_lines import as_written, frequency_certain, line_maxima, rule_of
from grounding.calculator import Calculation, Ceiling, Span, compute, exact

__all__ = ["check_calculation", "check_calculations"]


def _span_problem(span: Span, by_id: Mapping[str, Chunk]) -> str | None:
    chunk = by_id.get(span.doc_id)
    if chunk is None:
        return f"cites {span.doc_id}, which was not retrieved"
    if chunk.has_quarantined_content:
        return f"cites quarantined block {span.doc_id}"
    if chunk.text[span.start:span.end] != span.text:
        return f"span {span.ref} is not the text of {span.doc_id}"
    return None


def _over_a_maximum(calc: Calculation, ceilings: Sequence[Ceiling], weight: Fraction) -> str | None:
    d = calc.derivation
    for c in ceilings:
        m, limit = c.maximum, exact(c.maximum.high)
        if m.kind in ("per_kg_dose", "per_kg_day"):
            limit *= weight
        figure = d.per_dose if m.kind in ("per_dose", "per_kg_dose") else d.per_day if m.kind in (
            "per_day", "per_kg_day") else d.doses_per_day
        if figure is not None and Fraction(figure[1]) > limit:
            return f"{figure[1]} exceeds «{m.text}»"
    return None


def check_calculation(calc: Calculation, by_id: Mapping[str, Chunk], weight_kg: float | None) -> list[str]:
    d = calc.derivation
    name = f"calculation on {d.rule_line.ref}"
    if weight_kg is None:
        return [f"{name}: the frame has no weight to re-derive it from (derivation check)"]
    problems = [f"{name}: {p} (derivation check)" for p in
                (_span_problem(s, by_id) for s in [d.rule_line, *d.ceiling_lines]) if p]
    if problems:
        return problems
    weight = exact(weight_kg)
    if Fraction(d.weight_kg) != weight:
        return [f"{name}: weight {d.weight_kg} kg is not the frame's {weight_kg:g} kg (derivation check)"]
    rule = rule_of(d.rule_line.text)
    if rule is None:
        return [f"{name}: the cited line's rule cannot be re-read with certainty (derivation check)"]
    ceilings = [Ceiling(m, s) for s in d.ceiling_lines for m in line_maxima(s.text)]
    text = d.rule_line.text
    again = compute(rule, ceilings, weight, rule_line=d.rule_line, frequency_certain=frequency_certain(text),
                    frequency_shown=as_written(text, rule.frequency_text), drug_id=calc.drug_id)
    if not isinstance(again, Calculation):
        return [f"{name}: re-derivation refuses it ({again.reason}) (derivation check)"]
    if again.derivation != d:
        return [f"{name}: the derivation does not reproduce from the cited line and the frame's weight "
                "(derivation check)"]
    if again.lines != calc.lines:
        shown, expected = next(((a, b) for a, b in zip(calc.lines, again.lines, strict=False) if a != b),
                               (calc.text, again.text))
        return [f"{name}: «{shown}» does not reproduce (expected «{expected}») (derivation check)"]
    over = _over_a_maximum(again, ceilings, weight)
    return [f"{name}: {over} (derivation check)"] if over else []


def check_calculations(calculations: Sequence[Calculation], evidence: Sequence[Chunk],
                       weight_kg: float | None) -> list[str]:
    by_id = {c.doc_id: c for c in evidence}
    return [p for calc in calculations for p in check_calculation(calc, by_id, weight_kg)]
