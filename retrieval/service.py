"""Retrieval queries over a FormularyIndex: the three lookups the paths use, plus hybrid search.

Dense retrieval is optional (`EMBEDDER`, none by default): without an embedder every query is exactly the
BM25 one. With one, `retrieve_by_indication` falls back to the dense query only when BM25 found no chunk
that states the condition, and `hybrid_search` fuses both result lists by reciprocal rank.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from core.corpus import Chunk, ScoredChunk
from core.errors import ConfigurationError
from core.sections import BOOK_ORDER, IDENTITY_SECTIONS
from core.text import states_phrase
from retrieval.embedder import DenseEmbedder
from retrieval.index import FormularyIndex
from retrieval.names import NameBook
from retrieval.section_texts import section_snapshot
from retrieval.sparse_bm25 import tokens

SECTION_CACHE_ENTRIES = 4096
"""(drug, section) lookups a service keeps (a whole 1,000-monograph book's common sections; chunks are frozen)."""

RRF_K = 60
"""Reciprocal-rank fusion constant (Cormack et al. 2009): a chunk's fused score is Σ 1/(k + rank)."""


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



def fuse(*ranked: Sequence[ScoredChunk], k: int = RRF_K) -> list[ScoredChunk]:
    """Reciprocal-rank fusion: each list adds 1/(k + rank) to a chunk's score; ties keep first-seen order."""
    scores: dict[str, float] = {}
    chunks: dict[str, Chunk] = {}
    for hits in ranked:
        for rank, hit in enumerate(hits, start=1):
            doc = hit.chunk.doc_id
            chunks.setdefault(doc, hit.chunk)
            scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + rank)
    order = sorted(scores, key=lambda d: -scores[d])  # sorted() is stable: first-seen order breaks ties
    return [ScoredChunk(chunk=chunks[d], score=scores[d], source="hybrid") for d in order]


def check_embedder(index: FormularyIndex, embedder: DenseEmbedder | None) -> None:
    """Start-up check: a configured embedder needs an index embedded with that same embedder.

    With none configured an index's dense vectors are simply not used (BM25 only, the default behaviour)."""
    if embedder is None:
        return
    built_with = index.dense_embedder_name()
    if built_with is None:
        raise ConfigurationError(f"EMBEDDER is set ({embedder.name}) but the formulary index has no dense vectors; "
                                 "re-ingest with EMBEDDER set (formulary-fsm ingest PATH...), or unset EMBEDDER")
    if built_with != embedder.name:
        raise ConfigurationError(f"the formulary index was embedded with {built_with}, but EMBEDDER gives "
                                 f"{embedder.name}; re-ingest with the EMBEDDER you mean to serve with")


class RetrievalService:
    def __init__(self, index: FormularyIndex, embedder: DenseEmbedder | None = None) -> None:
        check_embedder(index, embedder)
        self.index = index
        self.embedder = embedder
        names = index.drug_names()
        self.names = NameBook(names, section_texts=section_snapshot(index, names))
        # An index whose content cannot change (Qdrant Edge opened read-only: a swap opens a new index and a
        # new service) answers each (drug, section) lookup once; any other index (writable, or wrapped, e.g.
        # for fault injection) is asked every time.
        self._sections: dict[tuple[str, str], tuple[Chunk, ...]] | None = (
            {} if getattr(index, "immutable", False) is True else None)

    def display_name(self, drug_id: str) -> str:
        return self.names.display(drug_id)

    def find_by_section(self, drug_id: str, section_key: str) -> list[Chunk]:
        """The dominant path: an exact payload filter on (drug_id, section_key), in book order."""
        if self._sections is None:
            return self.index.find_by_section(drug_id, section_key)
        key = (drug_id, section_key)
        found = self._sections.get(key)
        if found is None:
            found = tuple(self.index.find_by_section(drug_id, section_key))
            if len(self._sections) >= SECTION_CACHE_ENTRIES:
                self._sections.clear()  # bounded; refilled by the next turns
            self._sections[key] = found
        return list(found)

    def find_by_drug(self, drug_id: str, query: str | None = None, limit: int = 8) -> list[Chunk]:
        """The whole monograph in book order; trimmed to identity sections for a bare name,
        reranked by keyword relevance for a free-form question."""
        chunks = self.index.find_by_drug(drug_id)
        if not query:
            ident = [c for c in chunks if c.section_key in IDENTITY_SECTIONS]
            return sorted(ident, key=lambda c: BOOK_ORDER.get(c.section_key, 99))[:limit]  # stable: book order within
        ranked = rerank(chunks, query)
        return ranked[:limit] if ranked else chunks[:limit]

    def _dense(self, query: str, section_keys: Sequence[str] | None, limit: int) -> list[ScoredChunk]:
        if self.embedder is None:
            return []
        vector = self.embedder.embed([query])[0]
        hits = self.index.search_dense(vector, section_keys=section_keys, limit=limit)
        return [h.model_copy(update={"source": "dense"}) for h in hits]

    def retrieve_by_indication(self, condition: str, limit: int = 12) -> list[ScoredChunk]:
        """Keyword (BM25) search over `chi_dinh` chunks. Only when no BM25 hit states the condition and an
        embedder is configured, the dense query's hits instead (marked source="dense"; callers must still
        check each one states the condition, fuzzily: the dense path ranks everything)."""
        hits = self.index.search_text(condition, section_keys=["chi_dinh"], limit=limit)
        if self.embedder is None or any(states_phrase(h.chunk.text, condition) for h in hits):
            return hits
        return self._dense(condition, ["chi_dinh"], limit)

    def hybrid_search(self, query: str, section_keys: Sequence[str] | None = None, limit: int = 10) -> list[ScoredChunk]:
        """BM25; with an embedder, reciprocal-rank fusion of the BM25 and dense lists (each `limit` long)."""
        bm25 = self.index.search_text(query, section_keys=section_keys, limit=limit)
        if self.embedder is None:
            return bm25
        return fuse(bm25, self._dense(query, section_keys, limit))[:limit]
