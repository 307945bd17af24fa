"""Property: for any patient (age, weight, renal value, route) and a parsed dosage tree — the fixture's sections and
the real monographs when present — the selected lines are exactly the lines whose context and band admit the
patient, and no selected line has a band the patient is outside of."""

from __future__ import annotations

import re
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from core.dosage.lines import dose_quantities
from core.dosage.model import Bound, DosageTree, Patient, RegimenLine
from core.dosage.parse import parse_dosage
from core.dosage.select import (
    ADULT_AGE_MONTHS,
    Selection,
    admits,
    context_admits,
    heads_list_of,
    indication_key,
    is_conditional_cap,
    is_weight_band_beside_default,
    refers_to_adult_dose,
    select,
    states_amount,
)
from core.text import fold
from tests.unit.grounding_fixtures import FORMULARY
from tests.unit.realtext import SOURCE, has_realtext

_SECTION = re.compile(r"^## \*\*(?:Liều lượng|Liều dùng) và cách dùng\*\*\n(.*?)(?=^## )", re.S | re.M)


@cache
def _trees() -> tuple[DosageTree, ...]:
    trees = []
    for path in sorted(FORMULARY.glob("*.md")):
        m = _SECTION.search(path.read_text(encoding="utf-8"))
        if m:
            trees.append(parse_dosage(m.group(1), drug_names=[path.stem]))
    if has_realtext():
        for path in sorted(SOURCE.glob("*.txt")):
            m = re.search(r"^=== lieu_dung\n(.*?)(?=^=== |\Z)", path.read_text(encoding="utf-8"), re.S | re.M)
            if m:
                trees.append(parse_dosage(m.group(1), drug_names=[path.stem.split("_", 1)[1]]))
    return tuple(trees)


@st.composite
def patients(draw: st.DrawFn, *, min_age: float = 1.0) -> Patient:
    age = draw(st.one_of(st.none(), st.floats(min_value=min_age, max_value=90 * 12)))
    adult = age is None or age >= ADULT_AGE_MONTHS
    weight = draw(st.one_of(st.none(), st.floats(min_value=2, max_value=120)))
    renal_value = draw(st.one_of(st.none(), st.floats(min_value=3, max_value=130)))
    renal = renal_value is not None or draw(st.booleans())
    return Patient(population="adult" if adult else "pediatric", age_months=age, weight_kg=weight,
                   route=draw(st.sampled_from([None, "oral", "rectal", "iv", "im"])),
                   renal_ml_min=renal_value, renal=renal,
                   immunocompromised=draw(st.sampled_from([None, True, False])))


def _outside(bound: Bound | None, value: float | None) -> bool:
    """The patient is certainly outside this band dimension (closed reading: the edges count as inside)."""
    return bound is not None and value is not None and not (bound.low <= value <= bound.high)


def _disjoint(line: RegimenLine, patient: Patient) -> bool:
    age = patient.age_months if patient.age_months is not None else (
        ADULT_AGE_MONTHS if patient.population == "adult" else None)
    band = line.band
    return (_outside(band.age_months, age) or _outside(band.weight_kg, patient.weight_kg)
            or _outside(band.renal_ml_min, patient.renal_ml_min)
            or (band.age_months is not None and age is None) or (band.weight_kg is not None
                                                                 and patient.weight_kg is None))


@settings(max_examples=300, deadline=None)
@given(patient=patients(), index=st.integers(min_value=0))
def test_selected_lines_are_exactly_the_lines_that_admit_the_patient(patient: Patient, index: int) -> None:
    tree = _trees()[index % len(_trees())]
    selection = select(tree, patient)
    if selection.exclusions:
        assert not selection.lines  # an exclusion for this patient means no dose line at all
        assert all(admits(line, patient) for line in selection.exclusions)
        return
    # A selected line may be the tree's line narrowed to the patient's clause (core.dosage.purpose_sentences: a case,
    # an age group's clause): it stands for the tree line whose span it lies in.
    tree_ids = set(map(id, tree.lines))
    narrowed = [line for line in selection.lines if id(line) not in tree_ids]
    chosen = set(map(id, selection.lines)) | {id(t) for t in tree.lines for line in narrowed
                                               if t.start <= line.start < t.end and t.kind == line.kind
                                               and t.context == line.context}
    if selection.below_floor is not None:
        # Younger than the youngest band: no dose line at all; the floor is a band the patient is below.
        floor = selection.below_floor.band.age_months
        assert floor is not None and patient.age_months is not None and patient.age_months <= floor.low
        assert all(line.kind == "note" and admits(line, patient, closed=True) for line in selection.lines)
        assert not any(admits(line, patient) for line in tree.lines if line.kind == "regimen" and not line.band.empty
                       and line.band.renal_ml_min is None and line.band.hepatic is None)
        return
    if any(line.absence for line in selection.lines):
        # "No data for this band" beside a line whose own band holds the patient: the absence and the patient's
        # banded lines (and notes) are shown, the general dose lines without a band are not.
        for line in tree.lines:
            if line.kind == "exclusion":
                assert (id(line) in chosen) == (line.absence and admits(line, patient)), line.text
            elif line.kind == "regimen" and line.band.empty:
                assert id(line) not in chosen, line.text
            elif admits(line, patient):
                assert id(line) in chosen, line.text
            if id(line) in chosen:
                assert admits(line, patient), (line.text, line.band.describe())
        assert any(line.kind == "regimen" and not line.band.empty for line in selection.lines)
        return
    for line in tree.lines:
        if line.kind == "exclusion" and not (line.band.renal_ml_min is not None and patient.renal_ml_min is None):
            assert id(line) not in chosen
            continue
        if admits(line, patient) and id(line) not in chosen:
            # The one way an admitting line is left out: the patient's renal/hepatic adjustment replaces the usual
            # doses (the line is not an adjustment line), or it is for normal renal function / dialysis.
            assert _replaced(line, selection, patient, tree), line.text
        if id(line) in chosen:
            # The one way a line that does not admit the patient is chosen: the patient's own band refers to the adult
            # dose ("Trẻ > 16 tuổi có thể dùng liều như người lớn"), and it is an adult line.
            # Or a weight band's ceiling alone, for an adult it may hold ("Người có yếu tố nguy cơ … hoặc cân nặng
            # dưới 50 kg: không quá 3 g/ngày" for an adult of no stated weight): a maximum, never a dose.
            # Or, for an adult of no stated weight, a weight band beside the fixed dose of the adults outside it
            # ("1 g/lần …" then "Người lớn cân nặng 33–50 kg: 15 mg/kg/lần …"): both shown, each with its band
            # (core.dosage.select.is_weight_band_beside_default).
            assert admits(line, patient, closed=True) or is_conditional_cap(line, patient) or \
                is_weight_band_beside_default(line, tree, patient) or (
                line.population != "pediatric" and any(
                refers_to_adult_dose(ref) and admits(ref, patient, closed=True) for ref in selection.lines)), (
                line.text, line.band.describe())


def _elderly_only(line: RegimenLine) -> bool:
    """A line under an elderly lead-in, or opening with the elderly as its only patients."""
    opening = fold(re.split(r"\d", line.text, maxsplit=1)[0])
    return any(re.search(r"\b(nguoi cao tuoi|nguoi gia|cao tuoi)\b", fold(label)) for label in line.path) or (
        re.match(r"^((o|doi voi|voi|cho) )?(nguoi cao tuoi|nguoi gia)\b", opening) is not None
        and not re.search(r",|\bhoac\b|\bva\b", opening))


def _is_renal(line: RegimenLine) -> bool:
    return line.context.renal or line.band.renal_ml_min is not None


def _dose_line(line: RegimenLine) -> bool:
    return line.kind == "regimen" and len(dose_quantities(fold(line.text))) > len(line.maxima)


def _replaced(line: RegimenLine, selection: Selection, patient: Patient, tree: DosageTree) -> bool:
    folded = fold(" ".join((*line.path, line.text)))
    if patient.route in ("iv", "im", "sc") and not line.routes and _dose_line(line) and any(
            patient.route in other.routes and _dose_line(other) and context_admits(other, patient) for other in tree.lines):
        return True  # an injection the book doses on its own lines: a dose line naming no route is not that injection's
    if patient.population == "adult" and line.kind == "note" and line.population is None and \
            re.search(r"\b(?:cho|o|doi voi) (?:tre em|tre nho|tre)\b", fold(line.text)) and \
            not re.search(r"\bnguoi lon\b", fold(line.text)):
        return True  # a note of no population about children only ("không nên cho trẻ em quá 5 liều") is not an adult's
    if patient.population == "pediatric" and not patient.indication and indication_key(line) and _dose_line(line) \
            and not _is_renal(line) and any(not indication_key(other) and _dose_line(other) and not _is_renal(other)
                                            for other in selection.lines):
        return True  # a child's question naming no indication: another indication's dose beside their usual dose
    if patient.age_months is not None and line.population == "pediatric" and line.band.empty \
            and not line.context.neonate and any(other.context.neonate and other.band.age_months is not None
                                                 and admits(other, patient) for other in selection.lines):
        return True  # an infant a newborn block's own age band holds: the older child's general lines are not theirs
    if patient.population == "adult" and not patient.elderly and (patient.age_months is None
                                                                  or patient.age_months < 60 * 12) \
            and _elderly_only(line):
        return True  # the elderly's own line is not the dose of an adult not said to be elderly
    if any(heads_list_of(line, other) for other in selection.lines):
        return True  # a list heading's figures beside the listed band that holds the patient: that band is the dose
    if patient.renal and re.search(r"\b(chuc nang than|than) (binh thuong|con tot)\b", folded):
        return True
    if patient.renal_ml_min is not None and _is_renal(line) and line.band.renal_ml_min is None \
            and re.search(r"\b(tham phan|tham tach|loc mau|sieu loc|chay than)\b", folded):
        return True
    renal_adjusted = selection.needs_renal_value or (patient.renal_ml_min is not None and any(
        _is_renal(other) and other.kind == "regimen" and other.band.renal_ml_min is not None and states_amount(other)
        for other in selection.lines))
    if renal_adjusted:
        return not _is_renal(line)
    return patient.hepatic is not None and any(other.context.hepatic for other in selection.lines) \
        and not line.context.hepatic


@settings(max_examples=300, deadline=None)
@given(patient=patients(), index=st.integers(min_value=0))
def test_a_renal_patient_in_an_adjustment_band_gets_that_band_and_no_usual_dose(patient: Patient, index: int) -> None:
    """Issue 17 item 3: the adjustment band that holds the patient's ClCr/eGFR and states its own amount replaces the
    usual doses (one that only changes the interval is shown with the usual dose it modifies); a line of a disjoint
    ClCr band is never shown; without a value, only adjustment lines (and the question for the value)."""
    tree = _trees()[index % len(_trees())]
    selection = select(tree, patient)
    if selection.exclusions or not patient.renal:
        return
    adjusted = patient.renal_ml_min is not None and any(
        _is_renal(line) and line.kind == "regimen" and line.band.renal_ml_min is not None
        and line.band.renal_ml_min.contains(patient.renal_ml_min, closed=True) and states_amount(line)
        for line in selection.lines)
    for line in selection.lines:
        assert not _outside(line.band.renal_ml_min, patient.renal_ml_min), (line.text, line.band.describe())
        if adjusted or selection.needs_renal_value:
            assert _is_renal(line), ("usual dose beside the renal adjustment", line.text)


@settings(max_examples=300, deadline=None)
@given(patient=patients(min_age=0.0), index=st.integers(min_value=0))
def test_no_line_of_a_disjoint_band_is_ever_selected(patient: Patient, index: int) -> None:
    tree = _trees()[index % len(_trees())]
    selection = select(tree, patient)
    referring = any(refers_to_adult_dose(ref) and admits(ref, patient, closed=True) for ref in selection.lines)
    for line in selection.lines:
        if patient.route and line.routes:
            assert patient.route in line.routes
        if referring and line.population != "pediatric" and not admits(line, patient, closed=True):
            # The child's own band refers to the adult dose ("Trẻ em cân nặng > 50 kg: Dùng liều như người lớn"):
            # the adult lines are theirs, of the child's weight and route.
            assert not _outside(line.band.weight_kg, patient.weight_kg), (line.text, line.band.describe())
            continue
        if is_conditional_cap(line, patient):
            continue  # a ceiling alone of the adult's possible risk group, no dose (see the property above)
        if is_weight_band_beside_default(line, tree, patient):
            continue  # an adult of no stated weight: the weight band shown with its band (see above)
        assert not _disjoint(line, patient), (line.text, line.band.describe(), patient)
        if line.population and patient.population:
            assert line.population == patient.population


def test_the_property_runs_over_fixture_trees_with_bands() -> None:
    banded = [t for t in _trees() if any(not line.band.empty for line in t.lines)]
    assert len(banded) >= 3, "the property would be vacuous over trees without bands"
