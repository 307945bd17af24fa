"""Section routing hit@1 through the real index: fixtures/labelled/section_routing.jsonl → rules understander →
RetrievalService.find_by_section on Qdrant Edge built from the fixture formulary; the first chunk returned must
belong to the labelled drug and section."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from retrieval.edge_index import EdgeIndex
from retrieval.ingest import ensure_index
from retrieval.resolver import DrugResolver
from retrieval.service import RetrievalService
from states.rules_understander import RulesUnderstander

LABELLED = Path(__file__).resolve().parents[2] / "fixtures" / "labelled" / "section_routing.jsonl"
MIN_HIT_AT_1 = 0.95

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def retrieval(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RetrievalService]:
    index = EdgeIndex.open(ensure_index(tmp_path_factory.mktemp("data")), read_only=True)
    try:
        yield RetrievalService(index)
    finally:
        index.close()


def _rows() -> list[dict[str, str]]:
    rows = [json.loads(line) for line in LABELLED.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if "_comment" not in r]


def test_section_routing_hit_at_1_is_at_least_95_percent(retrieval: RetrievalService) -> None:
    rows = _rows()
    assert len(rows) >= 100
    resolver = DrugResolver(retrieval.names.entries())
    rules = RulesUnderstander(retrieval.names)
    misses = []
    for row in rows:
        frame = rules.parse(row["question"], resolver.resolve(row["question"]))
        chunks = (retrieval.find_by_section(frame.drugs[0], frame.section_key)
                  if frame.drugs and frame.section_key else [])
        if not chunks or not chunks[0].doc_id.startswith(f"{row['drug_id']}__{row['section_key']}"):
            misses.append(f"{row['question']!r}: understood {frame.drugs} {frame.section_key}, "
                          f"first {chunks[0].doc_id if chunks else None}")
    hit_at_1 = 1 - len(misses) / len(rows)
    assert hit_at_1 >= MIN_HIT_AT_1, "\n".join(misses)


def test_the_understanding_of_every_routing_question_names_its_drug_and_section(retrieval: RetrievalService) -> None:
    # Independent of what the index holds: the understanding itself is right on every labelled question.
    resolver = DrugResolver(retrieval.names.entries())
    rules = RulesUnderstander(retrieval.names)
    wrong = [r["question"] for r in _rows()
             if (lambda f: (f.drugs[:1], f.section_key))(rules.parse(r["question"], resolver.resolve(r["question"])))
             != ([r["drug_id"]], r["section_key"])]
    assert wrong == []
