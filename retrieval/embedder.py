"""Dense embedders for the optional dense retrieval path (`EMBEDDER`; none by default).

`TrigramEmbedder` is the one shipped implementation: deterministic and offline, a *lexical*-dense fallback.
It hashes character trigrams of the folded text into a fixed number of buckets, so it bridges typos and
run-together words ("tanghuyetap" ~ "tăng huyết áp") that BM25's word tokens cannot; it knows nothing of
meaning (it will not map "cao huyết áp" to "tăng huyết áp" any better than their shared letters allow).
A semantic model plugs in through the same `DenseEmbedder` protocol.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from core.errors import ConfigurationError
from core.text import fold


@runtime_checkable
class DenseEmbedder(Protocol):
    name: str
    """Stored in the index manifest: an index is only queried with the embedder that built it."""
    dim: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector of length `dim` per text."""
        ...


def _trigrams(text: str) -> list[str]:
    padded = f" {text} "
    return [padded[i:i + 3] for i in range(len(padded) - 2)]


class TrigramEmbedder:
    """Character trigrams of the folded text, with spaces kept and with spaces removed, hashed into `dim`
    buckets and L2-normalised. The space-free trigrams are what make "tanghuyetap" land near "tăng huyết áp"."""

    def __init__(self, dim: int = 256) -> None:
        if dim < 8:
            raise ConfigurationError(f"TrigramEmbedder dim must be at least 8, got {dim}")
        self.dim = dim
        self.name = f"trigram-v1-{dim}"

    def _bucket(self, gram: str) -> int:
        # blake2b, not hash(): Python's string hash is salted per process, so vectors would differ across runs.
        digest = hashlib.blake2b(gram.encode("utf-8"), digest_size=8).digest()
        return int.from_bytes(digest, "big") % self.dim

    def embed_one(self, text: str) -> list[float]:
        folded = fold(text)
        vector = [0.0] * self.dim
        for gram in _trigrams(folded) + _trigrams(folded.replace(" ", "")):
            vector[self._bucket(gram)] += 1.0
        norm = math.sqrt(sum(v * v for v in vector))
        return [v / norm for v in vector] if norm else vector

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.embed_one(t) for t in texts]


EMBEDDERS = ("none", "trigram")


def make_embedder(name: str | None) -> DenseEmbedder | None:
    """The embedder an `EMBEDDER` setting names; None for "none" (the default: BM25 only)."""
    if not name or name == "none":
        return None
    if name == "trigram":
        return TrigramEmbedder()
    raise ConfigurationError(f"unknown EMBEDDER {name!r}; use one of {', '.join(EMBEDDERS)}")


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (1.0 for identical directions; 0.0 when either is zero)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0
