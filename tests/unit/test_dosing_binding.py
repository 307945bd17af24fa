"""Verification binds each quoted dosage line to the patient, even when the quote is verbatim (#19.2), and finds
an omitted ceiling from the dosage tree, with no model."""

from __future__ import annotations

from grounding.answer import Answer, Claim, GenerationRequest
from grounding.verify import verify_grounding
from tests.unit.grounding_fixtures import chunk

DOSING = "lieu_luong_cach_dung"
ADULT = chunk("paracetamol__lieu_luong_cach_dung__1",
              "*Uống – Người lớn:* 500 mg – 1 g/lần, mỗi 4–6 giờ nếu cần; tối đa 4 g/ngày.")
CHILD = chunk(
    "paracetamol__lieu_luong_cach_dung__2",
    "*Uống – Trẻ em:* Liều theo tuổi, mỗi 4–6 giờ một lần, không quá 4 lần trong 24 giờ:\n"
    "- Trẻ 2–4 tuổi: 180 mg/lần.\n"
    "- Trẻ 4–6 tuổi: 240 mg/lần.\n"
    "Liều theo cân nặng: 10–15 mg/kg/lần, mỗi 4–6 giờ; tối đa 60 mg/kg/ngày.",
)
RECTAL_CHILD = chunk("paracetamol__lieu_luong_cach_dung__3",
                     "*Đặt trực tràng – Trẻ em:* Liều theo cân nặng: 15–20 mg/kg/lần, mỗi 6 giờ; "
                     "tối đa 60 mg/kg/ngày.")
EVIDENCE = [ADULT, CHILD, RECTAL_CHILD]
WEIGHT_RULE = "Liều theo cân nặng: 10–15 mg/kg/lần, mỗi 4–6 giờ; tối đa 60 mg/kg/ngày."


def _request(**patient: object) -> GenerationRequest:
    return GenerationRequest(query="Liều paracetamol", evidence=EVIDENCE, section_key=DOSING,
                             drug_ids=["paracetamol"], **patient)  # type: ignore[arg-type]


FIVE_YEAR_OLD = {"population": "pediatric", "age_months": 60, "weight_kg": 18, "route": "oral"}


def _answer(*claims: tuple[str, str]) -> Answer:
    return Answer(claims=[Claim(text=t, citations=[d]) for t, d in claims], generator="fooled-model")


def test_the_adult_line_quoted_verbatim_for_an_18_kg_five_year_old_is_rejected_as_not_bound() -> None:
    answer = _answer(("Uống – Người lớn: 500 mg – 1 g/lần", ADULT.doc_id))
    result = verify_grounding(answer, EVIDENCE, request=_request(**FIVE_YEAR_OLD))
    assert not result.ok
    assert any("not bound" in p and "adult" in p for p in result.problems), result.problems


def test_without_the_patient_the_same_verbatim_quote_passes_numeric_grounding() -> None:
    # The binding is what catches it: citation and numbers alone accept a verbatim quote of another patient.
    answer = _answer(("Uống – Người lớn: 500 mg – 1 g/lần", ADULT.doc_id))
    assert verify_grounding(answer, EVIDENCE).ok


def test_another_age_bands_line_is_rejected_even_from_the_right_paragraph() -> None:
    answer = _answer(("Trẻ 2–4 tuổi: 180 mg/lần.", CHILD.doc_id), (WEIGHT_RULE, CHILD.doc_id))
    result = verify_grounding(answer, EVIDENCE, request=_request(**FIVE_YEAR_OLD))
    assert not result.ok and any("not bound" in p for p in result.problems)


def test_another_routes_line_is_rejected() -> None:
    answer = _answer(("Liều theo cân nặng: 15–20 mg/kg/lần, mỗi 6 giờ; tối đa 60 mg/kg/ngày.",
                      RECTAL_CHILD.doc_id))
    result = verify_grounding(answer, EVIDENCE, request=_request(**FIVE_YEAR_OLD))
    assert not result.ok and any("not bound" in p and "rectal" in p for p in result.problems)


def test_a_paraphrased_dose_of_another_band_is_rejected_by_its_numbers() -> None:
    answer = _answer(("Bé nên uống 180 mg/lần.", CHILD.doc_id))
    result = verify_grounding(answer, EVIDENCE, request=_request(**FIVE_YEAR_OLD))
    assert not result.ok and any("not bound" in p for p in result.problems)


def test_the_patients_own_band_with_its_ceiling_is_accepted() -> None:
    answer = _answer(("Uống › Trẻ em: Trẻ 4–6 tuổi: 240 mg/lần.", CHILD.doc_id), (WEIGHT_RULE, CHILD.doc_id))
    result = verify_grounding(answer, EVIDENCE, request=_request(**FIVE_YEAR_OLD))
    assert result.ok, result.problems


def test_leaving_out_the_applicable_maximum_is_an_omission_even_when_every_sentence_is_verbatim() -> None:
    answer = _answer(("Trẻ 4–6 tuổi: 240 mg/lần.", CHILD.doc_id))
    result = verify_grounding(answer, EVIDENCE, request=_request(**FIVE_YEAR_OLD))
    # Every quoted line is the child's (grounded), and the ceiling left out is an omission the machine repairs.
    assert result.ok and not result.problems
    assert any("60 mg/kg/ngày" in o for o in result.omissions), result.omissions


def test_an_adult_quoting_the_adult_line_is_bound() -> None:
    answer = _answer(("500 mg – 1 g/lần, mỗi 4–6 giờ nếu cần; tối đa 4 g/ngày.", ADULT.doc_id))
    assert verify_grounding(answer, EVIDENCE, request=_request(population="adult", route="oral")).ok


def test_a_list_or_interaction_request_is_not_dose_bound() -> None:
    answer = _answer(("Uống – Người lớn: 500 mg – 1 g/lần", ADULT.doc_id))
    request = GenerationRequest(query="q", evidence=EVIDENCE, mode="interaction", drug_ids=["paracetamol"])
    assert verify_grounding(answer, EVIDENCE, request=request).ok
