"""Synthetic dosage sections in the PDF-extracted shape (flattened, unlabelled; written for these tests, not from
the book) for the general rules of issue 17's failure classes: a product restriction is not an exclusion, a
newborn's gestation stated in words, an elderly lead-in that closes at the next indication, elderly-only lines,
cross-reference bands."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.dosage.bands import DAYS_PER_MONTH, patient_gestation
from core.dosage.model import Patient
from core.dosage.parse import parse_dosage
from core.dosage.select import routes_for, select

INJECTION = ("Liều lượng: Tiêm tĩnh mạch: Người lớn: 3 g/ngày. Trẻ em: Trẻ dưới 2 tuổi: Pha với 4 ml nước cất "
             "(không dùng lọ dung môi có chất bảo quản). Trẻ em (từ 1 tháng - 12 tuổi): 80 mg/kg/ngày. "
             "Sơ sinh thiếu tháng (0 - 7 ngày): 40 mg/kg/ngày; (7 - 28 ngày): 60 mg/kg/ngày. "
             "Sơ sinh đủ tháng (0 - 7 ngày): 50 mg/kg/ngày; (7 - 28 ngày): 70 mg/kg/ngày.")
ELDERLY = ("Người lớn: Ban đầu 2 mg, 2 lần/ngày. Người cao tuổi: 1 mg/ngày. Hội chứng X: Liều uống 3 mg/lần, "
           "2 lần/ngày. Thuốc tiêm: Tiêm bắp 4 mg/lần.")
CROSS = ("Uống: Người lớn: 400 mg/lần, 2 lần/ngày. Trẻ em: Trẻ cân nặng dưới 30 kg: 10 mg/kg/lần, 2 lần/ngày. "
         "Trẻ cân nặng 30 kg trở lên: dùng liều như người lớn. Trẻ dưới 1 tuổi: dùng 1/2 liều người lớn.")


def _texts(text: str, patient: Patient) -> list[str]:
    return [line.text for line in select(parse_dosage(text), patient).lines]


def test_a_restriction_of_a_solvent_vial_does_not_exclude_young_children_from_the_route() -> None:
    tree = parse_dosage(INJECTION)
    child = Patient(population="pediatric", age_months=12, weight_kg=9, route="iv")
    assert not select(tree, child).exclusions
    assert "iv" in routes_for(tree, Patient(population="pediatric", age_months=0.3, weight_kg=3))


@settings(max_examples=60, deadline=None)
@given(days=st.integers(min_value=0, max_value=27), term=st.booleans())
def test_a_newborn_of_stated_term_gets_exactly_the_line_of_their_gestation_and_postnatal_age(days: int,
                                                                                               term: bool) -> None:
    weeks, gestation = patient_gestation("sơ sinh đủ tháng" if term else "sơ sinh thiếu tháng")
    newborn = Patient(population="pediatric", age_months=days / DAYS_PER_MONTH, weight_kg=3, route="iv",
                      gestation_weeks=weeks, gestation=gestation)
    doses = [t for t in _texts(INJECTION, newborn) if "mg/kg/ngày" in t]
    expected = {(True, True): "50 mg", (True, False): "70 mg", (False, True): "40 mg", (False, False): "60 mg"}
    assert len(doses) == 1 and expected[(term, days < 7)] in doses[0], (days, term, doses)


def test_a_newborn_whose_gestation_is_not_stated_gets_no_gestation_band() -> None:
    newborn = Patient(population="pediatric", age_months=0.3, weight_kg=3, route="iv")
    assert not any("mg/kg/ngày" in t for t in _texts(INJECTION, newborn))


def test_an_elderly_lead_in_closes_at_the_next_indication() -> None:
    tree = parse_dosage(ELDERLY)
    later = [line for line in tree.lines if "3 mg/lần" in line.text or "4 mg/lần" in line.text]
    assert later and not any("Người cao tuổi" in label for line in later for label in line.path)


@settings(max_examples=60, deadline=None)
@given(age_years=st.one_of(st.none(), st.integers(min_value=18, max_value=59)))
def test_an_adult_not_said_to_be_elderly_never_gets_the_elderly_line(age_years: int | None) -> None:
    adult = Patient(population="adult", age_months=None if age_years is None else age_years * 12.0)
    texts = _texts(ELDERLY, adult)
    assert not any(t.startswith("1 mg/ngày") for t in texts) and any("Ban đầu 2 mg" in t for t in texts)


def test_an_elderly_patient_gets_the_elderly_line_not_the_adult_one() -> None:
    texts = _texts(ELDERLY, Patient(population="adult", age_months=70 * 12, elderly=True))
    assert any(t.startswith("1 mg/ngày") for t in texts) and not any("Ban đầu 2 mg" in t for t in texts)


@settings(max_examples=60, deadline=None)
@given(weight=st.floats(min_value=5, max_value=80), age_years=st.integers(min_value=1, max_value=15))
def test_a_cross_reference_band_gives_the_adult_line_exactly_to_the_children_it_holds(weight: float,
                                                                                       age_years: int) -> None:
    texts = _texts(CROSS, Patient(population="pediatric", age_months=age_years * 12.0, weight_kg=weight,
                                  route="oral"))
    adult = any(t.startswith("400 mg/lần") for t in texts)
    assert adult == (weight >= 30), (weight, texts)
    assert not any("10 mg/kg/lần" in t for t in texts) or weight < 30


def test_a_fraction_of_the_adult_dose_does_not_give_the_adult_line() -> None:
    texts = _texts(CROSS, Patient(population="pediatric", age_months=6, weight_kg=7, route="oral"))
    assert not any(t.startswith("400 mg/lần") for t in texts)
