"""One contract for every FormularyIndex adapter: Qdrant Edge and Qdrant server (qdrant-client local mode)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from core.corpus import Monograph
from core.errors import ConfigurationError, IndexUnavailable
from retrieval.chunking import chunk_monograph
from retrieval.edge_index import EdgeIndex
from retrieval.embedder import DenseEmbedder, TrigramEmbedder
from retrieval.index import FormularyIndex
from retrieval.ingest import FIXTURE_FORMULARY, load_corpus
from retrieval.markdown_loader import parse_markdown
from retrieval.qdrant_index import QdrantServerIndex
from retrieval.service import RetrievalService

pytestmark = pytest.mark.integration

HYPERTENSION_DRUGS = {"amlodipin", "captopril", "enalapril", "losartan", "furosemid"}


@pytest.fixture(scope="module")
def corpus() -> list[Monograph]:
    monographs, report = load_corpus([FIXTURE_FORMULARY])
    assert report.errors == []
    return monographs


def _edge(tmp: Path, monographs: list[Monograph], embedder: DenseEmbedder | None = None) -> EdgeIndex:
    EdgeIndex.build(tmp / "edge", monographs, embedder=embedder)
    return EdgeIndex.open(tmp / "edge", read_only=True)


def _qdrant_local(tmp: Path, monographs: list[Monograph], embedder: DenseEmbedder | None = None) -> QdrantServerIndex:
    client = QdrantClient(location=":memory:")
    QdrantServerIndex.build(client, "formulary", monographs, embedder=embedder)
    return QdrantServerIndex(client, "formulary")


ADAPTERS: dict[str, Callable[..., FormularyIndex]] = {
    "edge": _edge, "qdrant_local": _qdrant_local}


@pytest.fixture(scope="module", params=sorted(ADAPTERS))
def index(request: pytest.FixtureRequest, corpus: list[Monograph],
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[FormularyIndex]:
    built = ADAPTERS[request.param](tmp_path_factory.mktemp(request.param), corpus)
    yield built
    built.close()


def test_only_a_read_only_edge_copy_says_its_content_cannot_change(corpus: list[Monograph], tmp_path: Path) -> None:
    EdgeIndex.build(tmp_path / "edge", corpus[:2])
    read_only = EdgeIndex.open(tmp_path / "edge", read_only=True)
    try:
        assert read_only.immutable is True
    finally:
        read_only.close()
    writable = EdgeIndex.open(tmp_path / "edge", read_only=False)
    try:
        assert writable.immutable is False
    finally:
        writable.close()


def test_the_adapter_implements_the_protocol(index: FormularyIndex) -> None:
    assert isinstance(index, FormularyIndex)


def test_every_chunk_is_indexed(index: FormularyIndex, corpus: list[Monograph]) -> None:
    assert index.count() == sum(len(chunk_monograph(m)) for m in corpus)


def test_filtered_lookup_returns_exactly_that_section_in_book_order(index: FormularyIndex,
                                                                     corpus: list[Monograph]) -> None:
    paracetamol = next(m for m in corpus if m.drug_id == "paracetamol")
    expected = [c for c in chunk_monograph(paracetamol) if c.section_key == "lieu_luong_cach_dung"]
    found = index.find_by_section("paracetamol", "lieu_luong_cach_dung")
    assert found == expected
    assert len(found) >= 5 and found[0].text.startswith("*Cách dùng:*")


def test_lookup_of_a_missing_section_or_drug_is_empty(index: FormularyIndex) -> None:
    assert index.find_by_section("paracetamol", "tuong_ky") == []
    assert index.find_by_section("no_such_drug", "chi_dinh") == []
    assert index.find_by_drug("no_such_drug") == []


def test_the_whole_monograph_comes_back_in_book_order(index: FormularyIndex, corpus: list[Monograph]) -> None:
    warfarin = next(m for m in corpus if m.drug_id == "warfarin")
    assert [c.doc_id for c in index.find_by_drug("warfarin")] == [c.doc_id for c in chunk_monograph(warfarin)]


def test_quarantined_chunks_keep_their_flag(index: FormularyIndex) -> None:
    flagged = [c for c in index.find_by_section("warfarin", "tuong_tac_thuoc") if c.has_quarantined_content]
    assert len(flagged) == 1 and "|" in flagged[0].text


@pytest.mark.parametrize("query", ["tăng huyết áp", "tang huyet ap", "TĂNG HUYẾT ÁP"])
def test_bm25_finds_hypertension_in_the_indications_of_the_right_drugs(index: FormularyIndex, query: str) -> None:
    hits = index.search_text(query, section_keys=["chi_dinh"], limit=5)
    assert {h.chunk.drug_id for h in hits} == HYPERTENSION_DRUGS
    assert all(h.chunk.section_key == "chi_dinh" for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_search_without_a_section_filter_spans_sections(index: FormularyIndex) -> None:
    hits = index.search_text("hội chứng Reye", limit=20)
    assert hits and {h.chunk.section_key for h in hits} - {"chi_dinh"}
    assert hits[0].chunk.drug_id == "acid_acetylsalicylic"


def test_a_query_with_no_words_finds_nothing(index: FormularyIndex) -> None:
    assert index.search_text("  ?! ", section_keys=["chi_dinh"]) == []


def test_drug_names_carry_aliases_brands_and_classes(index: FormularyIndex) -> None:
    names = {n.drug_id: n for n in index.drug_names()}
    assert len(names) == 33
    aspirin = names["acid_acetylsalicylic"]
    assert "Aspirin" in aspirin.aliases and "Aspegic" in aspirin.brands and "NSAID" in aspirin.classes
    assert "Panadol" in names["paracetamol"].brands


def test_the_fixture_is_reported_synthetic(index: FormularyIndex) -> None:
    assert index.is_synthetic() is True


def test_service_reranks_a_free_question_within_the_drug(index: FormularyIndex) -> None:
    service = RetrievalService(index)
    top = service.find_by_drug("paracetamol", "quá liều N-acetylcystein", limit=3)
    assert top and top[0].section_key == "qua_lieu_xu_tri"
    bare = service.find_by_drug("paracetamol")
    assert {c.section_key for c in bare} <= {"ten_chung_quoc_te", "ma_atc", "loai_thuoc", "dang_thuoc_ham_luong",
                                             "chi_dinh"}


def test_a_real_corpus_is_not_synthetic(tmp_path: Path) -> None:
    monographs, _ = parse_markdown("# **IBUPROFEN**\n## **Chỉ định**\nĐau.\n", "real.md")
    for name, make in ADAPTERS.items():
        built = make(tmp_path / name, monographs)
        try:
            assert built.is_synthetic() is False
        finally:
            built.close()


def test_a_closed_index_is_unavailable(tmp_path: Path, corpus: list[Monograph]) -> None:
    for name, make in ADAPTERS.items():
        built = make(tmp_path / name, corpus[:1])
        built.close()
        with pytest.raises(IndexUnavailable):
            built.find_by_drug(corpus[0].drug_id)


# -- the dense contract (an index built with an embedder) ----------------------------------------------------
EMBEDDER = TrigramEmbedder()


@pytest.fixture(scope="module", params=sorted(ADAPTERS))
def dense_index(request: pytest.FixtureRequest, corpus: list[Monograph],
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[FormularyIndex]:
    built = ADAPTERS[request.param](tmp_path_factory.mktemp(f"dense-{request.param}"), corpus, EMBEDDER)
    yield built
    built.close()


def test_an_index_built_with_an_embedder_names_it(dense_index: FormularyIndex) -> None:
    assert dense_index.dense_embedder_name() == EMBEDDER.name


def test_an_index_built_without_an_embedder_has_no_dense_vectors(index: FormularyIndex) -> None:
    assert index.dense_embedder_name() is None
    assert index.search_dense(EMBEDDER.embed(["tăng huyết áp"])[0], section_keys=["chi_dinh"]) == []


def test_dense_search_finds_the_section_a_near_duplicate_query_copies(dense_index: FormularyIndex) -> None:
    target = dense_index.find_by_section("paracetamol", "qua_lieu_xu_tri")[0]
    # Dropped accents and a run-together word: BM25 tokens would miss parts of this; trigrams do not.
    query = target.text[:160].replace("ă", "a").replace("ộ", "o").replace(" ", "", 3)
    hits = dense_index.search_dense(EMBEDDER.embed([query])[0], limit=3)
    assert hits[0].chunk.doc_id == target.doc_id
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_dense_search_honours_the_section_filter(dense_index: FormularyIndex) -> None:
    interaction = dense_index.find_by_section("warfarin", "tuong_tac_thuoc")[0]
    hits = dense_index.search_dense(EMBEDDER.embed([interaction.text])[0], section_keys=["chi_dinh"], limit=8)
    assert len(hits) == 8 and {h.chunk.section_key for h in hits} == {"chi_dinh"}
    unfiltered = dense_index.search_dense(EMBEDDER.embed([interaction.text])[0], limit=1)
    assert unfiltered[0].chunk.doc_id == interaction.doc_id


def test_run_together_hypertension_finds_the_hypertension_indications(dense_index: FormularyIndex) -> None:
    assert dense_index.search_text("tanghuyetap", section_keys=["chi_dinh"]) == []
    hits = dense_index.search_dense(EMBEDDER.embed(["tanghuyetap"])[0], section_keys=["chi_dinh"], limit=5)
    assert {h.chunk.drug_id for h in hits} == HYPERTENSION_DRUGS


def test_a_dense_query_from_another_embedder_is_a_configuration_error(dense_index: FormularyIndex) -> None:
    with pytest.raises(ConfigurationError):
        dense_index.search_dense(TrigramEmbedder(dim=64).embed(["tăng huyết áp"])[0])


# -- adapter specifics ---------------------------------------------------------------------------------------
def test_edge_read_only_opens_let_several_readers_share_one_index(tmp_path: Path, corpus: list[Monograph]) -> None:
    EdgeIndex.build(tmp_path / "i", corpus[:2])
    first, second = EdgeIndex.open(tmp_path / "i"), EdgeIndex.open(tmp_path / "i")
    try:
        assert first.count() == second.count() > 0
    finally:
        first.close()
        second.close()


def test_edge_missing_index_is_unavailable(tmp_path: Path) -> None:
    with pytest.raises(IndexUnavailable):
        EdgeIndex.open(tmp_path / "nothing")


def test_qdrant_missing_collection_is_unavailable() -> None:
    with pytest.raises(IndexUnavailable):
        QdrantServerIndex(QdrantClient(location=":memory:"), "formulary")


def test_qdrant_rebuild_swaps_the_alias_to_exactly_the_new_corpus(corpus: list[Monograph]) -> None:
    client = QdrantClient(location=":memory:")
    QdrantServerIndex.build(client, "formulary", corpus)
    QdrantServerIndex.build(client, "formulary", corpus[:1])
    index = QdrantServerIndex(client, "formulary")
    assert [n.drug_id for n in index.drug_names()] == [corpus[0].drug_id]
    assert index.count() == len(chunk_monograph(corpus[0]))
    assert len(client.get_collections().collections) == 1


def test_a_dosage_paragraph_split_for_length_comes_back_with_its_continuation_flag(
        index: FormularyIndex, corpus: list[Monograph]) -> None:
    # The dosage tree re-joins a flattened section with a space where a chunk continues its paragraph: the flag
    # must survive the adapter's payload, or a band's ceiling sentence would be cut off from its band.
    cefalexin = next(m for m in corpus if m.drug_id == "cefalexin")
    expected = [c for c in chunk_monograph(cefalexin) if c.section_key == "lieu_luong_cach_dung"]
    found = index.find_by_section("cefalexin", "lieu_luong_cach_dung")
    assert found == expected and any(c.continues for c in found)
