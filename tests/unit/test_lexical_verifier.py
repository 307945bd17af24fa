"""The offline entailment check: claims stated by their blocks pass; others are named; max-dose omissions drive repair."""

from __future__ import annotations

from core.budget import RequestBudget
from grounding.answer import Answer, Claim, EntailmentResult
from grounding.lexical import LexicalVerifier, content_words
from tests.unit.grounding_fixtures import chunk

CHILD_ORAL = chunk(
    "paracetamol__lieu_luong_cach_dung__2",
    "*Uống – Trẻ em:* Liều theo tuổi, mỗi 4–6 giờ một lần, không quá 4 lần trong 24 giờ:\n"
    "- Trẻ 4–6 tuổi: 240 mg/lần.\n"
    "Liều theo cân nặng: 10–15 mg/kg/lần, mỗi 4–6 giờ; tối đa 60 mg/kg/ngày.",
)
CHILD_IV = chunk(
    "paracetamol__lieu_luong_cach_dung__4",
    "*Truyền tĩnh mạch – Trẻ em:* Liều theo cân nặng, truyền trong 15 phút:\n"
    "- Trẻ dưới 10 kg: 10 mg/kg/lần; tối đa 30 mg/kg/ngày.\n"
    "- Trẻ 10–50 kg: 15 mg/kg/lần; tối đa 60 mg/kg/ngày.",
)
CONTRA = chunk("paracetamol__chong_chi_dinh__0",
               "Người bệnh suy gan nặng. Người bệnh thiếu hụt G6PD. Không dùng quá 4 g/ngày.")
WARFARIN = chunk("warfarin__tuong_tac_thuoc__0", "Aspirin: tăng nguy cơ chảy máu do ức chế kết tập tiểu cầu.",
                 title="WARFARIN")
EVIDENCE = [CHILD_ORAL, CHILD_IV, CONTRA, WARFARIN]
HEADER = "Uống – Trẻ em: Liều theo tuổi, mỗi 4–6 giờ một lần, không quá 4 lần trong 24 giờ:"
WEIGHT_RULE = "Liều theo cân nặng: 10–15 mg/kg/lần, mỗi 4–6 giờ; tối đa 60 mg/kg/ngày."


def _verify(*claims: Claim) -> EntailmentResult:
    return LexicalVerifier().verify(Answer(claims=list(claims)), EVIDENCE, RequestBudget())


def _claim(text: str, doc_id: str) -> Claim:
    return Claim(text=text, citations=[doc_id])


def test_a_quoted_claim_is_entailed() -> None:
    result = _verify(_claim(HEADER, CHILD_ORAL.doc_id), _claim("Trẻ 4–6 tuổi: 240 mg/lần.", CHILD_ORAL.doc_id),
                     _claim(WEIGHT_RULE, CHILD_ORAL.doc_id))
    assert result.ok and not result.rejected and not result.omissions


def test_a_light_paraphrase_with_the_blocks_words_is_entailed() -> None:
    assert _verify(_claim("Người bệnh thiếu hụt G6PD không dùng.", CONTRA.doc_id)).ok


def test_a_claim_saying_what_its_block_does_not_is_rejected_by_index() -> None:
    result = _verify(_claim("Người bệnh suy gan nặng.", CONTRA.doc_id),
                     _claim("Dùng an toàn cho phụ nữ mang thai và trẻ sơ sinh.", CONTRA.doc_id))
    assert result.rejected == [1]
    assert not result.ok and "claim 1" in result.problems[0]


def test_a_claim_citing_the_wrong_block_is_rejected_even_without_numbers() -> None:
    result = _verify(_claim("Aspirin: tăng nguy cơ chảy máu do ức chế kết tập tiểu cầu.", CONTRA.doc_id))
    assert result.rejected == [0]


def test_a_list_claim_may_name_the_drug_whose_block_it_cites() -> None:
    assert _verify(_claim("Warfarin — Aspirin: tăng nguy cơ chảy máu.", WARFARIN.doc_id)).ok


def test_a_claim_with_a_number_its_block_does_not_state_is_rejected() -> None:
    result = _verify(_claim("Không dùng quá 3 g/ngày.", CONTRA.doc_id))
    assert result.rejected == [0]


def test_a_claim_citing_an_unretrieved_block_is_rejected() -> None:
    assert _verify(_claim("Người bệnh suy gan nặng.", "paracetamol__chong_chi_dinh__9")).rejected == [0]


def test_a_dosing_answer_leaving_out_the_blocks_maximum_dose_reports_it_as_an_omission() -> None:
    result = _verify(_claim(HEADER, CHILD_ORAL.doc_id), _claim("Trẻ 4–6 tuổi: 240 mg/lần.", CHILD_ORAL.doc_id))
    assert result.omissions == [WEIGHT_RULE]
    assert not result.ok and not result.rejected
    assert any("completeness" in p for p in result.problems)


def test_another_weight_bands_maximum_is_not_an_omission() -> None:
    result = _verify(_claim("Truyền tĩnh mạch – Trẻ em: Liều theo cân nặng, truyền trong 15 phút:", CHILD_IV.doc_id),
                     _claim("Trẻ 10–50 kg: 15 mg/kg/lần; tối đa 60 mg/kg/ngày.", CHILD_IV.doc_id))
    assert result.ok and result.omissions == []


def test_a_maximum_stated_in_other_words_is_not_an_omission() -> None:
    result = _verify(_claim(HEADER, CHILD_ORAL.doc_id),
                     _claim("Liều theo cân nặng 10–15 mg/kg/lần, tối đa 60 mg/kg/ngày.", CHILD_ORAL.doc_id))
    assert result.omissions == []


def test_a_non_dosing_answer_has_no_omissions() -> None:
    result = _verify(_claim("Người bệnh suy gan nặng.", CONTRA.doc_id))
    assert result.ok and result.omissions == []


def test_a_paragraph_the_answer_did_not_quote_is_not_searched_for_omissions() -> None:
    merged = chunk("paracetamol__lieu_luong_cach_dung__0",
                   "*Uống – Người lớn:* 500 mg – 1 g/lần; tối đa 4 g/ngày.\n\n" + CHILD_ORAL.text)
    answer = Answer(claims=[_claim(HEADER, merged.doc_id), _claim(WEIGHT_RULE, merged.doc_id)])
    result = LexicalVerifier().verify(answer, [merged], RequestBudget())
    assert result.ok and result.omissions == []


def test_content_words_drop_stopwords_and_fold_diacritics() -> None:
    assert content_words("Người bệnh suy gan nặng và trẻ em") == ["nguoi", "benh", "suy", "gan", "nang", "tre", "em"]


def test_the_lexical_verifier_calls_no_llm() -> None:
    assert (LexicalVerifier.name, LexicalVerifier.calls_llm) == ("lexical", False)
