"""Deterministic BM25-style sparse vectors for the Qdrant server adapter.

qdrant-client's own BM25 (`models.Document(model="Qdrant/bm25")`) needs fastembed to download a model,
which an offline deployment cannot do. So documents and queries are embedded here, the same way on
both sides: folded tokens (no diacritics, so "tăng huyết áp" and "tang huyet ap" meet), hashed to
31-bit indices, documents weighted by BM25's saturated term frequency, queries 1.0 per unique token;
the collection's IDF modifier supplies the inverse document frequency.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from collections.abc import Iterable

from core.text import fold

K1 = 1.2
B = 0.75
DEFAULT_AVG_LEN = 120.0
_TOKEN = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(fold(text))


def _index(token: str) -> int:
    return zlib.crc32(token.encode("utf-8")) & 0x7FFFFFFF


def average_length(texts: Iterable[str]) -> float:
    lengths = [len(tokens(t)) for t in texts]
    return (sum(lengths) / len(lengths)) if lengths and sum(lengths) else DEFAULT_AVG_LEN


def _merge(weights: dict[int, float]) -> tuple[list[int], list[float]]:
    indices = sorted(weights)
    return indices, [weights[i] for i in indices]


def embed_document(text: str, avg_len: float = DEFAULT_AVG_LEN) -> tuple[list[int], list[float]]:
    toks = tokens(text)
    norm = K1 * (1 - B + B * len(toks) / max(avg_len, 1.0))
    weights: dict[int, float] = {}
    for token, tf in Counter(toks).items():
        # Hash collisions (rare at 31 bits) add up rather than overwrite.
        idx = _index(token)
        weights[idx] = weights.get(idx, 0.0) + tf * (K1 + 1) / (tf + norm)
    return _merge(weights)


def embed_query(text: str) -> tuple[list[int], list[float]]:
    return _merge({_index(t): 1.0 for t in set(tokens(text))})
