"""Build the formulary index under DATA_DIR from exactly the given corpus, and swap it in atomically.

Layout under `data_dir/index/`:

    shards/<build-id>/   one complete EdgeIndex directory per build (manifest.json + shard/)
    current              a one-line pointer file naming the serving build (replaced with os.replace)
    .lock                serialises ingests and first-start builds across processes

A build goes into a new directory; only when it is complete does `current` move to it, so a failed or
interrupted ingest leaves the previous index serving and nothing half-indexed is ever served.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import sys
import time
import uuid
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from core.corpus import Chunk, Monograph
from core.errors import CorpusError, CorpusFormatError
from retrieval.chunking import chunk_monograph
from retrieval.edge_index import MANIFEST_FILE, EdgeIndex, read_manifest
from retrieval.embedder import DenseEmbedder
from retrieval.index_common import IndexManifest, prepare
from retrieval.jsonl_loader import load_jsonl
from retrieval.load_report import LoadIssue, LoadReport
from retrieval.markdown_loader import load_markdown
from retrieval.sparse_bm25 import average_length

if TYPE_CHECKING:
    from qdrant_client import QdrantClient

FIXTURE_FORMULARY = Path(__file__).resolve().parents[1] / "fixtures" / "formulary"
MARKDOWN_SUFFIXES = (".md", ".markdown")
JSONL_SUFFIXES = (".jsonl",)
_KEEP_OLD_BUILDS = 1
"""Builds kept besides the current one: a process that read the old pointer may still be copying it."""


class IngestSummary(BaseModel):
    monographs: int
    sections: int
    chunks: int
    quarantined_blocks: int
    unknown_headings: list[LoadIssue] = Field(default_factory=list)
    errors: list[LoadIssue] = Field(default_factory=list)
    index_path: str = ""
    swapped: bool = False
    """False when the run had errors and was not allowed to replace the serving index."""
    index_version: str = ""
    """The serving build after the run (the new one when swapped)."""
    drug_ids: list[str] = Field(default_factory=list)
    kept_monographs: int = 0
    """With --add: monographs of the previous index kept as they were."""

    def to_json_dict(self) -> dict[str, object]:
        """The `ingest --json` object: exactly the summary keys."""
        return self.model_dump(mode="json", exclude={"index_path"})


def _corpus_files(paths: Iterable[Path], report: LoadReport) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower()
                           in (*MARKDOWN_SUFFIXES, *JSONL_SUFFIXES))
            if not found:
                report.add_error(CorpusFormatError(str(path), None, "folder holds no .md or .jsonl files"))
            files.extend(found)
        elif path.is_file():
            if path.suffix.lower() in (*MARKDOWN_SUFFIXES, *JSONL_SUFFIXES):
                files.append(path)
            else:
                report.add_error(CorpusFormatError(str(path), None, "not a corpus file (expected .md or .jsonl)"))
        else:
            report.add_error(CorpusFormatError(str(path), None, "no such file or folder"))
    return files


def load_corpus(paths: Sequence[Path]) -> tuple[list[Monograph], LoadReport]:
    """Load every Markdown / JSON Lines file under `paths`; problems are reported, never fatal per file."""
    report = LoadReport()
    monographs: list[Monograph] = []
    seen: dict[str, str] = {}
    for file in _corpus_files(paths, report):
        loader = load_jsonl if file.suffix.lower() in JSONL_SUFFIXES else load_markdown
        try:
            loaded, file_report = loader(file)
        except CorpusError as exc:
            report.add_error(CorpusFormatError(str(file), None, str(exc)))
            continue
        for m in loaded:
            if m.drug_id in seen:
                file_report.errors.append(LoadIssue(
                    file=str(file), line=None,
                    problem=f"drug id {m.drug_id!r} already loaded from {seen[m.drug_id]}; this copy is skipped"))
                file_report.monographs -= 1
                file_report.sections -= len(m.sections)
                continue
            seen[m.drug_id] = m.source or str(file)
            monographs.append(m)
        report.merge(file_report)
    for m in monographs:
        chunks = chunk_monograph(m)
        report.chunks += len(chunks)
        report.quarantined_blocks += sum(c.has_quarantined_content for c in chunks)
    return monographs, report


# -- the index directory -------------------------------------------------------------------------------------
def _index_root(data_dir: Path) -> Path:
    return Path(data_dir) / "index"


def current_shard(data_dir: Path) -> Path | None:
    """The serving build, or None when there is none (or the pointer names a missing build)."""
    root = _index_root(data_dir)
    try:
        name = (root / "current").read_text(encoding="utf-8").strip()
    except OSError:
        return None
    path = root / "shards" / name
    return path if name and (path / MANIFEST_FILE).is_file() else None


@contextlib.contextmanager
def _locked(data_dir: Path) -> Iterator[None]:
    root = _index_root(data_dir)
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _swap_in(root: Path, build: Path) -> None:
    pointer = root / f".current.{uuid.uuid4().hex}"
    pointer.write_text(build.name + "\n", encoding="utf-8")
    with open(pointer, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(pointer, root / "current")


def _prune(root: Path, keep: str) -> None:
    shards = root / "shards"
    builds = sorted((p for p in shards.iterdir() if p.is_dir() and p.name != keep), key=lambda p: p.name)
    for old in builds[:max(len(builds) - _KEEP_OLD_BUILDS, 0)]:
        shutil.rmtree(old, ignore_errors=True)


def index_version(shard: Path | None) -> str:
    """The serving build's name (its directory under shards/): what `/ready` reports and ingest prints."""
    return shard.name if shard is not None else ""


def _build_and_swap(source: Sequence[Monograph] | Path | tuple[list[Chunk], IndexManifest], data_dir: Path,
                    progress: bool, embedder: DenseEmbedder | None = None) -> Path:
    """Build from monographs, re-embed the serving build's chunks (given its path), or write chunks already
    merged (ingest --add); then swap the new build in."""
    root = _index_root(data_dir)
    build = root / "shards" / f"{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:8]}"
    try:
        if isinstance(source, Path):
            EdgeIndex.rebuild(source, build, progress=progress, embedder=embedder)
        elif isinstance(source, tuple):
            EdgeIndex.build_from_chunks(build, *source, progress=progress, embedder=embedder)
        else:
            EdgeIndex.build(build, source, progress=progress, embedder=embedder)
        EdgeIndex.open(build, read_only=True).close()  # serve only what opens
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
    _swap_in(root, build)
    _prune(root, keep=build.name)
    return build


def _load_for_ingest(paths: Sequence[Path], progress: bool) -> tuple[list[Monograph], LoadReport]:
    monographs, report = load_corpus(paths)
    if not monographs:
        problems = "; ".join(str(e) for e in report.errors[:5]) or "no monographs"
        raise CorpusError(f"nothing to index: {problems}")
    if progress:
        print(f"loaded {len(monographs)} monographs, {report.chunks} chunks", file=sys.stderr)
    return monographs, report


def _summary(report: LoadReport, where: str, monographs: Sequence[Monograph], *, swapped: bool,
             version: str, kept: int = 0) -> IngestSummary:
    return IngestSummary(monographs=report.monographs, sections=report.sections, chunks=report.chunks,
                         quarantined_blocks=report.quarantined_blocks, unknown_headings=report.unknown_headings,
                         errors=report.errors, index_path=where, swapped=swapped, index_version=version,
                         drug_ids=[m.drug_id for m in monographs], kept_monographs=kept)


def merged_with_serving(shard: Path, monographs: Sequence[Monograph],
                        embedder: DenseEmbedder | None) -> tuple[list[Chunk], IndexManifest, int]:
    """The serving build's chunks, minus every drug id being ingested, followed by the new monographs' chunks.

    A monograph is replaced whole, by drug id: keeping an old section beside a new one would serve a mix of
    two editions. The kept chunks are copied as indexed (book order), so nothing else changes. The result is
    synthetic when either side is: a kept fixture monograph must still make replies say it is test data.
    """
    new_ids = {m.drug_id for m in monographs}
    old = EdgeIndex.open(shard, read_only=True)
    try:
        kept_names = [n for n in old.drug_names() if n.drug_id not in new_ids]
        kept_chunks = [c for n in kept_names for c in old.find_by_drug(n.drug_id)]
        old_synthetic = old.is_synthetic()
    finally:
        old.close()
    new_chunks, new_manifest = prepare(monographs, embedder)
    chunks = [*kept_chunks, *new_chunks]
    manifest = new_manifest.model_copy(update={
        "synthetic": new_manifest.synthetic or (old_synthetic and bool(kept_names)),
        "monographs": len(kept_names) + len(monographs),
        "chunks": len(chunks),
        "avg_len": average_length(c.text for c in chunks),
        "drugs": [*kept_names, *new_manifest.drugs],
    })
    return chunks, manifest, len(kept_names)


def ingest(paths: Sequence[Path], data_dir: Path, *, progress: bool = False,
           embedder: DenseEmbedder | None = None, add: bool = False, allow_errors: bool = False) -> IngestSummary:
    """Build the Edge index from exactly `paths` (with `add`: the serving index with these monographs added or
    replaced by drug id) and make it the serving one; re-ingesting the same corpus yields the same index. With
    an embedder the chunks also get dense vectors.

    A corpus that loaded with errors is not swapped in unless `allow_errors`: a file that failed to parse
    would otherwise silently drop its monographs from the serving index. The summary says whether it was.
    Raises CorpusError when nothing loadable was found (the old index stays)."""
    monographs, report = _load_for_ingest(paths, progress)
    if report.errors and not allow_errors:
        serving = current_shard(data_dir)
        return _summary(report, str(serving or ""), monographs, swapped=False, version=index_version(serving))
    with _locked(data_dir):
        serving = current_shard(data_dir) if add else None
        kept = 0
        if serving is not None:
            chunks, manifest, kept = merged_with_serving(serving, monographs, embedder)
            build = _build_and_swap((chunks, manifest), data_dir, progress, embedder)
        else:
            build = _build_and_swap(monographs, data_dir, progress, embedder)
    return _summary(report, str(build), monographs, swapped=True, version=index_version(build), kept=kept)


def ingest_qdrant(paths: Sequence[Path], client: QdrantClient, collection: str, *,
                  progress: bool = False, embedder: DenseEmbedder | None = None,
                  allow_errors: bool = False) -> IngestSummary:
    """The same for a Qdrant server: a new physical collection, then the alias `collection` moves to it."""
    from retrieval.qdrant_index import QdrantServerIndex

    monographs, report = _load_for_ingest(paths, progress)
    if report.errors and not allow_errors:
        return _summary(report, f"qdrant collection {collection}", monographs, swapped=False, version="")
    QdrantServerIndex.build(client, collection, monographs, progress=progress, embedder=embedder)
    return _summary(report, f"qdrant collection {collection}", monographs, swapped=True, version=collection)


def _serves(shard: Path | None, embedder: DenseEmbedder | None) -> bool:
    """The shard exists and its dense vectors (if any) came from the configured embedder (none: no vectors)."""
    return shard is not None and read_manifest(shard).embedder == (embedder.name if embedder else None)


def ensure_index(data_dir: Path, *, progress: bool = False, embedder: DenseEmbedder | None = None) -> Path:
    """The serving build's path; built from the repo's fixture formulary first when there is none.

    When the serving build was embedded otherwise than configured (another EMBEDDER, or none), its chunks
    are re-embedded into a new build that is swapped in like an ingest: the corpus stays exactly as ingested."""
    found = current_shard(data_dir)
    if found is not None and _serves(found, embedder):
        return found
    with _locked(data_dir):
        found = current_shard(data_dir)  # another process may have built it while we waited
        if found is not None:
            if _serves(found, embedder):
                return found
            return _build_and_swap(found, data_dir, progress, embedder)
        monographs, report = load_corpus([FIXTURE_FORMULARY])
        if not monographs:
            raise CorpusError(f"no index under {data_dir} and no fixture formulary at {FIXTURE_FORMULARY}")
        return _build_and_swap(monographs, data_dir, progress, embedder)
