"""A newborn named by its words has the first month as its age unless the drug's dosage lines split that month by
days (states.newborn). SYNTHETIC TEST DATA: invented drug text, not clinical guidance."""

from __future__ import annotations

from core.corpus import Chunk
from states.frame import QueryFrame
from states.newborn import NEWBORN_AGE_TEXT, SectionLookup, with_newborn_age

WHOLE_MONTH = "Trẻ em: Sơ sinh: 10 mg/kg cách 8 giờ/lần. Trẻ 1 tháng - 12 tuổi: 15 mg/kg cách 6 giờ/lần."
BY_DAYS = "Trẻ em: Sơ sinh (0 - 7 ngày): 50 mg/kg/ngày. Sơ sinh (8 - 28 ngày): 75 mg/kg/ngày."


def _lookup(text: str) -> SectionLookup:
    chunk = Chunk(doc_id="zanofen__lieu_luong_cach_dung__0", drug_id="zanofen", section_key="lieu_luong_cach_dung",
                  text=text, page=1, drug_title="ZANOFEN (dữ liệu thử nghiệm)")
    return lambda drug_id, section: [chunk] if (drug_id, section) == ("zanofen", "lieu_luong_cach_dung") else []


def _frame() -> QueryFrame:
    return QueryFrame(turn_type="dosing_calc", drugs=["zanofen"], section_key="lieu_luong_cach_dung",
                      population="pediatric", weight_kg=3.2, confidence=0.9, understood_by="rules")


def test_a_newborn_by_its_words_is_in_its_first_month_when_the_book_never_splits_it() -> None:
    frame = with_newborn_age(_frame(), "em bé mới sinh nặng 3,2 kg dùng zanofen liều sao", _lookup(WHOLE_MONTH))
    assert (frame.age_months, frame.age_text) == (0.0, NEWBORN_AGE_TEXT)


def test_the_days_are_still_asked_when_the_book_splits_the_first_month() -> None:
    frame = with_newborn_age(_frame(), "bé sơ sinh nặng 3,2 kg dùng zanofen liều sao", _lookup(BY_DAYS))
    assert frame.age_months is None


BY_CORRECTED_AGE = ("Trẻ em: Sơ sinh 28 - 32 tuần chỉnh theo tuổi thai: 10 mg/kg cách 12 giờ/lần. Sơ sinh trên 32 tuần "
                    "chỉnh theo tuổi thai: 10 mg/kg cách 8 giờ/lần.")


def test_a_gestation_at_birth_needs_the_days_where_the_book_bands_by_corrected_age() -> None:
    at_birth = with_newborn_age(_frame(), "sơ sinh non 30 tuần, nặng 1,4 kg, zanofen", _lookup(BY_CORRECTED_AGE))
    corrected = with_newborn_age(_frame(), "sơ sinh, tuổi thai hiệu chỉnh 30 tuần, 1,4 kg, zanofen",
                                 _lookup(WHOLE_MONTH))
    assert at_birth.age_months is None and corrected.age_months == 0.0
    # Where the book bands preterm babies by their birth ("trẻ sơ sinh thiếu tháng"), the birth gestation places them.
    by_birth = with_newborn_age(_frame(), "sơ sinh non 30 tuần, nặng 1,4 kg, zanofen", _lookup(WHOLE_MONTH))
    assert by_birth.age_months == 0.0


def test_a_mother_who_just_gave_birth_is_no_newborn() -> None:
    frame = with_newborn_age(_frame(), "mẹ mới sinh em bé, uống zanofen được không", _lookup(WHOLE_MONTH))
    assert frame.age_months is None
