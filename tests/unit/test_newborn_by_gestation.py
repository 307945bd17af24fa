"""A newborn stated by gestation and weight, with no age since birth: the age is asked only when a band they could be
in is keyed by postnatal age (issue 17). Synthetic dosage text in the book's flattened shape, not the book's own."""

from __future__ import annotations

from core.corpus import Chunk
from states.dosing import newborn_age_needed
from states.frame import QueryFrame
from states.routing import pediatric_age_or_weight_missing


def _frame(**slots: object) -> QueryFrame:
    """A child's dose question about one drug, with the given slots."""
    return QueryFrame.model_validate({"turn_type": "dosing_calc", "section_key": "lieu_luong_cach_dung",
                                      "drugs": ["thuocx"], "population": "pediatric", **slots})


def _dosage(text: str) -> list[Chunk]:
    return [Chunk(doc_id="thuocx__lieu_luong_cach_dung__0", drug_id="thuocx", section_key="lieu_luong_cach_dung",
                  text=text, page=1)]


BY_GESTATION = _dosage(
    "Trẻ em: Uống: Sơ sinh 28 - 32 tuần chỉnh theo tuổi thai: 12 mg/kg một lần, tối đa 24 mg/kg/ngày. "
    "Sơ sinh trên 32 tuần chỉnh theo tuổi thai: 14 mg/kg một lần, tối đa 48 mg/kg/ngày. "
    "Trẻ em 1 - 3 tháng tuổi: 25 mg/lần. Trẻ em 3 - 6 tháng tuổi: 50 mg/lần.")
BY_POSTNATAL_AGE = _dosage(
    "Tiêm tĩnh mạch: Trẻ em: Sơ sinh thiếu tháng (0 - 7 ngày): 70 mg/kg/ngày; (7 - 30 ngày): 90 mg/kg/ngày. "
    "Trẻ em 1 - 3 tháng tuổi: 110 mg/kg/ngày.")
PRETERM_30_WEEKS = _frame(weight_kg=1.4, gestation="sinh non 30 tuần", route="oral")


def test_a_newborn_given_by_gestation_weeks_and_weight_is_not_stopped_at_the_paediatric_gate() -> None:
    assert not pediatric_age_or_weight_missing(PRETERM_30_WEEKS)


def test_the_gate_still_asks_the_age_without_a_gestation_in_weeks() -> None:
    assert pediatric_age_or_weight_missing(_frame(weight_kg=1.4, gestation="sinh non"))
    assert pediatric_age_or_weight_missing(_frame(weight_kg=1.4))
    assert pediatric_age_or_weight_missing(_frame(gestation="sinh non 30 tuần"))  # no weight


def test_the_age_is_not_needed_when_every_newborn_band_is_by_gestation() -> None:
    assert not newborn_age_needed(BY_GESTATION, PRETERM_30_WEEKS)


def test_the_age_is_asked_when_a_newborn_band_is_by_days_since_birth() -> None:
    frame = _frame(route="iv", weight_kg=1.1, gestation="sinh non 29 tuần")
    assert newborn_age_needed(BY_POSTNATAL_AGE, frame)


def test_the_age_is_asked_when_no_gestation_band_holds_the_newborn() -> None:
    # 26 weeks: under every gestation band the text gives — the age bands are then the only ones, and need the age.
    assert newborn_age_needed(BY_GESTATION, _frame(weight_kg=0.9, gestation="sinh non 26 tuần",
                                                       route="oral"))


def test_a_child_with_a_stated_age_is_never_asked_again_here() -> None:
    assert not newborn_age_needed(BY_POSTNATAL_AGE, _frame(weight_kg=1.1, age_months=0.1,
                                                               gestation="sinh non 29 tuần"))
