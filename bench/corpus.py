"""A 30,000-chunk corpus whose copied monographs carry names that look like real drug names.

`retrieval.synthetic.scaled_corpus` copies the fixture monographs until the corpus is large enough and
names each copy "Synthetic 0621". Digits in a drug name are numbers no formulary block states, so every
condition turn that listed a copy failed numeric grounding (`ungrounded_answer`) and a full turn at scale
measured the abstention path. Here each copy is renamed with an invented, pronounceable INN-like name
("Brevotazin", "Morelaxol"), chosen far from every real name so the resolver never confuses the two.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

from core.corpus import Monograph

_HEADS = ("Al", "Bre", "Cor", "Dal", "Fen", "Gar", "Hel", "Jor", "Kel", "Lun", "Mor", "Nev", "Ost", "Pel",
          "Quin", "Ros", "Sel", "Tor", "Ul", "Vel", "Xan", "Yor", "Zel")
_MIDDLES = ("a", "e", "i", "o", "u", "ava", "eno", "ira", "ola", "uve", "eti", "ami")
_TAILS = ("tazin", "laxol", "mivir", "tarol", "zepam", "nitan", "voxib", "quelin", "sulat", "bremid",
          "tovan", "rilat", "xetol", "dunex")
MIN_DISTANCE = 70.0
"""rapidfuzz ratio below which an invented name counts as unlike a real one (the resolver accepts ≥ 88)."""


@functools.cache
def invented_names() -> tuple[str, ...]:
    """Every invented name, in a fixed order (deterministic: the same corpus on every run)."""
    return tuple(h + m + t for t, m, h in itertools.product(_TAILS, _MIDDLES, _HEADS))


def realistic_scaled_corpus(monographs: Sequence[Monograph], target_chunks: int = 30_000) -> list[Monograph]:
    """The given monographs, then copies renamed with invented names until `target_chunks` chunks."""
    from rapidfuzz import fuzz

    from core.text import fold
    from retrieval.synthetic import scaled_corpus

    scaled = scaled_corpus(monographs, target_chunks)
    real = [fold(n) for m in monographs for n in (m.name, *m.aliases, *m.brands)]
    names = (n for n in invented_names() if all(fuzz.ratio(fold(n), r) < MIN_DISTANCE for r in real))
    out = list(monographs)
    for copy in scaled[len(monographs):]:
        name = next(names, None)
        if name is None:
            raise ValueError(f"not enough invented names for {len(scaled) - len(monographs)} copies")
        # The copy stays marked synthetic (replies say it is test data); its title is only its new name.
        out.append(copy.model_copy(update={"drug_id": fold(name).replace(" ", "_"), "title": name.upper(),
                                           "name": name}))
    return out
