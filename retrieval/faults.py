"""A fault-injecting wrapper around any FormularyIndex, shipped for tests of the engine's fail paths.

    index = FaultyIndex(EdgeIndex.open(path))
    index.fail()            # every lookup raises IndexUnavailable until heal()
    index.fail(times=1)     # only the next lookup fails

Only the per-turn lookups fail (find_by_section, find_by_drug, search_text, search_dense); the name table and
embedder name read at start-up and `close` always reach the inner index.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from core.corpus import Chunk, DrugNames, ScoredChunk
from core.errors import IndexUnavailable
from retrieval.index import FormularyIndex

ALWAYS = -1


class FaultyIndex:
    def __init__(self, inner: FormularyIndex) -> None:
        self.inner = inner
        self._lock = threading.Lock()
        self._remaining = 0
        self.injected = 0

    def fail(self, times: int | None = None) -> None:
        """Fail the next `times` lookups, or every lookup when `times` is None."""
        with self._lock:
            self._remaining = ALWAYS if times is None else max(times, 0)

    def heal(self) -> None:
        with self._lock:
            self._remaining = 0

    def _check(self, what: str) -> None:
        with self._lock:
            if self._remaining == 0:
                return
            if self._remaining > 0:
                self._remaining -= 1
            self.injected += 1
        raise IndexUnavailable(f"injected fault: formulary index {what} failed")

    def find_by_section(self, drug_id: str, section_key: str) -> list[Chunk]:
        self._check("find_by_section")
        return self.inner.find_by_section(drug_id, section_key)

    def find_by_drug(self, drug_id: str) -> list[Chunk]:
        self._check("find_by_drug")
        return self.inner.find_by_drug(drug_id)

    def search_text(self, query: str, *, section_keys: Sequence[str] | None = None, limit: int = 10) -> list[ScoredChunk]:
        self._check("search_text")
        return self.inner.search_text(query, section_keys=section_keys, limit=limit)

    def search_dense(self, vector: Sequence[float], *, section_keys: Sequence[str] | None = None,
                     limit: int = 10) -> list[ScoredChunk]:
        self._check("search_dense")
        return self.inner.search_dense(vector, section_keys=section_keys, limit=limit)

    def dense_embedder_name(self) -> str | None:
        return self.inner.dense_embedder_name()

    def drug_names(self) -> list[DrugNames]:
        return self.inner.drug_names()

    def is_synthetic(self) -> bool:
        return self.inner.is_synthetic()

    def count(self) -> int:
        return self.inner.count()

    def close(self) -> None:
        self.inner.close()
