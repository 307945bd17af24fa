"""The fixture formulary (fixtures/formulary/, synthetic test data) loaded once for the understanding tests:
its drug names as the loader derives them, and an in-memory index over its chunks."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from core.corpus import Chunk, DrugNames
from retrieval.chunking import chunk_monograph
from retrieval.ingest import load_corpus
from retrieval.memory_index import MemoryIndex
from retrieval.monograph_names import names_of
from retrieval.names import NameBook

FIXTURE_FORMULARY = Path(__file__).resolve().parents[2] / "fixtures" / "formulary"
LABELLED = Path(__file__).resolve().parents[2] / "fixtures" / "labelled"


@lru_cache(maxsize=1)
def _loaded() -> tuple[tuple[DrugNames, ...], tuple[Chunk, ...]]:
    monographs, report = load_corpus([FIXTURE_FORMULARY])
    assert monographs and not report.errors, report.errors
    names = tuple(names_of(m) for m in monographs)
    chunks = tuple(c for m in monographs for c in chunk_monograph(m))
    return names, chunks


def fixture_drugs() -> list[DrugNames]:
    return list(_loaded()[0])


def fixture_name_book() -> NameBook:
    return NameBook(fixture_drugs())


def fixture_index() -> MemoryIndex:
    names, chunks = _loaded()
    return MemoryIndex(list(chunks), list(names))
