"""On the real extracted DTQG text (chunked as ingest chunks it), the offline answer to "this patient's dose" quotes
the patient's own band with its context path, passes verification bound to the patient, and carries no other
band's dose. Expectations written from the source text; skipped, saying so, when ../shared/realtext is absent."""

from __future__ import annotations

from core.budget import RequestBudget
from core.corpus import Chunk
from core.dosage.parse import parse_dosage
from grounding.answer import Answer, GenerationRequest
from grounding.dosing_select import section_tree
from grounding.extractive import ExtractiveGenerator
from grounding.lexical import LexicalVerifier
from grounding.verify import verify_grounding
from tests.unit.realtext import real_chunks

DOSING = "lieu_luong_cach_dung"


def _dosing(drug: str) -> list[Chunk]:
    return real_chunks(drug, DOSING)


def _answer(drug: str, **frame: object) -> tuple[Answer, GenerationRequest]:
    evidence = _dosing(drug)
    request = GenerationRequest(query=f"Liều {drug}", evidence=evidence, section_key=DOSING, drug_ids=[drug],
                                **frame)  # type: ignore[arg-type]
    answer = ExtractiveGenerator().generate(request, RequestBudget())
    result = verify_grounding(answer, evidence, request=request)
    assert result.ok, result.problems
    assert LexicalVerifier().verify(answer, evidence, RequestBudget()).ok
    return answer, request


def test_the_chunked_section_rejoins_into_the_same_tree_as_the_whole_section() -> None:
    chunks = _dosing("paracetamol")
    assert len(chunks) > 1 and all(c.continues for c in chunks[1:])
    whole = " ".join(c.text for c in chunks)
    rejoined = section_tree(chunks).tree
    assert [line.text for line in rejoined.lines] == [line.text for line in parse_dosage(whole).lines]


def test_a_four_month_old_gets_the_60_mg_oral_band_with_its_path() -> None:
    answer, _ = _answer("paracetamol", population="pediatric", age_months=4, weight_kg=6.5, route="oral")
    texts = [c.text for c in answer.claims]
    assert "Trẻ em › Đau, sốt › Uống: Trẻ em 3 - 6 tháng tuổi: 60 mg" in texts
    assert not any("120 mg" in t or "30 - 60 mg" in t or "1120 Paracetamol" in t for t in texts)


def test_a_14_year_old_gets_one_oral_band_not_the_rectal_or_post_operative_12_to_18_doses() -> None:
    answer, _ = _answer("paracetamol", population="pediatric", age_months=168, weight_kg=45, route="oral",
                        condition="sốt")
    texts = [c.text for c in answer.claims]
    assert any(t.endswith("Trẻ em 12 - 16 tuổi: 480 - 750 mg") for t in texts), texts
    assert not any("Trẻ em 12 - 18 tuổi" in t for t in texts)


def test_a_three_year_old_gets_the_ibuprofen_1_to_4_year_band() -> None:
    answer, _ = _answer("ibuprofen", population="pediatric", age_months=36, weight_kg=14, route="oral",
                        condition="sốt")
    texts = " ".join(c.text for c in answer.claims)
    assert "Trẻ 1 - 4 tuổi: 100 mg x 3 lần/ngày" in texts
    assert "150 mg x 3" not in texts and "50 mg x 3" not in texts.replace("150 mg x 3", "")


def test_a_20_kg_child_with_otitis_gets_the_ent_dose_not_lyme() -> None:
    answer, _ = _answer("amoxicillin", population="pediatric", age_months=60, weight_kg=20, route="oral",
                        condition="viêm tai giữa")
    texts = " ".join(c.text for c in answer.claims)
    assert "20 mg/kg/ngày cách 8 giờ/lần" in texts
    assert "Lyme" not in texts and "bệnh than" not in texts


def test_an_adult_gets_the_usual_amoxicillin_dose() -> None:
    answer, _ = _answer("amoxicillin", population="adult", route="oral", condition="viêm họng")
    assert any("250 mg cách 8 giờ/lần" in c.text for c in answer.claims)
