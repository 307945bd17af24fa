"""The readers remembered across calls (issue 22: per-turn CPU) answer as if computed afresh.

Each memo returns the same answer as the computation it stands for, and what a caller receives is its own: a caller
changing its copy never changes what the next caller is given.
"""

from __future__ import annotations

from itertools import product

from bench.fixture import fixture_monographs
from core.dosage.immune import immune_admits as immune_words_admit
from core.dosage.model import Patient, RegimenLine
from core.dosage.pregnancy import for_pregnancy
from core.dosage.select import _DIALYSIS, context_admits, immune_admits, routes_for
from core.text import fold
from grounding.dosing_select import DOSING_SECTION, trees_by_drug
from grounding.patient_safety import patient_safety
from retrieval.chunking import chunk_monograph
from states.person import person_of
from states.slots import extract_slots
from tests.unit.understanding_kit import RESOLVER

CHUNKS = [c for m in fixture_monographs() for c in chunk_monograph(m)]
PATIENTS = [
    Patient(population="adult"),
    Patient(population="adult", pregnant=True),
    Patient(population="adult", renal=True, renal_ml_min=25.0),
    Patient(population="adult", hepatic="severe", elderly=True, age_months=800.0),
    Patient(population="pediatric", age_months=60.0, weight_kg=18.0),
    Patient(population="pediatric", age_months=0.5, weight_kg=3.2, route="intravenous"),
    Patient(population="pediatric", age_months=96.0, immunocompromised=True, indication="thủy đậu"),
    Patient(population=None, route="oral", immunocompromised=False),
]


def _context_admits_as_written(line: RegimenLine, patient: Patient) -> bool:
    """`context_admits` before its line words were remembered: every word read again at each call."""
    c = line.context
    if patient.route and c.routes and patient.route not in c.routes:
        return False
    if c.population and patient.population and c.population != patient.population:
        return False
    if c.population is None and patient.population == "pediatric" and line.kind == "regimen" and c.band.empty:
        return False
    if c.neonate and patient.age_months is not None and patient.age_months >= 1 and c.band.empty:
        return False
    if c.renal and not patient.renal:
        return False
    if not immune_admits(line, patient):
        return False
    if for_pregnancy(line) and not patient.pregnant:
        return False
    if not patient.renal and line.kind != "exclusion" and _DIALYSIS.search(fold(" ".join((*line.path, line.text)))):
        return False
    if c.hepatic and patient.hepatic is None:
        return False
    if line.kind == "regimen" and patient.population == "adult" and c.band.empty and not (c.renal or c.hepatic):
        return True
    return bool(c.path or c.routes or c.population or not c.band.empty)


def test_context_admits_with_remembered_line_words_agrees_with_reading_them_each_time() -> None:
    lines = [line for tree in trees_by_drug(CHUNKS) for line in tree.tree.lines]
    assert lines, "the fixture formulary has dosage lines"
    for line, patient in product(lines, PATIENTS):
        assert context_admits(line, patient) == _context_admits_as_written(line, patient), (line.text, patient)
    # The immune words of a line naming no status admit every patient (why context_admits skips them).
    for line, patient in product(lines, PATIENTS):
        joined = " ".join((*line.path, line.text))
        if "mien dich" not in fold(joined):
            assert immune_words_admit(joined, (), patient.immunocompromised, patient.indication)


def test_routes_for_gives_each_caller_its_own_list() -> None:
    tree = next(t for t in trees_by_drug(CHUNKS) if routes_for(t.tree, PATIENTS[0]))
    first = routes_for(tree.tree, PATIENTS[0])
    expected = list(first)
    first.append("rectal")
    first.clear()
    assert routes_for(tree.tree, PATIENTS[0]) == expected


def test_patient_safety_gives_each_caller_its_own_result_and_claims() -> None:
    evidence = [c for c in CHUNKS if c.drug_id == "paracetamol" and c.section_key != DOSING_SECTION]
    patient = Patient(population="adult", hepatic="severe", conditions=("suy gan nặng",))
    first = patient_safety(evidence, patient)
    assert first.claims, "paracetamol's safety sections speak of severe hepatic impairment"
    expected = (first.contraindicated, [c.model_dump() for c in first.claims],
                [c.model_dump() for c in first.exclusions], set(first.named_conditions))
    first.claims[0].citations.append("changed")
    first.claims[0].text = "changed"
    first.exclusions.clear()
    first.named_conditions.add("changed")
    again = patient_safety(evidence, patient)
    assert (again.contraindicated, [c.model_dump() for c in again.claims],
            [c.model_dump() for c in again.exclusions], set(again.named_conditions)) == expected
    # The exclusions are among the claims, as when computed afresh.
    assert all(any(e is c for c in again.claims) for e in again.exclusions)


def test_a_resolution_changed_by_its_caller_does_not_change_the_next_one() -> None:
    text = "paracetamol và ibuprofen dùng chung được không"
    first = RESOLVER.resolve(text)
    expected = first.model_dump()
    first.candidates.clear()
    first.unknown.append("changed")
    assert RESOLVER.resolve(text).model_dump() == expected
    assert RESOLVER.resolve(text).drug_ids == ["paracetamol", "ibuprofen"]


def test_slots_are_each_callers_own_and_the_person_read_again_is_the_same() -> None:
    text = "bé 5 tuổi 18kg bị hen, liều paracetamol"
    first = extract_slots(text)
    first.comorbidities.append("changed")
    first.weight_kg = 99.0
    again = extract_slots(text)
    assert again.weight_kg == 18.0 and "changed" not in again.comorbidities
    assert person_of("còn mẹ bé thì sao") == person_of("còn mẹ bé thì sao")
    assert person_of("còn mẹ bé thì sao") is not None
