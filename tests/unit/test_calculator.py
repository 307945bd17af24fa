"""The dosing calculator: this patient's amount from the cited weight-based line, capped by every stated maximum.

Examples from the fixture formulary (synthetic test data), then a Hypothesis property over every weight-based
rule of the fixture: no computed amount ever exceeds a maximum it applied, an uncapped amount is exactly rule ×
weight, and every derivation reproduces from the cited text.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.corpus import Chunk
from core.dosage.model import Patient, RegimenLine
from core.dosage.parse import parse_dosage
from grounding.calculation_lines import Selected, as_written, frequency_certain, line_maxima, rule_of, select
from grounding.calculator import (
    Calculation,
    Ceiling,
    Refusal,
    Span,
    compute,
    exact,
    format_amount,
    format_range,
)
from grounding.derivation_check import check_calculation
from tests.unit.calculator_kit import all_dosing_chunks, dosing_chunks


def _only(drug: str, patient: Patient) -> tuple[Selected, Calculation]:
    chosen, refused = select(dosing_chunks(drug), patient)
    assert len(chosen) == 1, refused
    s = chosen[0]
    result = compute(s.rule, s.ceilings, exact(patient.weight_kg or 0), rule_line=s.span,
                     frequency_certain=s.frequency_certain, frequency_shown=s.frequency_shown, drug_id=drug)
    assert isinstance(result, Calculation), result
    return s, result


def _by_id(drug: str) -> dict[str, Chunk]:
    return {c.doc_id: c for c in dosing_chunks(drug)}


CHILD_18KG = Patient(population="pediatric", age_months=60, weight_kg=18, route="oral")


def test_numbers_are_written_as_the_book_writes_them() -> None:
    assert format_amount(Fraction(1080)) == "1 080"
    assert format_amount(Fraction(15, 2)) == "7,5"
    assert format_amount(Fraction(2250)) == "2 250"
    assert format_amount(Fraction(170, 3)) == "≈ 56,66"  # never rounded up, and said to be approximate
    assert format_range(Fraction(180), Fraction(270)) == "180–270"


def test_paracetamol_for_a_child_of_18_kg_is_180_to_270_mg_a_dose_and_at_most_1080_mg_a_day() -> None:
    _, calc = _only("paracetamol", CHILD_18KG)
    text = calc.text
    assert "10–15 mg/kg × 18 kg = 180–270 mg/lần" in text
    assert "mỗi 4–6 giờ" in text
    assert "1 080 mg/ngày" in text
    assert "hoạt chất" in text
    assert calc.derivation.per_dose == ("180", "270")
    assert calc.derivation.per_day is not None and Fraction(calc.derivation.per_day[1]) == 1080
    assert check_calculation(calc, _by_id("paracetamol"), 18) == []


def test_derivation_names_where_each_operand_comes_from() -> None:
    s, calc = _only("paracetamol", CHILD_18KG)
    sources = {o.name: o.source for o in calc.derivation.operands}
    assert sources["weight"] == "frame.weight_kg"
    assert sources["rule"] == f"{s.chunk.doc_id}[{s.span.start}:{s.span.end}]"
    assert sources["per_kg_day"].startswith(s.chunk.doc_id)
    block = next(c for c in dosing_chunks("paracetamol") if c.doc_id == s.chunk.doc_id)
    assert block.text[s.span.start:s.span.end] == calc.derivation.rule_line.text == s.line.text


def test_an_adolescent_of_60_kg_is_capped_by_the_absolute_per_dose_maximum() -> None:
    teen = Patient(population="pediatric", age_months=15 * 12, weight_kg=60, route="oral")
    _, calc = _only("ciprofloxacin", teen)
    assert "10–20 mg/kg × 60 kg = 600–1 200 mg/lần" in calc.text
    assert "giới hạn ở 600–750 mg/lần" in calc.text and "tối đa 750 mg/lần" in calc.text
    assert calc.derivation.per_dose == ("600", "750")
    assert any(o.capped_by == "tối đa 750 mg/lần" for o in calc.derivation.operations)


def test_a_child_of_45_kg_on_a_daily_rule_is_capped_at_4_g_a_day() -> None:
    child = Patient(population="pediatric", age_months=11 * 12, weight_kg=45, route="iv", indication="viêm màng não")
    _, calc = _only("ceftriaxon", child)
    assert "4 500 mg/ngày" in calc.text and "giới hạn ở 4 000 mg/ngày" in calc.text


def test_two_frequencies_make_no_per_dose_split() -> None:
    # "tiêm một lần mỗi ngày hoặc chia 2 lần": two frequencies, so no per-dose split is made up (computed on the line
    # itself: a 60 kg teen, who once took it, now meets the adult reference instead).
    line = next(line for c in dosing_chunks("ceftriaxon") for line in parse_dosage(c.text).lines
                if line.text.startswith("50–80 mg/kg/ngày, tiêm một lần mỗi ngày hoặc chia 2 lần"))
    rule = rule_of(line.text)
    assert rule is not None
    span = Span(doc_id="ceftriaxon", start=line.start, end=line.end, text=line.text)
    calc = compute(rule, [Ceiling(m, span) for m in line_maxima(line.text)], exact(60), rule_line=span,
                   frequency_certain=frequency_certain(line.text),
                   frequency_shown=as_written(line.text, rule.frequency_text))
    assert isinstance(calc, Calculation)
    assert "3 000–4 800 mg/ngày" in calc.text and "giới hạn ở 3 000–4 000 mg/ngày" in calc.text
    assert calc.derivation.per_dose is None and "không tính liều mỗi lần" in calc.text


def test_a_teen_of_60_kg_is_referred_to_the_adult_dose_not_computed_by_weight() -> None:
    # "Trẻ cân nặng 50 kg hoặc hơn: dùng liều người lớn": no mg/kg line is theirs (it once gave 3 000–4 000 mg/ngày).
    teen = Patient(population="pediatric", age_months=14 * 12, weight_kg=60, route="iv")
    chosen, _ = select(dosing_chunks("ceftriaxon"), teen)
    assert chosen == []


def test_a_neonate_gets_the_neonatal_line_with_its_neonatal_maximum() -> None:
    newborn = Patient(population="pediatric", age_months=0.5, weight_kg=3, route="iv")
    s, calc = _only("furosemid", newborn)
    assert s.line.context.neonate
    assert "0,5–1 mg/kg × 3 kg = 1,5–3 mg/lần" in calc.text
    assert "tối đa 2 mg/kg/lần (× 3 kg = 6 mg/lần)" in calc.text


def test_an_excluded_child_gets_no_calculation() -> None:
    chosen, refused = select(dosing_chunks("ibuprofen"), Patient(population="pediatric", age_months=12,
                                                                   weight_kg=6, route="oral"))
    assert chosen == [] and "Không khuyến cáo cho trẻ dưới 7 kg" in refused[0]


@pytest.mark.parametrize("weight", [None, 0.1, 400.0])
def test_a_missing_or_implausible_weight_gets_no_calculation(weight: float | None) -> None:
    chosen, _ = select(dosing_chunks("paracetamol"), Patient(population="pediatric", age_months=60,
                                                             weight_kg=weight, route="oral"))
    assert chosen == []


def test_a_line_for_another_route_is_never_computed() -> None:
    rectal = Patient(population="pediatric", age_months=60, weight_kg=18, route="rectal")
    s, calc = _only("paracetamol", rectal)
    assert "15–20 mg/kg" in calc.text and "10–15 mg/kg" not in calc.text
    assert "rectal" in s.line.routes


def test_a_line_under_an_indication_the_user_did_not_name_is_not_computed() -> None:
    chosen, _ = select(dosing_chunks("metronidazol"), Patient(population="pediatric", age_months=60,
                                                              weight_kg=18, route="oral"))
    assert chosen == []
    chosen, _ = select(dosing_chunks("metronidazol"), Patient(population="pediatric", age_months=60, weight_kg=18,
                                                              route="oral", indication="lỵ amip"))
    assert [s.line.context.indication for s in chosen] == [("Lỵ amip",)]


def test_a_maximum_the_parser_could_not_read_stops_the_calculation() -> None:
    # "tối đa 1,4 mg/kg/ngày hoặc 100 mg/ngày": a second, unread cap must not let an amount through.
    chosen, _ = select(dosing_chunks("losartan"), Patient(population="pediatric", age_months=100, weight_kg=80,
                                                          route="oral"))
    assert chosen == []
    # SYNTHETIC text: a rule, then a ceiling line with a cap in words ("liều người lớn") the calculator cannot apply.
    block = Chunk(doc_id="x__lieu_luong_cach_dung__0", drug_id="x", section_key="lieu_luong_cach_dung",
                  text="*Uống – Trẻ em:* Liều theo cân nặng: 1–2 mg/kg/lần, mỗi 12 giờ.\nKhông vượt quá liều người lớn.")
    chosen, refused = select([block], Patient(population="pediatric", age_months=100, weight_kg=30, route="oral"))
    assert chosen == [] and any("not read as a number" in r for r in refused)


def test_renal_or_hepatic_context_gets_no_calculation() -> None:
    chosen, _ = select(dosing_chunks("paracetamol"), Patient(population="pediatric", age_months=60, weight_kg=18,
                                                             route="oral", renal=True))
    assert chosen == []


def test_quarantined_dosage_text_gets_no_calculation() -> None:
    blocks = [c.model_copy(update={"has_quarantined_content": True}) if i == 0 else c
              for i, c in enumerate(dosing_chunks("paracetamol"))]
    assert select(blocks, CHILD_18KG)[0] == []


def test_fixed_age_band_doses_are_not_recomputed() -> None:
    fixed = rule_of("Trẻ 4–6 tuổi: 240 mg/lần.")
    assert fixed is not None and fixed.kind == "fixed"
    span = Span(doc_id="d", start=0, end=1, text="x")
    assert isinstance(compute(fixed, (), Fraction(18), rule_line=span), Refusal)


def test_a_tampered_amount_does_not_reproduce() -> None:
    _, calc = _only("paracetamol", CHILD_18KG)
    tampered = calc.model_copy(deep=True)
    tampered.lines[0] = tampered.lines[0].replace("180–270", "180–300")
    problems = check_calculation(tampered, _by_id("paracetamol"), 18)
    assert problems and "does not reproduce" in problems[0]


def test_a_tampered_derivation_result_does_not_reproduce() -> None:
    _, calc = _only("paracetamol", CHILD_18KG)
    tampered = calc.model_copy(deep=True)
    tampered.derivation.per_dose = ("180", "300")
    assert check_calculation(tampered, _by_id("paracetamol"), 18)


def test_a_calculation_for_another_weight_than_the_frames_is_rejected() -> None:
    _, calc = _only("paracetamol", CHILD_18KG)
    assert "not the frame's" in check_calculation(calc, _by_id("paracetamol"), 20)[0]
    assert "no weight" in check_calculation(calc, _by_id("paracetamol"), None)[0]


def test_a_derivation_whose_span_is_not_the_cited_text_is_rejected() -> None:
    _, calc = _only("paracetamol", CHILD_18KG)
    moved = calc.model_copy(deep=True)
    moved.derivation.rule_line.text = moved.derivation.rule_line.text.replace("10–15", "20–30")
    assert "is not the text of" in check_calculation(moved, _by_id("paracetamol"), 18)[0]


# ------------------------------------------------------------------------------------------- property


def _weight_rules() -> list[tuple[str, RegimenLine]]:
    found = []
    for chunk in all_dosing_chunks():
        for line in parse_dosage(chunk.text).lines:
            rule = rule_of(line.text)
            if line.kind == "regimen" and rule is not None and rule.kind != "fixed":
                found.append((chunk.doc_id, line))
    return found


WEIGHT_RULES = _weight_rules()


def _weights(line: RegimenLine) -> st.SearchStrategy[float]:
    band = line.band.weight_kg
    low = max(band.low, 0.5) if band else 0.5
    high = min(band.high, 150.0) if band else 150.0
    high = high - 0.1 if band and band.high_open and band.high < 150 else high
    return st.decimals(min_value=str(low), max_value=str(high), places=1).map(float)


def test_the_fixture_has_weight_based_rules_to_test() -> None:
    assert len(WEIGHT_RULES) >= 20


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_no_computed_amount_exceeds_a_stated_maximum_and_every_derivation_reproduces(data: st.DataObject) -> None:
    doc_id, line = data.draw(st.sampled_from(WEIGHT_RULES))
    weight = data.draw(_weights(line))
    rule = rule_of(line.text)
    assert rule is not None
    span = Span(doc_id=doc_id, start=line.start, end=line.end, text=line.text)
    ceilings = [Ceiling(m, span) for m in line_maxima(line.text)]
    result = compute(rule, ceilings, exact(weight), rule_line=span, frequency_certain=frequency_certain(line.text),
                     frequency_shown=as_written(line.text, rule.frequency_text))
    if isinstance(result, Refusal):
        assert "not placeable" in result.reason  # the only refusal of a weight-based rule: an unplaceable cap
        return
    d, w = result.derivation, exact(weight)
    for c in ceilings:
        limit = exact(c.maximum.high) * (w if c.maximum.kind.startswith("per_kg") else 1)
        if c.maximum.kind in ("per_dose", "per_kg_dose") and d.per_dose:
            assert Fraction(d.per_dose[1]) <= limit
        if c.maximum.kind in ("per_day", "per_kg_day") and d.per_day:
            assert Fraction(d.per_day[1]) <= limit
    capped = {o.quantity for o in d.operations if o.capped_by}
    low, high = exact(rule.low) * w, exact(rule.high) * w
    if rule.kind == "per_kg_dose" and "cap_per_dose" not in capped:
        assert d.per_dose == (str(low) if low.denominator > 1 else str(low.numerator),
                              str(high) if high.denominator > 1 else str(high.numerator))
    if rule.kind == "per_kg_day_divided" and "cap_per_day" not in capped:
        assert d.per_day is not None and (Fraction(d.per_day[0]), Fraction(d.per_day[1])) == (low, high)
    by_id = {c.doc_id: c for c in all_dosing_chunks()}
    assert check_calculation(result, by_id, weight) == []


def _patient_for(line: RegimenLine, weight: float) -> Patient:
    """A patient the line is written for: its population, route, indication and (mid-)age band."""
    age = line.band.age_months
    months = None if age is None else (age.low + min(age.high, 216.0)) / 2
    if months is None:
        months = 0.5 if line.context.neonate else 60.0 if line.population == "pediatric" else 480.0
    indication = line.context.indication[-1] if line.context.indication else None
    population = line.context.population
    return Patient(population=population, age_months=months, weight_kg=weight,
                   route=line.routes[0] if line.routes else None, indication=indication)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_selected_lines_respect_every_maximum_of_their_context(data: st.DataObject) -> None:
    """As the engine runs it: the line selected for a patient it is written for, capped by its context's maxima."""
    doc_id, line = data.draw(st.sampled_from(WEIGHT_RULES))
    weight = data.draw(_weights(line))
    drug = doc_id.split("__")[0]
    patient = _patient_for(line, weight)
    chosen, _ = select(dosing_chunks(drug), patient)
    for s in chosen:
        result = compute(s.rule, s.ceilings, exact(weight), rule_line=s.span, frequency_certain=s.frequency_certain,
                         frequency_shown=s.frequency_shown)
        assert isinstance(result, Calculation), result
        d, w = result.derivation, exact(weight)
        for c in s.ceilings:
            limit = exact(c.maximum.high) * (w if c.maximum.kind.startswith("per_kg") else 1)
            if c.maximum.kind in ("per_dose", "per_kg_dose") and d.per_dose:
                assert Fraction(d.per_dose[1]) <= limit
            if c.maximum.kind in ("per_day", "per_kg_day"):
                # A day's figure is never above a daily maximum, and neither is a single dose.
                for figure in (d.per_day, d.per_dose):
                    assert figure is None or Fraction(figure[1]) <= limit
            if c.maximum.kind == "doses_per_day" and d.doses_per_day:
                assert Fraction(d.doses_per_day[1]) <= exact(c.maximum.high)
        assert check_calculation(result, {c.doc_id: c for c in dosing_chunks(drug)}, weight) == []


def test_a_dose_line_running_across_two_blocks_is_not_computed() -> None:
    # SYNTHETIC text: a flattened paragraph cut mid-line; its maximum sits in the block that continues it. The line
    # is read whole (so its maximum is not lost) but it has no single span to cite, so nothing is computed.
    first = Chunk(doc_id="x__lieu_luong_cach_dung__0", drug_id="x", section_key="lieu_luong_cach_dung",
                  text="Uống: Trẻ em: Liều theo cân nặng: 20 mg/kg/lần, mỗi 8 giờ.")
    second = Chunk(doc_id="x__lieu_luong_cach_dung__1", drug_id="x", section_key="lieu_luong_cach_dung",
                   text="Tối đa 500 mg/lần.", continues=True)
    teen = Patient(population="pediatric", age_months=180, weight_kg=60, route="oral")
    chosen, refused = select([first, second], teen)
    assert chosen == [] and "runs across two blocks" in refused[0]
    alone, _ = select([first], teen)
    assert len(alone) == 1  # the same line in one block is computed


def test_a_child_at_the_edge_of_an_under_band_is_not_computed_on_it() -> None:
    # SYNTHETIC text: "dưới 20 kg" has a weight rule, the heavier children's band a fixed dose. A 20 kg child is in
    # the heavier band: the lighter band's mg/kg line is not theirs and is never computed for them.
    block = Chunk(doc_id="y__lieu_luong_cach_dung__0", drug_id="y", section_key="lieu_luong_cach_dung",
                  text="Trẻ em: Viêm khớp: Trẻ cân nặng dưới 20 kg uống 50 mg/kg/ngày, chia 4 lần; trẻ nặng hơn "
                       "có thể bắt đầu bằng liều 2 g/ngày.")
    edge = Patient(population="pediatric", age_months=120, weight_kg=20, route="oral", indication="viêm khớp")
    chosen, _ = select([block], edge)
    assert chosen == []
    lighter, _ = select([block], Patient(population="pediatric", age_months=120, weight_kg=19, route="oral",
                                         indication="viêm khớp"))
    assert [s.line.text[:23] for s in lighter] == ["Trẻ cân nặng dưới 20 kg"]  # near miss: 19 kg is computed
