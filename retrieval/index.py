"""The formulary index protocol. Adapters: Qdrant Edge (embedded default) and Qdrant server."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from core.corpus import Chunk, DrugNames, ScoredChunk


@runtime_checkable
class FormularyIndex(Protocol):
    def find_by_section(self, drug_id: str, section_key: str) -> list[Chunk]:
        """Every chunk of one section of one drug, in book order (an exact payload-filtered lookup)."""
        ...

    def find_by_drug(self, drug_id: str) -> list[Chunk]:
        """The whole monograph, in book order."""
        ...

    def search_text(self, query: str, *, section_keys: Sequence[str] | None = None, limit: int = 10) -> list[ScoredChunk]:
        """BM25 keyword search, optionally limited to some section keys."""
        ...

    def search_dense(self, vector: Sequence[float], *, section_keys: Sequence[str] | None = None,
                     limit: int = 10) -> list[ScoredChunk]:
        """Cosine search on the chunks' dense vectors; [] when the index was built without an embedder."""
        ...

    def dense_embedder_name(self) -> str | None:
        """The embedder the index's dense vectors came from; None when it has none."""
        ...

    def drug_names(self) -> list[DrugNames]:
        """Every drug with its names, for the resolver."""
        ...

    def is_synthetic(self) -> bool:
        """True when the indexed corpus is synthetic test data (the fixture)."""
        ...

    def count(self) -> int:
        ...

    def close(self) -> None:
        ...
