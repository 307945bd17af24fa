"""A read-only index's sections are read once per service; any other index is asked at every lookup (so an
outage injected into a wrapped or writable index still reaches the turn)."""

from __future__ import annotations

from core.corpus import Chunk
from retrieval.memory_index import MemoryIndex
from retrieval.service import RetrievalService
from tests.unit.machine_kit import CHUNKS, NAMES


class CountingIndex(MemoryIndex):
    def __init__(self, *, immutable: bool) -> None:
        super().__init__(CHUNKS, NAMES)
        self.immutable = immutable
        self.section_reads = 0

    def find_by_section(self, drug_id: str, section_key: str) -> list[Chunk]:
        self.section_reads += 1
        return super().find_by_section(drug_id, section_key)


def _reads(immutable: bool) -> tuple[int, list[list[Chunk]]]:
    index = CountingIndex(immutable=immutable)
    service = RetrievalService(index)
    before = index.section_reads
    got = [service.find_by_section("paracetamol", "lieu_luong_cach_dung") for _ in range(3)]
    got[0].clear()  # a caller's list is its own: the next lookup is whole
    got.append(service.find_by_section("paracetamol", "lieu_luong_cach_dung"))
    return index.section_reads - before, got


def test_a_read_only_index_is_read_once_per_section_and_answers_the_same() -> None:
    reads, got = _reads(immutable=True)
    assert reads == 1
    assert [c.doc_id for c in got[1]] == [c.doc_id for c in got[3]] and len(got[3]) == 4


def test_an_index_that_may_change_is_asked_every_time() -> None:
    reads, _ = _reads(immutable=False)
    assert reads == 4
