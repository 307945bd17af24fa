"""Ingest: exactly the given corpus becomes the serving index, swapped in whole; bad input is named."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from core.corpus import Monograph
from core.errors import CorpusError, IndexUnavailable
from retrieval.edge_index import EdgeIndex
from retrieval.embedder import DenseEmbedder
from retrieval.index_common import IndexManifest
from retrieval.ingest import (
    FIXTURE_FORMULARY,
    current_shard,
    ensure_index,
    ingest,
    ingest_qdrant,
    load_corpus,
)
from retrieval.qdrant_index import QdrantServerIndex

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]

GOOD_JSONL = (
    '{"title": "IBUPROFEN", "synthetic": true, "sections": ['
    '{"key": "chi_dinh", "text": "Giảm đau, hạ sốt.", "page": 760},'
    '{"key": "tuong_tac_thuoc", "text": "Warfarin: tăng chảy máu.", "quarantined_blocks": ["| bảng | hỏng |"]},'
    '{"heading": "Tên thương mại", "text": "Brufen; Advil."}]}\n'
    '{"title": "WARFARIN", "sections": [{"key": "nonsense", "text": "x"}]}\n'
    'this line is not JSON\n'
    '{"title": "DIGOXIN", "sections": [{"key": "chi_dinh", "text": "Suy tim."}, '
    '{"heading": "Dược lực học", "text": "Ức chế Na-K-ATPase."}]}\n'
)


def _serving(data_dir: Path) -> EdgeIndex:
    shard = current_shard(data_dir)
    assert shard is not None
    return EdgeIndex.open(shard)


def test_load_corpus_reports_malformed_lines_and_loads_the_rest(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(GOOD_JSONL, encoding="utf-8")
    monographs, report = load_corpus([corpus])
    assert [m.drug_id for m in monographs] == ["ibuprofen", "digoxin"]
    assert [(e.file, e.line) for e in report.errors] == [(str(corpus), 2), (str(corpus), 3)]
    assert "nonsense" in report.errors[0].problem and "JSON" in report.errors[1].problem
    assert [(u.line, "Dược lực học" in u.problem) for u in report.unknown_headings] == [(4, True)]
    assert (report.monographs, report.sections, report.chunks, report.quarantined_blocks) == (2, 4, 5, 1)


def test_ingest_builds_exactly_the_given_corpus(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(GOOD_JSONL, encoding="utf-8")
    summary = ingest([corpus], tmp_path / "data", allow_errors=True)  # the good lines of a partly bad file
    assert summary.swapped
    index = _serving(tmp_path / "data")
    try:
        assert sorted(n.drug_id for n in index.drug_names()) == ["digoxin", "ibuprofen"]
        assert index.count() == summary.chunks == 5
        assert index.find_by_section("ibuprofen", "chi_dinh")[0].page == 760
        assert [c.has_quarantined_content for c in index.find_by_section("ibuprofen", "tuong_tac_thuoc")] == [
            False, True]
        assert "Brufen" in next(n for n in index.drug_names() if n.drug_id == "ibuprofen").brands
    finally:
        index.close()


def test_re_ingesting_the_same_corpus_is_idempotent(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = ingest([FIXTURE_FORMULARY], data)
    before = _serving(data)
    first_lookup = before.find_by_section("paracetamol", "lieu_luong_cach_dung")
    before.close()
    second = ingest([FIXTURE_FORMULARY], data)
    after = _serving(data)
    try:
        same = {"index_path", "index_version"}
        assert first.model_dump(exclude=same) == second.model_dump(exclude=same)
        assert after.count() == first.chunks
        assert after.find_by_section("paracetamol", "lieu_luong_cach_dung") == first_lookup
        assert [h.chunk.doc_id for h in after.search_text("tăng huyết áp", section_keys=["chi_dinh"])]
    finally:
        after.close()
    builds = list((data / "index" / "shards").iterdir())
    assert len(builds) <= 2, "old builds are pruned"


def test_an_ingest_with_nothing_loadable_leaves_the_old_index_serving(tmp_path: Path) -> None:
    data = tmp_path / "data"
    ingest([FIXTURE_FORMULARY], data)
    old = current_shard(data)
    broken = tmp_path / "broken.md"
    broken.write_text("no title here\n## **Chỉ định**\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="broken.md"):
        ingest([broken], data)
    assert current_shard(data) == old


def test_a_build_that_fails_midway_leaves_the_old_index_serving(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    ingest([FIXTURE_FORMULARY], data)
    old = current_shard(data)
    real_build = EdgeIndex.build

    def build_then_crash(path: Path, monographs: Sequence[Monograph], *, progress: bool = False,
                         embedder: DenseEmbedder | None = None) -> IndexManifest:
        real_build(path, monographs[:1], progress=progress, embedder=embedder)
        raise IndexUnavailable("disk full (simulated)")

    monkeypatch.setattr(EdgeIndex, "build", staticmethod(build_then_crash))
    with pytest.raises(IndexUnavailable):
        ingest([FIXTURE_FORMULARY], data)
    assert current_shard(data) == old
    assert [p for p in (data / "index" / "shards").iterdir()] == [old], "the half-built shard is removed"
    index = _serving(data)
    try:
        assert len(index.drug_names()) == 33
    finally:
        index.close()


def test_ingest_into_qdrant_serves_exactly_the_given_corpus(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(GOOD_JSONL, encoding="utf-8")
    client = QdrantClient(location=":memory:")
    ingest_qdrant([FIXTURE_FORMULARY], client, "formulary")
    summary = ingest_qdrant([corpus], client, "formulary", allow_errors=True)
    index = QdrantServerIndex(client, "formulary")
    assert sorted(n.drug_id for n in index.drug_names()) == ["digoxin", "ibuprofen"]
    assert index.count() == summary.chunks


def test_ensure_index_builds_the_fixture_formulary_once(tmp_path: Path) -> None:
    first = ensure_index(tmp_path / "data")
    assert ensure_index(tmp_path / "data") == first
    index = EdgeIndex.open(first)
    try:
        assert index.is_synthetic() and len(index.drug_names()) == 33
    finally:
        index.close()


def _cli(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATA_DIR": str(data_dir)}
    return subprocess.run([sys.executable, "-m", "engine.cli", "ingest", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def test_cli_prints_the_summary_as_json(tmp_path: Path) -> None:
    result = _cli(str(FIXTURE_FORMULARY), "--json", data_dir=tmp_path / "data")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert set(summary) == {"monographs", "sections", "chunks", "quarantined_blocks", "unknown_headings", "errors",
                            "swapped", "index_version", "drug_ids", "kept_monographs",
                            "hygiene"}
    assert summary["swapped"] and summary["index_version"] == current_shard(tmp_path / "data").name  # type: ignore[union-attr]
    assert summary["monographs"] == 33 and summary["quarantined_blocks"] >= 2
    assert summary["unknown_headings"] == [] and summary["errors"] == []
    # Only the fixture's monographs written in the PDF-extracted shape carry extraction damage (page headers, a
    # flattened table); hygiene touches nothing in the labelled ones.
    damaged = {h["drug_id"] for h in summary["hygiene"]
               if h["headers_removed"] or h["tables_quarantined"] or h["misplaced"]}
    assert damaged and damaged <= {"cefalexin", "clindamycin", "levetiracetam"}, damaged
    assert current_shard(tmp_path / "data") is not None


def test_cli_names_the_file_line_and_problem_of_a_malformed_input(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(GOOD_JSONL, encoding="utf-8")
    result = _cli(str(corpus), str(FIXTURE_FORMULARY / "paracetamol.md"), "--allow-errors",
                  data_dir=tmp_path / "data")
    assert result.returncode == 1, "partial input exits non-zero"
    assert f"{corpus}:3: not valid JSON" in result.stdout
    assert "monographs: 3" in result.stdout
    assert "indexing" in result.stderr, "a progress bar goes to stderr"


def test_cli_with_only_bad_input_fails_and_says_why(tmp_path: Path) -> None:
    result = _cli(str(tmp_path / "missing.md"), data_dir=tmp_path / "data")
    assert result.returncode == 2
    assert "missing.md" in result.stderr and "no such file" in result.stderr


def test_cli_reports_per_monograph_how_much_of_each_dosage_section_was_placed(tmp_path: Path) -> None:
    """Issue 17 item 4: the load report gives, per monograph, the dosage lines placed in the tree out of those seen,
    and names each line it could not place (the fixture's flattened renal table is one)."""
    result = _cli(str(FIXTURE_FORMULARY), "--no-progress", data_dir=tmp_path / "data")
    assert result.returncode == 0, result.stderr
    placed = dict(re.findall(r"^  (\w+): .*dosage lines placed (\d+/\d+)$", result.stdout, re.M))
    assert len(placed) == 33, result.stdout  # every fixture monograph has a dosage section
    for drug_id, ratio in placed.items():
        done, seen = map(int, ratio.split("/"))
        assert 0 < done <= seen, (drug_id, ratio)
    done, seen = map(int, placed["levetiracetam"].split("/"))
    assert done < seen  # its flattened renal table is seen and not placed …
    block = re.split(r"\n  (?! )", result.stdout.split("  levetiracetam:", 1)[1], maxsplit=1)[0]
    assert "dosage line not placed (flattened table" in block  # … and named, with why
    summary = json.loads(_cli(str(FIXTURE_FORMULARY), "--json", data_dir=tmp_path / "data2").stdout)
    report = {h["drug_id"]: h for h in summary["hygiene"]}
    assert report["paracetamol"]["dosage_placed"][0] == report["paracetamol"]["dosage_placed"][1]
    assert report["levetiracetam"]["dosage_unplaced"]
