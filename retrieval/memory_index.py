"""An in-process FormularyIndex over a list of chunks, for unit tests of the machine (no vendor engine).

Keyword scoring is plain term overlap on folded text; the embedded default is Qdrant Edge (BM25).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.corpus import Chunk, DrugNames, ScoredChunk
from core.errors import IndexUnavailable
from core.sections import BOOK_ORDER
from core.text import fold


def _book_key(c: Chunk) -> tuple[int, int]:
    return BOOK_ORDER.get(c.section_key, 99), int(c.doc_id.rsplit("__", 1)[-1])


def _tokens(text: str) -> list[str]:
    return re.findall(r"\w+", fold(text))


class MemoryIndex:
    def __init__(self, chunks: Sequence[Chunk], names: Sequence[DrugNames], *, synthetic: bool = True) -> None:
        self._chunks = sorted(chunks, key=lambda c: (c.drug_id, *_book_key(c)))
        self._names = list(names)
        self._synthetic = synthetic
        self.available = True

    def _check(self) -> None:
        if not self.available:
            raise IndexUnavailable("memory index switched off")

    def find_by_section(self, drug_id: str, section_key: str) -> list[Chunk]:
        self._check()
        return [c for c in self._chunks if c.drug_id == drug_id and c.section_key == section_key]

    def find_by_drug(self, drug_id: str) -> list[Chunk]:
        self._check()
        return [c for c in self._chunks if c.drug_id == drug_id]

    def search_text(self, query: str, *, section_keys: Sequence[str] | None = None, limit: int = 10) -> list[ScoredChunk]:
        self._check()
        terms = set(_tokens(query))
        scored = []
        for c in self._chunks:
            if section_keys and c.section_key not in section_keys:
                continue
            overlap = len(terms & set(_tokens(c.text)))
            if overlap:
                scored.append(ScoredChunk(chunk=c, score=float(overlap)))
        scored.sort(key=lambda s: -s.score)
        return scored[:limit]

    def search_dense(self, vector: Sequence[float], *, section_keys: Sequence[str] | None = None,
                     limit: int = 10) -> list[ScoredChunk]:
        """No dense vectors here: the dense path finds nothing, as in an index built without an embedder."""
        self._check()
        return []

    def dense_embedder_name(self) -> str | None:
        return None

    def drug_names(self) -> list[DrugNames]:
        return list(self._names)

    def is_synthetic(self) -> bool:
        return self._synthetic

    def count(self) -> int:
        return len(self._chunks)

    def close(self) -> None:
        return None
