"""Retrieval queries over a FormularyIndex: the three lookups the paths use."""

from __future__ import annotations

from collections.abc import Sequence

from retrieval.corpus import Chunk, ScoredChunk
from retrieval.index import FormularyIndex
from retrieval.names import NameBook
from retrieval.sections import BOOK_ORDER, IDENTITY_SECTIONS


class RetrievalService:
    def __init__(self, index: FormularyIndex) -> None:
        self.index = index
        self.names = NameBook(index.drug_names())

    def display_name(self, drug_id: str) -> str:
        return self.names.display(drug_id)

    def find_by_section(self, drug_id: str, section_key: str) -> list[Chunk]:
        """The dominant path: an exact payload filter on (drug_id, section_key), in book order."""
        return self.index.find_by_section(drug_id, section_key)

    def find_by_drug(self, drug_id: str, query: str | None = None, limit: int = 8) -> list[Chunk]:
        """The whole monograph in book order; trimmed to identity sections for a bare name,
        reranked by keyword relevance for a free-form question."""
        chunks = self.index.find_by_drug(drug_id)
        if not query:
            ident = [c for c in chunks if c.section_key in IDENTITY_SECTIONS]
            return sorted(ident, key=lambda c: (BOOK_ORDER.get(c.section_key, 99), c.doc_id))[:limit]
        hits = self.index.search_text(query, limit=50)
        ranked = [h.chunk for h in hits if h.chunk.drug_id == drug_id]
        if not ranked:
            return chunks[:limit]
        return ranked[:limit]

    def retrieve_by_indication(self, condition: str, limit: int = 12) -> list[ScoredChunk]:
        """Keyword (BM25) search over `chi_dinh` chunks; a dense fallback only when an embedder is configured."""
        return self.index.search_text(condition, section_keys=["chi_dinh"], limit=limit)

    def hybrid_search(self, query: str, section_keys: Sequence[str] | None = None, limit: int = 10) -> list[ScoredChunk]:
        return self.index.search_text(query, section_keys=section_keys, limit=limit)
