"""The optional dense path through the real engine: EMBEDDER=trigram rescues a run-together condition that BM25
cannot find; with EMBEDDER unset (the default) the same turn abstains exactly as before."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from core.errors import ConfigurationError
from engine.config import Settings
from engine.wiring import Runtime, build_engine
from retrieval.edge_index import read_manifest
from retrieval.embedder import TrigramEmbedder
from retrieval.ingest import FIXTURE_FORMULARY, current_shard, ensure_index, ingest, load_corpus
from retrieval.qdrant_index import QdrantServerIndex
from retrieval.service import RetrievalService

pytestmark = pytest.mark.integration

HYPERTENSION_DRUGS = {"amlodipin", "captopril", "enalapril", "losartan", "furosemid"}
RUN_TOGETHER = "thuốc nào trị tanghuyetap?"


@pytest.fixture(scope="module")
def dense(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runtime]:
    runtime = build_engine(Settings(data_dir=tmp_path_factory.mktemp("dense"), embedder="trigram"))
    yield runtime
    runtime.close()


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runtime]:
    runtime = build_engine(Settings(data_dir=tmp_path_factory.mktemp("plain")))
    yield runtime
    runtime.close()


def test_a_run_together_condition_is_answered_from_the_hypertension_indications(dense: Runtime) -> None:
    reply = dense.engine.handle(RUN_TOGETHER)
    assert reply.outcome == "answerable" and reply.reason == "condition_to_drug"
    assert {c.drug_id for c in reply.citations} == HYPERTENSION_DRUGS
    assert {c.section_key for c in reply.citations} == {"chi_dinh"}
    assert all("tăng huyết áp" in c.quote.lower() for c in reply.citations)


def test_without_an_embedder_the_same_turn_abstains_for_lack_of_indication_evidence(plain: Runtime) -> None:
    reply = plain.engine.handle(RUN_TOGETHER)
    assert reply.outcome == "abstain" and reply.reason == "no_indication_evidence"
    assert reply.citations == []


def test_a_condition_bm25_finds_never_takes_the_dense_path(dense: Runtime, plain: Runtime) -> None:
    with_dense = dense.engine.retrieval.retrieve_by_indication("tăng huyết áp")
    assert with_dense and {h.source for h in with_dense} == {"keyword"}
    plain_hits = plain.engine.retrieval.retrieve_by_indication("tăng huyết áp")
    # The same chunks, found by BM25 alone (two separately built indexes may order equal scores differently).
    assert sorted(h.chunk.doc_id for h in with_dense) == sorted(h.chunk.doc_id for h in plain_hits)


def test_a_dense_hit_that_does_not_state_the_condition_is_not_evidence(dense: Runtime) -> None:
    # The dense path ranks every indication; none of them mentions this made-up condition, fuzzily or not.
    reply = dense.engine.handle("thuốc nào trị bệnh xyzqwkh?")
    assert reply.outcome == "abstain" and reply.citations == []


def test_hybrid_search_ranks_a_chunk_both_lists_found_first(dense: Runtime) -> None:
    service = dense.engine.retrieval
    query = "tăng huyết áp có phì đại thất trái"
    keyword = [h.chunk.doc_id for h in service.index.search_text(query, section_keys=["chi_dinh"], limit=10)]
    vector = TrigramEmbedder().embed([query])[0]
    dense_ids = [h.chunk.doc_id for h in service.index.search_dense(vector, section_keys=["chi_dinh"], limit=10)]
    fused = service.hybrid_search(query, section_keys=["chi_dinh"], limit=10)
    assert fused[0].chunk.doc_id == "losartan__chi_dinh__0"
    assert fused[0].chunk.doc_id in keyword and fused[0].chunk.doc_id in dense_ids
    assert {h.source for h in fused} == {"hybrid"}
    only_one = [h for h in fused if (h.chunk.doc_id in keyword) != (h.chunk.doc_id in dense_ids)]
    assert only_one and all(h.score < fused[0].score for h in only_one)


def test_without_an_embedder_hybrid_search_is_the_bm25_search(plain: Runtime) -> None:
    service = plain.engine.retrieval
    assert service.hybrid_search("hội chứng Reye", limit=5) == service.index.search_text("hội chứng Reye", limit=5)


def test_changing_the_embedder_re_embeds_the_ingested_corpus_not_the_fixture(tmp_path: Path) -> None:
    ingest([FIXTURE_FORMULARY / "losartan.md"], tmp_path)
    before = current_shard(tmp_path)
    assert before is not None and read_manifest(before).embedder is None
    after = ensure_index(tmp_path, embedder=TrigramEmbedder())
    assert after != before
    manifest = read_manifest(after)
    assert manifest.embedder == TrigramEmbedder().name and manifest.monographs == 1
    assert ensure_index(tmp_path) != after and read_manifest(current_shard(tmp_path) or after).embedder is None


def test_an_embedder_configured_over_an_index_without_dense_vectors_fails_at_start_up() -> None:
    client = QdrantClient(location=":memory:")
    monographs, _ = load_corpus([FIXTURE_FORMULARY])
    QdrantServerIndex.build(client, "formulary", monographs[:2])
    index = QdrantServerIndex(client, "formulary")
    with pytest.raises(ConfigurationError, match="re-ingest with EMBEDDER set"):
        RetrievalService(index, TrigramEmbedder())
    with pytest.raises(ConfigurationError, match="re-ingest"):
        QdrantServerIndex.build(client, "formulary", monographs[:2], embedder=TrigramEmbedder(dim=64))
        RetrievalService(QdrantServerIndex(client, "formulary"), TrigramEmbedder())
    index.close()
