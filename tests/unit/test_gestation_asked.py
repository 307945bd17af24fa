"""A newborn whose dose lines differ by gestational age, not said, is asked it (states.gestation): left unasked, the
baby was in none of the neonatal bands and was shown the one line that did admit it — clindamycin's surgical
prophylaxis dose as a 20-day-old's treatment dose. Synthetic fixture text (not clinical guidance)."""

from __future__ import annotations

from states.frame import QueryFrame
from states.gestation import gestation_unknown
from tests.unit.grounding_fixtures import fixture_chunks

_NEWBORN = QueryFrame(turn_type="dosing_calc", drugs=["clindamycin"], section_key="lieu_luong_cach_dung",
                      population="pediatric", age_months=20 / 30, weight_kg=3.0, route_family="injection")


def _dosage(drug: str) -> list:
    return [c for c in fixture_chunks(drug) if c.section_key == "lieu_luong_cach_dung"]


def test_a_newborn_of_unknown_gestation_is_asked_it_when_the_bands_split_by_it() -> None:
    evidence = _dosage("clindamycin")  # "Sơ sinh 28 - 37 tuần chỉnh theo tuổi thai" / "Sơ sinh đủ tháng …"
    assert gestation_unknown(_NEWBORN, evidence)
    # Said: at term, or the weeks — nothing to ask.
    assert not gestation_unknown(_NEWBORN.model_copy(update={"gestation": "đủ tháng"}), evidence)
    assert not gestation_unknown(_NEWBORN.model_copy(update={"gestation": "sinh non 32 tuần"}), evidence)
    # "thiếu tháng" alone: below 28 weeks the book gives no band, within 28 - 37 it does — the weeks are asked.
    assert gestation_unknown(_NEWBORN.model_copy(update={"gestation": "thiếu tháng"}), evidence)


def test_no_question_when_the_gestation_changes_nothing() -> None:
    older = _NEWBORN.model_copy(update={"age_months": 48.0, "weight_kg": 16.0})  # no neonatal line admits a 4-year-old
    assert not gestation_unknown(older, _dosage("clindamycin"))
    # A drug whose dosage has no gestation band.
    assert not gestation_unknown(_NEWBORN.model_copy(update={"drugs": ["cetirizin"]}), _dosage("cetirizin"))
    # Not a dose question.
    assert not gestation_unknown(_NEWBORN.model_copy(update={"turn_type": "drug_attribute"}), _dosage("clindamycin"))


def test_a_band_by_gestational_weeks_alone_is_a_young_babys_not_an_older_child_born_preterm() -> None:
    from dataclasses import replace

    from core.dosage.select import select as select_lines
    from grounding.dosing_select import trees_by_drug
    from states.calculating import patient_of

    tree = trees_by_drug(_dosage("clindamycin"))[0].tree
    newborn = replace(patient_of(_NEWBORN), gestation_weeks=30.0)
    shown = [line.text for line in select_lines(tree, newborn).lines]
    assert any("Sơ sinh 28 - 37 tuần" in text for text in shown)
    older = replace(patient_of(_NEWBORN.model_copy(update={"age_months": 48.0, "weight_kg": 16.0})), gestation_weeks=30.0)
    assert not any("tuần" in text for text in (line.text for line in select_lines(tree, older).lines))
