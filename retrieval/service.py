"""Retrieval queries over a FormularyIndex: the three lookups the paths use."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from retrieval.corpus import Chunk, ScoredChunk
from retrieval.index import FormularyIndex
from retrieval.names import NameBook
from retrieval.sections import BOOK_ORDER, IDENTITY_SECTIONS
from retrieval.sparse_bm25 import tokens


def rerank(chunks: Sequence[Chunk], query: str) -> list[Chunk]:
    """The chunks that share words with the question, best first (ties keep book order).

    Scored within the one monograph (BM25-like, IDF over its own chunks) rather than by a global search,
    so a drug is never starved of hits by other drugs' text; words in every chunk (the drug's own name,
    "thuốc") weigh nothing.
    """
    terms = set(tokens(query))
    if not terms or not chunks:
        return []
    docs = [Counter(tokens(c.text)) for c in chunks]
    n = len(docs)
    avg = sum(sum(d.values()) for d in docs) / n or 1.0
    df = {t: sum(1 for d in docs if t in d) for t in terms}
    scored: list[tuple[float, int]] = []
    for i, doc in enumerate(docs):
        length = sum(doc.values())
        score = 0.0
        for t in terms:
            tf = doc.get(t, 0)
            if tf:
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                score += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / avg))
        if score > 0:
            scored.append((score, i))
    scored.sort(key=lambda s: (-s[0], s[1]))
    return [chunks[i] for _, i in scored]


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
            return sorted(ident, key=lambda c: BOOK_ORDER.get(c.section_key, 99))[:limit]  # stable: book order within
        ranked = rerank(chunks, query)
        return ranked[:limit] if ranked else chunks[:limit]

    def retrieve_by_indication(self, condition: str, limit: int = 12) -> list[ScoredChunk]:
        """Keyword (BM25) search over `chi_dinh` chunks; a dense fallback only when an embedder is configured."""
        return self.index.search_text(condition, section_keys=["chi_dinh"], limit=limit)

    def hybrid_search(self, query: str, section_keys: Sequence[str] | None = None, limit: int = 10) -> list[ScoredChunk]:
        return self.index.search_text(query, section_keys=section_keys, limit=limit)
