"""The generation request is built once per turn: the verifying step reads the generating step's request, and any
input replaced since (frame, evidence, candidates, query, path) builds it again from the new values."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Any

from bench.noop import CHUNK, DRUG
from core.corpus import Chunk
from retrieval.names import NameBook
from states.frame import QueryFrame
from states.generating import generation_request


@dataclass(frozen=True)
class _Turn:
    frame: QueryFrame
    evidence: list[Chunk] = field(default_factory=lambda: [CHUNK])
    candidates: list[str] = field(default_factory=list)
    query: str = "paracetamol chống chỉ định"
    path: str | None = "single_drug"


def _services() -> Any:
    return SimpleNamespace(names=NameBook([DRUG]))


def _frame(weight_kg: float | None = None) -> QueryFrame:
    return QueryFrame(turn_type="drug_attribute", drugs=["paracetamol"], section_key="chong_chi_dinh",
                      weight_kg=weight_kg)


def test_the_same_turn_gets_the_same_request_back() -> None:
    services = _services()
    turn = _Turn(_frame())
    first = generation_request(turn, services)  # type: ignore[arg-type]
    assert generation_request(turn, services) is first  # type: ignore[arg-type]


def test_a_replaced_frame_builds_the_request_from_the_new_frame() -> None:
    services = _services()
    turn = _Turn(_frame())
    first = generation_request(turn, services)  # type: ignore[arg-type]
    second = generation_request(replace(turn, frame=_frame(weight_kg=18.0)), services)  # type: ignore[arg-type]
    assert first.weight_kg is None
    assert second.weight_kg == 18.0


def test_replaced_evidence_or_query_builds_the_request_again() -> None:
    services = _services()
    turn = _Turn(_frame())
    first = generation_request(turn, services)  # type: ignore[arg-type]
    other = CHUNK.model_copy(update={"doc_id": "paracetamol__chong_chi_dinh__1"})
    with_other = generation_request(replace(turn, evidence=[other]), services)  # type: ignore[arg-type]
    assert [c.doc_id for c in first.evidence] == [CHUNK.doc_id]
    assert [c.doc_id for c in with_other.evidence] == [other.doc_id]
    asked = generation_request(replace(turn, query="paracetamol tác dụng phụ"), services)  # type: ignore[arg-type]
    assert asked.query == "paracetamol tác dụng phụ"


def test_an_equal_but_new_evidence_list_is_another_turn() -> None:
    # Identity, not equality: a later turn's evidence list is a new object even when it holds the same chunks.
    services = _services()
    turn = _Turn(_frame())
    first = generation_request(turn, services)  # type: ignore[arg-type]
    assert generation_request(replace(turn, evidence=[CHUNK]), services) is not first  # type: ignore[arg-type]
