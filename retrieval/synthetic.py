"""A scaled synthetic corpus for the 30,000-chunk benchmark: the fixture plus renamed copies of it.

Copies get drug ids `synthetic_0001`, `synthetic_0002`, … and titles naming the monograph they copy;
they carry no aliases or brands, so a resolver over the scaled corpus still finds only the real names.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import cycle

from core.corpus import Monograph
from retrieval.chunking import chunk_monograph


def scaled_corpus(monographs: Sequence[Monograph], target_chunks: int = 30_000) -> list[Monograph]:
    """The given monographs followed by renamed copies until the corpus has at least `target_chunks` chunks."""
    if not monographs:
        raise ValueError("scaled_corpus needs at least one monograph to copy")
    sizes = {m.drug_id: len(chunk_monograph(m)) for m in monographs}
    if not any(sizes.values()):
        raise ValueError("the monographs to copy have no chunks")
    out = list(monographs)
    total = sum(sizes.values())
    for n, original in enumerate(cycle(monographs), start=1):
        if total >= target_chunks:
            break
        copy_id = f"synthetic_{n:04d}"
        out.append(original.model_copy(update={
            "drug_id": copy_id,
            "title": f"SYNTHETIC {n:04d} ({original.title})",
            "name": f"Synthetic {n:04d}",
            "aliases": [], "brands": [], "synthetic": True,
        }))
        total += sizes[original.drug_id]
    return out
