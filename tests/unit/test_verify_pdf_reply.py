"""The verify-in-the-PDF reply over the fixture formulary (synthetic): readable lines quoted, the table named."""

from __future__ import annotations

from core.corpus import Chunk
from retrieval.service import RetrievalService
from states.frame import QueryFrame
from states.paths import interaction_evidence, single_drug_evidence
from states.verify_pdf import QUARANTINED_QUOTE, compose_verify_pdf, readable_lines
from tests.unit.formulary_names import fixture_index, fixture_name_book

NAMES = fixture_name_book()


def _service() -> RetrievalService:
    return RetrievalService(fixture_index())


def _interaction(*drugs: str) -> tuple[QueryFrame, list[Chunk]]:
    frame = QueryFrame(turn_type="interaction", drugs=list(drugs), section_key="tuong_tac_thuoc")
    return frame, interaction_evidence(_service(), frame)


def test_warfarin_with_ciprofloxacin_quotes_both_readable_sections_then_names_the_table() -> None:
    frame, evidence = _interaction("warfarin", "ciprofloxacin")
    reply = compose_verify_pdf(evidence, frame, "interaction", NAMES)
    cipro_line = next(line for c in evidence if c.drug_id == "ciprofloxacin" for line in readable_lines(c)
                      if line.startswith("Warfarin:"))
    assert cipro_line in reply.text
    assert "Kháng sinh nhóm quinolon (ciprofloxacin)" in reply.text
    assert "trang 1452" in reply.text and "PDF" in reply.text
    assert reply.text.index(cipro_line) < reply.text.index("bảng chưa trích xuất được")
    cited = {chunk.doc_id: quote for chunk, quote in reply.quotes}
    assert any(d.startswith("ciprofloxacin__tuong_tac_thuoc") for d in cited)


def test_no_quarantined_table_text_ever_reaches_the_reply_or_a_citation() -> None:
    frame, evidence = _interaction("warfarin", "ciprofloxacin")
    table = next(c for c in evidence if c.has_quarantined_content)
    reply = compose_verify_pdf(evidence, frame, "interaction", NAMES)
    for row in table.text.splitlines():
        if len(row) > 12:
            assert row not in reply.text
    assert [q for c, q in reply.quotes if c.has_quarantined_content] == [QUARANTINED_QUOTE]


def test_every_quoted_line_is_verbatim_text_of_the_chunk_it_cites() -> None:
    frame, evidence = _interaction("warfarin", "fluconazol")
    reply = compose_verify_pdf(evidence, frame, "interaction", NAMES)
    readable = [(c, q) for c, q in reply.quotes if not c.has_quarantined_content]
    assert readable
    for chunk, quote in readable:
        assert all(line in chunk.text for line in quote.splitlines())


def test_lines_that_do_not_name_the_other_drug_are_not_quoted() -> None:
    frame, evidence = _interaction("warfarin", "ciprofloxacin")
    reply = compose_verify_pdf(evidence, frame, "interaction", NAMES)
    assert "Omeprazol" not in reply.text and "Aspirin (acid acetylsalicylic)" not in reply.text


def test_a_drug_the_readable_text_never_names_gets_the_table_notice_only() -> None:
    frame, evidence = _interaction("warfarin", "cetirizin")
    reply = compose_verify_pdf(evidence, frame, "interaction", NAMES)
    assert "không có dòng nào" in reply.text and "trang 1452" in reply.text
    assert all(c.has_quarantined_content for c, _ in reply.quotes)


def test_a_dosing_section_with_an_unreadable_table_quotes_no_dose() -> None:
    frame = QueryFrame(turn_type="dosing_calc", drugs=["digoxin"], section_key="lieu_luong_cach_dung",
                       population="adult")
    evidence, _ = single_drug_evidence(_service(), frame)
    reply = compose_verify_pdf(evidence, frame, "single_drug", NAMES)
    assert "0,125" not in reply.text and "mcg" not in reply.text
    assert "không trích liều" in reply.text


def test_an_exclusion_holding_the_patient_is_quoted_beside_an_unreadable_dosing_table() -> None:
    # Synthetic levetiracetam: "Không dùng cho trẻ dưới 1 tháng tuổi" in the readable part of a dosing paragraph
    # whose renal table failed. A 3-week-old is told the exclusion, and still no dose; an adult is told neither.
    newborn = QueryFrame(turn_type="dosing_calc", drugs=["levetiracetam"], section_key="lieu_luong_cach_dung",
                         population="pediatric", age_months=0.75, weight_kg=4.0)
    evidence, _ = single_drug_evidence(_service(), newborn)
    reply = compose_verify_pdf(evidence, newborn, "single_drug", NAMES)
    assert "Không dùng cho trẻ dưới 1 tháng tuổi" in reply.text
    assert "mg" not in reply.text
    adult = newborn.model_copy(update={"population": "adult", "age_months": None, "weight_kg": 60.0})
    evidence, _ = single_drug_evidence(_service(), adult)
    reply = compose_verify_pdf(evidence, adult, "single_drug", NAMES)
    assert "dưới 1 tháng" not in reply.text and "mg" not in reply.text


def test_markers_inside_a_readable_chunk_never_let_quarantined_text_through() -> None:
    chunk = Chunk(doc_id="x__tuong_tac_thuoc__0", drug_id="x", section_key="tuong_tac_thuoc",
                  text="Dòng đọc được.\n<!-- QUARANTINED: bảng -->\n| hỏng |\n<!-- /QUARANTINED -->\nDòng sau.")
    assert readable_lines(chunk) == ["Dòng đọc được.", "Dòng sau."]
