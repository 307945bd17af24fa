"""What both index adapters store: chunk payloads, book order, and the manifest (names, synthetic flag)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, Field

from core.corpus import Chunk, DrugNames, Monograph
from core.errors import ConfigurationError, IndexUnavailable
from retrieval.chunking import chunk_monograph
from retrieval.embedder import DenseEmbedder
from retrieval.monograph_names import names_of
from retrieval.sparse_bm25 import average_length

MANIFEST_FORMAT = 1
TEXT_VECTOR = "bm25"
"""Name of the sparse (BM25) vector in both adapters."""
DENSE_VECTOR = "dense"
"""Name of the optional dense (cosine) vector, present only in an index built with an embedder."""


class IndexManifest(BaseModel):
    """Stored beside the points: what the resolver and the replies need without scanning the index."""

    format: int = MANIFEST_FORMAT
    synthetic: bool = False
    """True when any indexed monograph is synthetic test data: replies then say so."""
    monographs: int = 0
    chunks: int = 0
    avg_len: float = 0.0
    """Average document length in tokens (BM25 length normalisation)."""
    drugs: list[DrugNames] = Field(default_factory=list)
    embedder: str | None = None
    """Name of the dense embedder the chunks were embedded with; None when the index has no dense vectors."""
    embedder_dim: int | None = None


class ManifestReads:
    """What both adapters answer from the stored manifest alone (no query to the index)."""

    _manifest: IndexManifest

    def dense_embedder_name(self) -> str | None:
        return self._manifest.embedder

    def drug_names(self) -> list[DrugNames]:
        return list(self._manifest.drugs)

    def is_synthetic(self) -> bool:
        return self._manifest.synthetic


def prepare(monographs: Sequence[Monograph],
            embedder: DenseEmbedder | None = None) -> tuple[list[Chunk], IndexManifest]:
    """Chunks in book order (monographs as given, sections as printed) and the manifest."""
    chunks = [c for m in monographs for c in chunk_monograph(m)]
    manifest = IndexManifest(
        synthetic=any(m.synthetic for m in monographs),
        monographs=len(monographs),
        chunks=len(chunks),
        avg_len=average_length(c.text for c in chunks),
        drugs=[names_of(m) for m in monographs],
        embedder=embedder.name if embedder else None,
        embedder_dim=embedder.dim if embedder else None,
    )
    return chunks, manifest


def check_dense_query(manifest: IndexManifest, vector: Sequence[float], where: str) -> bool:
    """False when the index has no dense vectors (the query finds nothing); a vector of the wrong size is a
    configuration mistake (an embedder other than the one that built the index), reported as such."""
    if manifest.embedder is None:
        return False
    if len(vector) != manifest.embedder_dim:
        raise ConfigurationError(f"{where}: dense query of size {len(vector)}, but the index was built with "
                                 f"{manifest.embedder} (size {manifest.embedder_dim}); re-ingest with EMBEDDER set")
    return True


def dense_vectors(embedder: DenseEmbedder | None, chunks: Sequence[Chunk]) -> list[list[float]] | None:
    """One dense vector per chunk, or None when no embedder is configured."""
    if embedder is None:
        return None
    vectors = embedder.embed([c.text for c in chunks])
    if len(vectors) != len(chunks) or any(len(v) != embedder.dim for v in vectors):
        raise ConfigurationError(f"embedder {embedder.name} returned vectors of the wrong number or size")
    return vectors


def chunk_payload(chunk: Chunk, seq: int) -> dict[str, Any]:
    """`seq` is the chunk's position in the corpus: sorting by it restores book order."""
    return {**chunk.model_dump(), "seq": seq, "kind": "chunk"}


_CHUNK_FIELDS = tuple(Chunk.model_fields)
_CHUNKS: dict[tuple[Any, ...], Chunk] = {}
_CHUNK_CACHE_SIZE = 8192
"""Chunks already read, by their whole payload: a condition query at 30,000 chunks reads ~100 hits per turn, the
same ones turn after turn, and validating each payload anew cost more than the search (bench `scale`). Chunk is
frozen, so one instance is shared safely; the key is every field, so two indexes with the same doc id but other
text never share one. Bounded: cleared when full (a few MB at most)."""


def chunk_from_payload(payload: Mapping[str, Any] | None) -> Chunk:
    if not payload:
        raise IndexUnavailable("index point without payload")
    key = tuple(payload.get(name) for name in _CHUNK_FIELDS)
    chunk = _CHUNKS.get(key)
    if chunk is None:
        chunk = Chunk.model_validate({k: v for k, v in payload.items() if k in _CHUNK_FIELDS})
        if len(_CHUNKS) >= _CHUNK_CACHE_SIZE:
            _CHUNKS.clear()
        _CHUNKS[key] = chunk
    return chunk


def in_book_order(payloads: Sequence[Mapping[str, Any] | None]) -> list[Chunk]:
    ordered = sorted((p for p in payloads if p), key=lambda p: int(p.get("seq", 0)))
    return [chunk_from_payload(p) for p in ordered]
