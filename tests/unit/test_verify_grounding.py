"""Citation and numeric grounding rejects every adversarial answer of issue 5 and accepts the faithful ones."""

from __future__ import annotations

from core.corpus import Chunk
from grounding.answer import Answer, Claim, GenerationRequest
from grounding.verify import verify_grounding
from tests.unit.grounding_fixtures import chunk

PARA_CHILD = chunk(
    "paracetamol__lieu_luong_cach_dung__2",
    "*Uống – Trẻ em:* Liều theo tuổi, mỗi 4–6 giờ một lần, không quá 4 lần trong 24 giờ:\n"
    "- Trẻ 4–6 tuổi: 240 mg/lần.\n"
    "Liều theo cân nặng: 10–15 mg/kg/lần, mỗi 4–6 giờ; tối đa 60 mg/kg/ngày.",
)
PARA_ADULT = chunk("paracetamol__lieu_luong_cach_dung__1",
                   "*Uống – Người lớn:* 500 mg – 1 g/lần, mỗi 4–6 giờ nếu cần; tối đa 4 g/ngày.")
IBU_CHILD = chunk("ibuprofen__lieu_luong_cach_dung__2",
                  "*Uống – Trẻ em:* 5–10 mg/kg/lần, mỗi 6–8 giờ; tối đa 40 mg/kg/ngày.")
PARA_INDICATION = chunk("paracetamol__chi_dinh__0", "Hạ sốt ở người lớn và trẻ em.")
IBU_INDICATION = chunk("ibuprofen__chi_dinh__0", "Hạ sốt, giảm đau nhẹ và vừa.")
AMOX_INDICATION = chunk("amoxicilin__chi_dinh__0", "Nhiễm khuẩn đường hô hấp trên.")
NOT_RETRIEVED = "paracetamol__lieu_luong_cach_dung__9"

EVIDENCE = [PARA_CHILD, PARA_ADULT, IBU_CHILD]
FAITHFUL_WEIGHT_RULE = "Liều theo cân nặng: 10–15 mg/kg/lần, mỗi 4–6 giờ; tối đa 60 mg/kg/ngày."


def _answer(*claims: Claim, preamble: str = "") -> Answer:
    return Answer(claims=list(claims), generator="test", preamble=preamble)


def _single(text: str, *citations: str) -> Answer:
    return _answer(Claim(text=text, citations=list(citations or [PARA_CHILD.doc_id])))


def test_a_faithful_paediatric_answer_is_accepted() -> None:
    answer = _answer(
        Claim(text="Trẻ 4–6 tuổi: 240 mg/lần.", citations=[PARA_CHILD.doc_id]),
        Claim(text=FAITHFUL_WEIGHT_RULE, citations=[PARA_CHILD.doc_id]),
    )
    assert verify_grounding(answer, EVIDENCE).ok


def test_a_faithful_answer_may_write_the_same_quantity_in_other_units() -> None:
    answer = _single("Người lớn: 500–1 000 mg/lần, tối đa 4 000 mg/ngày.", PARA_ADULT.doc_id)
    assert verify_grounding(answer, EVIDENCE).ok


def test_a_single_value_at_a_stated_range_end_is_accepted() -> None:
    assert verify_grounding(_single("Liều tối đa mỗi lần theo cân nặng là 15 mg/kg/lần."), EVIDENCE).ok


def test_a_changed_dose_is_rejected() -> None:
    result = verify_grounding(_single("Trẻ 4–6 tuổi: 250 mg/lần."), EVIDENCE)
    assert not result.ok
    assert any("250 mg/lan" in p and "numeric grounding" in p for p in result.problems)


def test_a_dose_the_answer_computed_is_rejected() -> None:
    # 18 kg × 15 mg/kg = 270 mg: arithmetic the block never states.
    result = verify_grounding(_single("Với trẻ 18 kg: 270 mg/lần."), EVIDENCE)
    assert not result.ok
    assert any("270" in p for p in result.problems)


def test_a_dose_from_another_drugs_block_cited_under_this_block_is_rejected() -> None:
    result = verify_grounding(_single("Liều theo cân nặng: 5–10 mg/kg/lần, mỗi 6–8 giờ."), EVIDENCE)
    assert not result.ok
    assert any("5–10 mg/kg/lan" in p for p in result.problems)


def test_the_same_dose_citing_its_own_drugs_block_is_accepted() -> None:
    answer = _single("Liều theo cân nặng: 5–10 mg/kg/lần, mỗi 6–8 giờ.", IBU_CHILD.doc_id)
    assert verify_grounding(answer, EVIDENCE).ok


def test_a_unit_swapped_from_mg_per_kg_to_mg_is_rejected() -> None:
    assert not verify_grounding(_single("Liều theo cân nặng: 10–15 mg/lần."), EVIDENCE).ok


def test_a_unit_swapped_from_mg_to_mg_per_kg_is_rejected() -> None:
    assert not verify_grounding(_single("Trẻ 4–6 tuổi: 240 mg/kg/lần."), EVIDENCE).ok


def test_a_daily_maximum_turned_into_a_per_dose_maximum_is_rejected() -> None:
    assert not verify_grounding(_single("Tối đa 60 mg/kg/lần."), EVIDENCE).ok


def test_a_widened_range_is_rejected() -> None:
    result = verify_grounding(_single("Liều theo cân nặng: 10–20 mg/kg/lần."), EVIDENCE)
    assert not result.ok
    assert any("range" in p for p in result.problems)


def test_a_widened_age_band_is_rejected() -> None:
    assert not verify_grounding(_single("Trẻ 4–7 tuổi: 240 mg/lần."), EVIDENCE).ok


def test_a_citation_to_a_block_that_was_not_retrieved_is_rejected() -> None:
    result = verify_grounding(_single("Trẻ 4–6 tuổi: 240 mg/lần.", NOT_RETRIEVED), EVIDENCE)
    assert not result.ok
    assert any(NOT_RETRIEVED in p and "not retrieved" in p for p in result.problems)


def test_a_claim_citing_the_wrong_block_is_rejected() -> None:
    # The right text, cited to the adult block: its numbers are not there.
    assert not verify_grounding(_single(FAITHFUL_WEIGHT_RULE, PARA_ADULT.doc_id), EVIDENCE).ok


def test_a_claim_citing_nothing_is_rejected() -> None:
    result = verify_grounding(_answer(Claim(text="Hạ sốt ở người lớn và trẻ em.")), EVIDENCE)
    assert not result.ok
    assert any("cites no block" in p for p in result.problems)


def test_a_claim_citing_a_quarantined_block_is_rejected() -> None:
    table = chunk("warfarin__tuong_tac_thuoc__0", "| Thuốc | Mức độ |", quarantined=True)
    answer = _answer(Claim(text="Thuốc Mức độ", citations=[table.doc_id]))
    assert not verify_grounding(answer, [table]).ok


def test_an_answer_with_no_claims_is_rejected() -> None:
    result = verify_grounding(_answer(), EVIDENCE)
    assert not result.ok
    assert result.problems == ["answer has no claims (nothing to verify)"]


def test_a_preamble_with_a_number_is_rejected() -> None:
    answer = _answer(Claim(text="Trẻ 4–6 tuổi: 240 mg/lần.", citations=[PARA_CHILD.doc_id]),
                     preamble="Theo Dược thư 2018:")
    result = verify_grounding(answer, EVIDENCE)
    assert not result.ok
    assert any("preamble" in p for p in result.problems)


def test_a_bare_number_must_be_written_in_the_cited_block() -> None:
    assert verify_grounding(_single("Không quá 4 lần trong ngày."), EVIDENCE).ok
    assert not verify_grounding(_single("Không quá 5 lượt trong ngày."), EVIDENCE).ok


def test_problems_name_the_claim_and_the_check() -> None:
    answer = _answer(
        Claim(text="Trẻ 4–6 tuổi: 240 mg/lần.", citations=[PARA_CHILD.doc_id]),
        Claim(text="Tối đa 80 mg/kg/ngày.", citations=[PARA_CHILD.doc_id]),
    )
    (problem,) = verify_grounding(answer, EVIDENCE).problems
    assert problem.startswith("claim 1 «Tối đa 80 mg/kg/ngày.»")
    assert "numeric grounding" in problem


# ------------------------------------------------------------------------------------------ list mode

LIST_EVIDENCE = [PARA_INDICATION, IBU_INDICATION, AMOX_INDICATION]


def test_a_faithful_list_binding_each_candidate_to_its_block_is_accepted() -> None:
    answer = _answer(
        Claim(text="Paracetamol: Hạ sốt ở người lớn và trẻ em.", citations=[PARA_INDICATION.doc_id],
              drug_ids=["paracetamol"]),
        Claim(text="Ibuprofen: Hạ sốt, giảm đau nhẹ và vừa.", citations=[IBU_INDICATION.doc_id],
              drug_ids=["ibuprofen"]),
    )
    assert verify_grounding(answer, LIST_EVIDENCE, candidate_drug_ids=["paracetamol", "ibuprofen"]).ok


def test_a_list_naming_a_drug_outside_the_candidate_set_is_rejected() -> None:
    answer = _answer(
        Claim(text="Paracetamol: Hạ sốt ở người lớn và trẻ em.", citations=[PARA_INDICATION.doc_id],
              drug_ids=["paracetamol"]),
        Claim(text="Amoxicilin: Nhiễm khuẩn đường hô hấp trên.", citations=[AMOX_INDICATION.doc_id],
              drug_ids=["amoxicilin"]),
    )
    result = verify_grounding(answer, LIST_EVIDENCE, candidate_drug_ids=["paracetamol", "ibuprofen"])
    assert not result.ok
    assert any("amoxicilin" in p and "outside the candidate set" in p for p in result.problems)


def test_a_list_claim_naming_a_candidate_but_citing_another_drugs_block_is_rejected() -> None:
    answer = _answer(Claim(text="Ibuprofen: Hạ sốt ở người lớn và trẻ em.", citations=[PARA_INDICATION.doc_id],
                           drug_ids=["ibuprofen"]))
    result = verify_grounding(answer, LIST_EVIDENCE, candidate_drug_ids=["paracetamol", "ibuprofen"])
    assert not result.ok
    assert any("cites none of its blocks" in p for p in result.problems)


def test_outside_list_mode_drug_ids_are_not_bound() -> None:
    answer = _answer(Claim(text="Nhiễm khuẩn đường hô hấp trên.", citations=[AMOX_INDICATION.doc_id],
                           drug_ids=["amoxicilin"]))
    assert verify_grounding(answer, LIST_EVIDENCE).ok


# ------------------------------------------------------------------ list: a listed drug this patient must not take

ASPIRIN_INDICATION = chunk("acid_acetylsalicylic__chi_dinh__0", "Hạ sốt, giảm đau.")
ASPIRIN_CONTRA = chunk("acid_acetylsalicylic__chong_chi_dinh__0",
                       "Loét dạ dày tiến triển. Trẻ em dưới 16 tuổi, vì nguy cơ hội chứng Reye, trừ khi có chỉ định "
                       "đặc biệt như bệnh Kawasaki.")
ASPIRIN_EXCLUSION = ("Trẻ em dưới 16 tuổi, vì nguy cơ hội chứng Reye, trừ khi có chỉ định đặc biệt như bệnh "
                     "Kawasaki.")
FEVER = [PARA_INDICATION, ASPIRIN_INDICATION, ASPIRIN_CONTRA]
FEVER_CANDIDATES = ["paracetamol", "acid_acetylsalicylic"]


def _fever_list(*claims: Claim, **patient: object) -> tuple[Answer, GenerationRequest]:
    request = GenerationRequest(query="bé 3 tuổi bị sốt uống thuốc gì", evidence=FEVER, mode="list", condition="sốt",
                                candidate_drug_ids=FEVER_CANDIDATES, **patient)  # type: ignore[arg-type]
    return _answer(*claims), request


LISTED = (Claim(text="Paracetamol: hạ sốt ở người lớn và trẻ em.", citations=[PARA_INDICATION.doc_id],
                drug_ids=["paracetamol"]),
          Claim(text="Aspirin: hạ sốt, giảm đau.", citations=[ASPIRIN_INDICATION.doc_id],
                drug_ids=["acid_acetylsalicylic"]))


def test_a_list_naming_aspirin_for_a_three_year_old_without_its_exclusion_reports_the_exclusion_as_omitted() -> None:
    # Safety (#18): a model-written list that names aspirin for a small child's fever, silent on the book's
    # under-16 exclusion, reads as "aspirin is an option". The sentence is an omission the repair step must add.
    answer, request = _fever_list(*LISTED, population="pediatric", age_months=36, weight_kg=14)
    result = verify_grounding(answer, FEVER, candidate_drug_ids=FEVER_CANDIDATES, request=request)
    assert result.omissions == [ASPIRIN_EXCLUSION]
    assert not any("Loét" in o for o in result.omissions)  # the block's other contraindication is not this child's


def test_a_list_that_quotes_the_exclusion_beside_aspirin_has_no_omission() -> None:
    quoted = Claim(text=f"Aspirin — ⚠ {ASPIRIN_EXCLUSION}", citations=[ASPIRIN_CONTRA.doc_id],
                   drug_ids=["acid_acetylsalicylic"])
    answer, request = _fever_list(*LISTED, quoted, population="pediatric", age_months=36, weight_kg=14)
    result = verify_grounding(answer, FEVER, candidate_drug_ids=FEVER_CANDIDATES, request=request)
    assert result.ok and result.omissions == []


def test_an_adult_or_a_list_without_aspirin_owes_no_exclusion() -> None:
    answer, adult = _fever_list(*LISTED, population="adult")
    assert verify_grounding(answer, FEVER, candidate_drug_ids=FEVER_CANDIDATES, request=adult).omissions == []
    only_para, child = _fever_list(LISTED[0], population="pediatric", age_months=36, weight_kg=14)
    assert verify_grounding(only_para, FEVER, candidate_drug_ids=FEVER_CANDIDATES, request=child).omissions == []


def _cough_list_for_a_one_year_old() -> tuple[Chunk, Chunk, list[Chunk], GenerationRequest]:
    """A cough list for a 1-year-old whose one candidate's dosage section excludes children under 2."""
    indication = chunk("dextromethorphan__chi_dinh__0", "Giảm ho khan.")
    dosage = chunk("dextromethorphan__lieu_luong_cach_dung__0",
                   "*Uống – Trẻ em:*\n- Trẻ 6–12 tuổi: 15 mg/lần, mỗi 6–8 giờ.\n- Không dùng cho trẻ dưới 2 tuổi.")
    evidence = [indication, dosage]
    request = GenerationRequest(query="q", evidence=evidence, mode="list", condition="ho", population="pediatric",
                                age_months=12, weight_kg=9, candidate_drug_ids=["dextromethorphan"])
    return indication, dosage, evidence, request


def test_a_list_naming_a_drug_for_a_child_its_dosage_section_excludes_reports_that_line_as_omitted() -> None:
    indication, dosage, evidence, request = _cough_list_for_a_one_year_old()
    answer = _answer(Claim(text="Dextromethorphan: giảm ho khan.", citations=[indication.doc_id],
                           drug_ids=["dextromethorphan"]))
    omissions = verify_grounding(answer, evidence, candidate_drug_ids=["dextromethorphan"], request=request).omissions
    assert len(omissions) == 1 and "Không dùng cho trẻ dưới 2 tuổi" in omissions[0]


def test_a_list_that_quotes_a_dose_from_a_dosage_block_it_was_given_for_an_exclusion_is_rejected() -> None:
    # The dosage section comes with a child's list only for its exclusion line; a model quoting the dose beside it
    # would give a child a dose outside the dose path (no band check, no ceiling): a grounding problem, not an answer.
    indication, dosage, evidence, request = _cough_list_for_a_one_year_old()
    listed = Claim(text="Dextromethorphan: giảm ho khan.", citations=[indication.doc_id], drug_ids=["dextromethorphan"])
    excluded = Claim(text="Không dùng cho trẻ dưới 2 tuổi.", citations=[dosage.doc_id], drug_ids=["dextromethorphan"])
    dose = Claim(text="Trẻ 6–12 tuổi: 15 mg/lần, mỗi 6–8 giờ.", citations=[dosage.doc_id],
                 drug_ids=["dextromethorphan"])
    ok = verify_grounding(_answer(listed, excluded), evidence, candidate_drug_ids=["dextromethorphan"],
                          request=request)
    assert ok.ok and ok.omissions == []
    bad = verify_grounding(_answer(listed, excluded, dose), evidence, candidate_drug_ids=["dextromethorphan"],
                           request=request)
    assert not bad.ok and any("dose" in p for p in bad.problems)
