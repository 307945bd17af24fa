"""What both index adapters store: chunk payloads, book order, and the manifest (names, synthetic flag)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, Field

from retrieval.chunking import chunk_monograph
from retrieval.corpus import Chunk, DrugNames, Monograph
from retrieval.errors import IndexUnavailable
from retrieval.monograph_names import names_of
from retrieval.sparse_bm25 import average_length

MANIFEST_FORMAT = 1
TEXT_VECTOR = "bm25"
"""Name of the sparse (BM25) vector in both adapters."""


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


def prepare(monographs: Sequence[Monograph]) -> tuple[list[Chunk], IndexManifest]:
    """Chunks in book order (monographs as given, sections as printed) and the manifest."""
    chunks = [c for m in monographs for c in chunk_monograph(m)]
    manifest = IndexManifest(
        synthetic=any(m.synthetic for m in monographs),
        monographs=len(monographs),
        chunks=len(chunks),
        avg_len=average_length(c.text for c in chunks),
        drugs=[names_of(m) for m in monographs],
    )
    return chunks, manifest


def chunk_payload(chunk: Chunk, seq: int) -> dict[str, Any]:
    """`seq` is the chunk's position in the corpus: sorting by it restores book order."""
    return {**chunk.model_dump(), "seq": seq, "kind": "chunk"}


def chunk_from_payload(payload: Mapping[str, Any] | None) -> Chunk:
    if not payload:
        raise IndexUnavailable("index point without payload")
    return Chunk.model_validate({k: v for k, v in payload.items() if k in Chunk.model_fields})


def in_book_order(payloads: Sequence[Mapping[str, Any] | None]) -> list[Chunk]:
    ordered = sorted((p for p in payloads if p), key=lambda p: int(p.get("seq", 0)))
    return [chunk_from_payload(p) for p in ordered]
