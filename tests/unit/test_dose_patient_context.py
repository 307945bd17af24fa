"""On the dose path, the patient's context decides: an exclusion or a contraindication for this patient is quoted
and no dose is given; renal impairment gets its own adjustment band, or the adjustment lines and a question for
the value. Over the synthetic fixture monographs (SYNTHETIC TEST DATA, not clinical guidance)."""

from __future__ import annotations

import re

import pytest

from core.budget import RequestBudget
from core.corpus import Chunk
from grounding.answer import Answer, GenerationRequest
from grounding.extractive import (
    CONTRAINDICATED_PREAMBLE,
    EXCLUDED_PREAMBLE,
    RENAL_VALUE_QUESTION,
    ExtractiveGenerator,
)
from grounding.lexical import LexicalVerifier
from grounding.verify import verify_grounding
from tests.unit.grounding_fixtures import fixture_chunks, has_fixture

DOSING = "lieu_luong_cach_dung"
SAFETY = ("chong_chi_dinh", "than_trong", "thoi_ky_mang_thai", "thoi_ky_cho_con_bu")
_DAILY_DOSE = re.compile(r"\d[\d  ]*\s*mg/ngày")


def _evidence(drug: str) -> list[Chunk]:
    if not has_fixture(drug):
        pytest.skip(f"fixture monograph {drug} absent")
    return [c for c in fixture_chunks(drug) if c.section_key in (DOSING, *SAFETY)]


def _dose(drug: str, query: str, **frame: object) -> tuple[Answer, GenerationRequest]:
    """The request as the generating state builds it: the patient's context in its own fields (from the frame),
    never re-read from the query text."""
    request = GenerationRequest(query=query, evidence=_evidence(drug), section_key=DOSING, drug_ids=[drug],
                                **frame)  # type: ignore[arg-type]
    return ExtractiveGenerator().generate(request, RequestBudget()), request


def _verified(answer: Answer, request: GenerationRequest) -> None:
    result = verify_grounding(answer, request.evidence, request=request)
    assert result.ok, result.problems
    assert LexicalVerifier().verify(answer, request.evidence, RequestBudget()).ok


def test_metformin_at_egfr_25_is_contraindicated_and_gets_no_dose() -> None:
    answer, request = _dose("metformin", "Liều metformin cho người lớn suy thận, eGFR 25? Bệnh nền: suy thận.",
                            population="adult", route="oral", renal="suy thận, eGFR 25")
    texts = " ".join(c.text for c in answer.claims)
    assert answer.preamble.startswith(CONTRAINDICATED_PREAMBLE[:40])
    assert "eGFR dưới 30" in texts
    assert not _DAILY_DOSE.search(texts), texts  # not "tối đa 3 000 mg/ngày"
    _verified(answer, request)


def test_metformin_at_egfr_50_gets_the_45_to_59_adjustment_with_the_caution_first() -> None:
    answer, request = _dose("metformin", "Liều metformin người lớn eGFR 50. Bệnh nền: suy thận.",
                            population="adult", route="oral", renal="eGFR 50")
    texts = [c.text for c in answer.claims]
    renal = [t for t in texts if "eGFR" in t and "mg/ngày" in t]
    assert renal and all("45–59" in t for t in renal), texts
    assert not any("30–44" in t for t in texts)
    first_dose = next(i for i, c in enumerate(answer.claims) if c.citations[0].split("__")[1] == DOSING)
    assert any(c.citations[0].split("__")[1] in SAFETY for c in answer.claims[:first_dose])  # safety first
    _verified(answer, request)


def test_renal_impairment_without_a_value_gets_the_adjustment_lines_and_a_question_for_the_value() -> None:
    answer, request = _dose("metformin", "Liều metformin cho người suy thận? Bệnh nền: suy thận.",
                            population="adult", route="oral", renal="suy thận")
    texts = " ".join(c.text for c in answer.claims)
    assert RENAL_VALUE_QUESTION in answer.preamble
    assert "45–59" in texts and "30–44" in texts


def test_a_child_under_7_kg_gets_the_ibuprofen_exclusion_and_no_dose() -> None:
    answer, request = _dose("ibuprofen", "Liều ibuprofen cho bé 4 tháng 6 kg", population="pediatric",
                            age_months=4, weight_kg=6, route="oral")
    assert answer.preamble.startswith(EXCLUDED_PREAMBLE[:40])
    assert [c.text.endswith("Không khuyến cáo cho trẻ dưới 7 kg.") for c in answer.claims] == [True]
    _verified(answer, request)


def test_aspirin_for_fever_in_a_child_under_16_is_the_exclusion_not_the_kawasaki_dose() -> None:
    answer, request = _dose("acid_acetylsalicylic", "Liều aspirin hạ sốt cho bé 5 tuổi 18 kg",
                            population="pediatric", age_months=60, weight_kg=18, route="oral", condition="sốt")
    texts = " ".join(c.text for c in answer.claims)
    assert "dưới 16 tuổi" in texts and "mg/kg/ngày" not in texts
    assert answer.preamble.startswith(EXCLUDED_PREAMBLE[:40])


def test_a_pregnant_patient_on_warfarin_gets_the_contraindication_and_no_dose() -> None:
    answer, request = _dose("warfarin", "Liều warfarin cho phụ nữ mang thai. Bệnh nền: đang mang thai.",
                            population="adult", route="oral", pregnant=True)
    texts = " ".join(c.text for c in answer.claims)
    assert "mang thai" in texts and answer.preamble.startswith(CONTRAINDICATED_PREAMBLE[:40])
    assert not re.search(r"\d\s*mg", texts)


def test_hepatic_impairment_of_unknown_grade_gets_the_hepatic_lines_not_the_severe_only_exclusion() -> None:
    answer, request = _dose("paracetamol", "Liều paracetamol cho người lớn suy gan. Bệnh nền: suy gan.",
                            population="adult", route="oral", hepatic="suy gan")
    texts = " ".join(c.text for c in answer.claims)
    assert "Suy gan nhẹ và vừa" in texts and "Chống chỉ định khi suy gan nặng" in texts
    assert not answer.preamble.startswith(EXCLUDED_PREAMBLE[:40])


def test_severe_hepatic_impairment_is_contraindicated_for_paracetamol() -> None:
    answer, request = _dose("paracetamol", "Liều paracetamol cho người lớn suy gan nặng. Bệnh nền: suy gan nặng.",
                            population="adult", route="oral", hepatic="suy gan nặng")
    texts = " ".join(c.text for c in answer.claims)
    assert answer.preamble.startswith(CONTRAINDICATED_PREAMBLE[:40]) and "suy gan nặng" in texts
    assert not re.search(r"\d\s*(mg|g)/(lần|ngày)", texts), texts
