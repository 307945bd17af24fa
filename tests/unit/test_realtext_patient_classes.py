"""General failure classes of issue 17 on the real extracted DTQG text (../shared/realtext, read at test time and
never copied here; skipped, saying so, when absent): a newborn on an injection route, a gestation stated in words,
elderly-only lines, cross-reference bands ("liều như người lớn") and cautions naming the patient's condition.
Expectations written from the source text."""

from __future__ import annotations

import pytest

from core.budget import RequestBudget
from core.corpus import Chunk
from core.dosage.bands import patient_gestation
from core.dosage.model import Patient
from core.dosage.parse import parse_dosage
from core.dosage.select import routes_for, select
from grounding.answer import Answer, GenerationRequest
from grounding.extractive import ExtractiveGenerator
from grounding.patient_safety import names_condition, patient_safety
from grounding.verify import verify_grounding
from tests.unit.realtext import real_chunks, real_field

DOSING = "lieu_luong_cach_dung"


def _answer(drug: str, query: str, **frame: object) -> Answer:
    evidence = real_chunks(drug, DOSING)
    request = GenerationRequest(query=query, evidence=evidence, section_key=DOSING, drug_ids=[drug],
                                **frame)  # type: ignore[arg-type]
    answer = ExtractiveGenerator().generate(request, RequestBudget())
    result = verify_grounding(answer, evidence, request=request)
    assert result.ok, result.problems
    return answer


def _text(answer: Answer) -> str:
    return " ".join(c.text for c in answer.claims)


# --- newborns on an injection route -------------------------------------------------------------------------

def test_a_syringe_restriction_is_not_an_exclusion_of_young_children_from_the_injection_routes() -> None:
    # "Trẻ … dưới 3 tuổi: Pha vào … (không dùng ống tiêm chứa dung dịch … alcol benzylic)" names a product.
    tree = parse_dosage(real_field("046_amoxicillin", "lieu_dung"))
    newborn = Patient(population="pediatric", age_months=10 / 30.4, weight_kg=3.2)
    assert "iv" in routes_for(tree, newborn)
    assert not select(tree, Patient(population="pediatric", age_months=24, weight_kg=12, route="iv")).exclusions


def test_a_term_newborn_of_ten_days_gets_the_term_7_to_30_day_iv_line_only() -> None:
    answer = _answer("amoxicillin", "Liều amoxicilin tiêm tĩnh mạch cho trẻ sơ sinh đủ tháng 10 ngày tuổi nặng 3,2 kg",
                     population="pediatric", age_months=0.33, weight_kg=3.2, route="iv")
    text = _text(answer)
    assert "100 - 200 mg/kg/ngày" in text
    assert "100 - 150 mg/" not in text and "100 mg/kg/ngày" not in text  # the preterm and the 0-7 day lines
    assert "2 - 12 g" not in text  # the adult's


def test_a_preterm_newborn_by_gestation_weeks_gets_the_preterm_line_of_their_postnatal_age() -> None:
    answer = _answer("amoxicillin", "Liều amoxicilin tiêm tĩnh mạch cho trẻ sơ sinh non 29 tuần, nặng 1,1 kg, 3 ngày"
                     " tuổi", population="pediatric", age_months=0.1, weight_kg=1.1, route="iv")
    text = _text(answer)
    assert "Sơ sinh thiếu tháng (0 - 7 ngày): 100 mg/kg/ngày" in text
    assert "100 - 150 mg/" not in text and "100 - 200 mg/" not in text


def test_a_newborn_whose_gestation_is_not_stated_gets_no_gestation_line() -> None:
    answer = _answer("amoxicillin", "Liều amoxicilin tiêm tĩnh mạch cho trẻ sơ sinh 10 ngày tuổi nặng 3,2 kg",
                     population="pediatric", age_months=0.33, weight_kg=3.2, route="iv")
    assert "mg/kg/ngày" not in _text(answer)


@pytest.mark.parametrize(("text", "weeks", "low", "high"), [
    ("sơ sinh non 29 tuần, nặng 1,1 kg", 29.0, None, None),
    ("tuổi thai 32 tuần", 32.0, None, None),
    ("bé sinh non", None, 0.0, 37.0),
    ("trẻ sơ sinh đủ tháng 10 ngày tuổi", None, 37.0, float("inf")),
    ("bé 3 tuần tuổi nặng 4 kg", None, None, None),  # the postnatal age, not the gestation
])
def test_the_gestation_a_user_states(text: str, weeks: float | None, low: float | None, high: float | None) -> None:
    got_weeks, got_range = patient_gestation(text)
    assert got_weeks == weeks
    assert (got_range.low, got_range.high) == (low, high) if got_range else low is None


# --- elderly lines --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("age", [None, 40 * 12])
def test_an_adult_not_said_to_be_elderly_is_not_given_the_elderly_line(age: float | None) -> None:
    tree = parse_dosage(real_field("321_haloperidol", "lieu_dung"))
    texts = [line.text for line in select(tree, Patient(population="adult", age_months=age)).lines]
    assert not any("500 microgam (0,5 mg) cho tới 2 mg" in t for t in texts), texts
    papaverine = parse_dosage(real_field("497_papaverine", "lieu_dung"))
    texts = [line.text for line in select(papaverine, Patient(population="adult", age_months=age, route="im")).lines]
    assert any("thường dùng cho người lớn là 30 mg" in t for t in texts)
    assert not any("30 - 65 mg" in t for t in texts), texts


def test_an_elderly_lead_in_does_not_swallow_the_indications_and_injections_after_it() -> None:
    tree = parse_dosage(real_field("321_haloperidol", "lieu_dung"))
    injected = [line for line in tree.lines if "Tiêm bắp ban đầu 2 - 5 mg" in line.text]
    assert injected and not any("cao tuổi" in label for label in injected[0].path)


def test_an_elderly_patient_gets_the_elderly_injection_line_and_not_the_usual_adult_one() -> None:
    papaverine = parse_dosage(real_field("497_papaverine", "lieu_dung"))
    for route in ("iv", "im"):
        texts = [line.text for line in select(papaverine, Patient(population="adult", age_months=75 * 12,
                                                                  elderly=True, route=route)).lines]
        assert any("30 - 65 mg" in t for t in texts) and not any("người lớn là 30 mg" in t for t in texts), texts


# --- cross-reference bands ------------------------------------------------------------------------------------

def test_a_child_over_50_kg_on_iv_gets_the_adult_iv_line_of_their_weight_with_the_cross_reference() -> None:
    tree = parse_dosage(real_field("498_paracetamol", "lieu_dung"))
    child = Patient(population="pediatric", age_months=14 * 12, weight_kg=55, route="iv")
    texts = [line.text for line in select(tree, child).lines]
    assert any("Dùng liều như người lớn" in t for t in texts)
    assert any(t.startswith("Trên 50 kg: Liều một lần là 1 g") for t in texts), texts
    assert not any(t.startswith("Dưới 50 kg") for t in texts)
    assert "iv" in routes_for(tree, Patient(population="pediatric", age_months=14 * 12, weight_kg=55))


def test_a_cross_reference_band_that_does_not_hold_the_child_gives_no_adult_line() -> None:
    tree = parse_dosage(real_field("000_abacavir", "lieu_dung"))
    texts = [line.text for line in select(tree, Patient(population="pediatric", age_months=10 * 12, weight_kg=32,
                                                         route="oral")).lines]
    assert not any("600 mg, dùng một lần mỗi ngày" in t for t in texts), texts
    older = [line.text for line in select(tree, Patient(population="pediatric", age_months=17 * 12, weight_kg=55,
                                                        route="oral")).lines]
    assert any("liều như người lớn" in t for t in older) and any("Liều thường dùng là 600 mg" in t for t in older)


def test_half_the_adult_dose_is_not_read_as_the_adult_dose() -> None:
    tree = parse_dosage(real_field("006_aciclovir", "lieu_dung"))
    texts = [line.text for line in select(tree, Patient(population="pediatric", age_months=12, weight_kg=10,
                                                        route="oral", indication="zona")).lines]
    assert not any(t.startswith("Người lớn, 800 mg/lần") for t in texts), texts


def test_the_cross_referred_adult_line_passes_verification_bound_to_the_child() -> None:
    answer = _answer("paracetamol", "Liều paracetamol truyền tĩnh mạch cho trẻ 14 tuổi nặng 55 kg",
                     population="pediatric", age_months=168, weight_kg=55, route="iv")
    assert "Trên 50 kg: Liều một lần là 1 g" in _text(answer)


# --- cautions and contraindications naming the patient's stated condition ----------------------------------

def _safety_chunks(drug: str) -> list[Chunk]:
    return real_chunks(drug, "chong_chi_dinh", "than_trong")


def test_an_elderly_patient_with_dementia_gets_the_mortality_warning() -> None:
    safety = patient_safety(_safety_chunks("haloperidol"), Patient(population="adult", age_months=80 * 12,
                                                                   elderly=True, conditions=("sa sút trí tuệ",)))
    assert any("sa sút trí tuệ" in c.text and "tử vong" in c.text for c in safety.claims)
    assert all(c.citations[0].startswith("haloperidol__than_trong") for c in safety.claims)
    assert not safety.contraindicated  # a caution, not a contraindication


def test_a_condition_named_in_the_contraindications_means_no_dose() -> None:
    safety = patient_safety(_safety_chunks("papaverine_hydrochloride"),
                            Patient(population="adult", conditions=("tiền sử bệnh Parkinson",)))
    assert safety.contraindicated and any("Parkinson" in c.text for c in safety.claims)


@pytest.mark.parametrize("condition", ["mấy", "nặng", "sốt", "bao nhiêu"])
def test_words_that_name_no_condition_never_contraindicate(condition: str) -> None:
    safety = patient_safety(_safety_chunks("ibuprofen"), Patient(population="adult", conditions=(condition,)))
    assert not safety.claims and not safety.contraindicated


@pytest.mark.parametrize(("sentence", "condition", "named"), [
    ("Bệnh Parkinson.", "tiền sử bệnh Parkinson", True),
    ("… mày đay hoặc phù mạch sau khi dùng aspirin", "mấy", False),  # diacritics typed must agree
    ("Người bệnh bị hen hay bị co thắt phế quản", "hen", True),
    ("Người thiếu hụt G6PD.", "thiếu men G6PD", True),
    ("Không dùng cho trẻ em dưới 16 tuổi, chỉ trừ bệnh Kawasaki.", "bệnh Kawasaki", False),  # the exception
])
def test_a_sentence_names_the_stated_condition(sentence: str, condition: str, named: bool) -> None:
    assert names_condition(sentence, condition) is named


def test_a_can_use_question_puts_the_contraindication_for_the_patients_gfr_first() -> None:
    evidence = real_chunks("ibuprofen", "chong_chi_dinh")
    request = GenerationRequest(query="suy thận mức lọc cầu thận 25 ml/phút có dùng ibuprofen được không",
                                evidence=evidence, section_key="chong_chi_dinh", drug_ids=["ibuprofen"],
                                renal="suy thận mức lọc cầu thận 25 ml/phút")
    answer = ExtractiveGenerator().generate(request, RequestBudget())
    assert "dưới 30 ml/phút" in answer.claims[0].text
    assert "chống chỉ định" in answer.preamble
