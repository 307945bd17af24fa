"""Each monograph's section texts, read once per index: what a free-form question is ranked against.

Understanding a turn must not touch the index — an index outage is met by the retrieval steps, which turn it into
`abstain/index_unavailable`; a read during understanding would instead fail the turn some other way. So the texts
are read when the retrieval service is built, like the name book, and kept for as long as that index object
lives (a new index — a new ingest — gets its own snapshot). Engines built over the same index share one snapshot.
Quarantined chunks are left out: a question is never steered towards a block nobody may quote.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Sequence

from core.corpus import DrugNames
from core.errors import IndexUnavailable
from retrieval.index import FormularyIndex

SectionTexts = dict[str, dict[str, str]]
_SNAPSHOTS: weakref.WeakKeyDictionary[FormularyIndex, SectionTexts] = weakref.WeakKeyDictionary()


def _read(index: FormularyIndex, names: Sequence[DrugNames]) -> SectionTexts:
    texts: SectionTexts = {}
    for entry in names:
        sections: dict[str, str] = {}
        for chunk in index.find_by_drug(entry.drug_id):
            if not chunk.has_quarantined_content:
                # Joined by a line break: a chunk opening with a label ("*Uống – Trẻ em:*") keeps it at a line's
                # start, where the dosage parser reads labels (run into the chunk before, the children's lines were
                # read under the adults' label).
                sections[chunk.section_key] = f"{sections.get(chunk.section_key, '')}\n{chunk.text}".strip()
        texts[entry.drug_id] = sections
    return texts


def section_snapshot(index: FormularyIndex, names: Sequence[DrugNames]) -> Callable[[str], dict[str, str]]:
    """drug id → {section key: text}, from a snapshot of `index` taken now (or earlier for the same index). When
    the index cannot serve at this moment, every drug has no sections: free-form questions are then asked about,
    never answered by guess, and the next service built over the index tries again."""
    try:
        snapshot = _SNAPSHOTS[index]
    except (KeyError, TypeError):
        try:
            snapshot = _read(index, names)
        except IndexUnavailable:
            return lambda drug_id: {}
        with contextlib.suppress(TypeError):  # an index that cannot be weakly referenced: the service keeps it
            _SNAPSHOTS[index] = snapshot
    return lambda drug_id: snapshot.get(drug_id, {})
