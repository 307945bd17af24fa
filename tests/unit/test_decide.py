"""The deterministic evidence decision the machine's evidence guards read."""

from __future__ import annotations

from core.corpus import Chunk
from retrieval.decide import Decision, decide


def _chunk(n: int, *, quarantined: bool = False, doc_id: str | None = None) -> Chunk:
    return Chunk(doc_id=doc_id if doc_id is not None else f"warfarin__tuong_tac_thuoc__{n}", drug_id="warfarin",
                 section_key="tuong_tac_thuoc", text="…", has_quarantined_content=quarantined)


def test_no_evidence_abstains() -> None:
    assert decide([]) is Decision.ABSTAIN


def test_evidence_without_provenance_abstains() -> None:
    assert decide([_chunk(0), _chunk(1, doc_id="")]) is Decision.ABSTAIN


def test_any_quarantined_chunk_forces_verify_pdf_for_the_whole_pool() -> None:
    assert decide([_chunk(0), _chunk(1, quarantined=True), _chunk(2)]) is Decision.VERIFY_PDF


def test_clean_evidence_is_answerable() -> None:
    assert decide([_chunk(0), _chunk(1)]) is Decision.ANSWERABLE
