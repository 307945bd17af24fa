"""Qdrant Edge adapter (`qdrant-edge-py`): the embedded default FormularyIndex, in-process.

On disk an index is a directory:

    <path>/manifest.json   drug-name table, synthetic flag, counts, dense embedder name/dim (IndexManifest)
    <path>/shard/          the Edge shard: BM25 sparse vectors (multilingual tokenizer, ASCII folding,
                           IDF modifier), keyword payload indexes on drug_id and section_key, and, only
                           when built with an embedder, a cosine dense vector "dense" per chunk

A shard is locked by the process that opens it (its WAL), so `open(read_only=True)` loads a private
copy in a temporary directory: any number of server processes can serve one index, and a re-ingest can
swap in a new one while they run. Every qdrant_edge exception is translated to IndexUnavailable here.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import qdrant_edge as qe
from tqdm import tqdm

from core.corpus import Chunk, Monograph, ScoredChunk
from core.errors import EngineError, IndexUnavailable
from retrieval.embedder import DenseEmbedder
from retrieval.index_common import (
    DENSE_VECTOR,
    TEXT_VECTOR,
    IndexManifest,
    ManifestReads,
    check_dense_query,
    chunk_from_payload,
    chunk_payload,
    dense_vectors,
    in_book_order,
    prepare,
)

MANIFEST_FILE = "manifest.json"
SHARD_DIR = "shard"
BATCH = 512
_SCROLL_PAGE = 1024
_COPY_PREFIX = "formulary-edge-"
T = TypeVar("T")


@contextmanager
def _translated(what: str) -> Iterator[None]:
    try:
        yield
    except EngineError:
        raise
    except Exception as exc:  # qdrant_edge raises plain Exception for everything
        raise IndexUnavailable(f"Qdrant Edge: {what} failed: {exc}") from exc


def _bm25(avg_len: float) -> qe.Bm25:
    # Vietnamese: no stemmer and no stop words; folding makes "tang huyet ap" find "tăng huyết áp".
    return qe.Bm25(qe.Bm25Config(
        avg_len=avg_len or None, tokenizer=qe.TokenizerType.Multilingual, lowercase=True, ascii_folding=True,
        stemmer=qe.DisabledStemmer(), stopwords=qe.StopwordsSet(custom=set()),
    ))


def _match(key: str, value: str) -> qe.FieldCondition:
    return qe.FieldCondition(key, match=qe.MatchValue(value))


def _section_filter(section_keys: Sequence[str] | None) -> qe.Filter | None:
    if not section_keys:
        return None
    keys = list(section_keys)
    # One key is the common case (indications); MatchValue is the cheaper condition for it.
    match = qe.MatchValue(keys[0]) if len(keys) == 1 else qe.MatchAny(keys)
    return qe.Filter(must=[qe.FieldCondition("section_key", match=match)])


def read_manifest(path: Path) -> IndexManifest:
    try:
        return IndexManifest.model_validate_json((path / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise IndexUnavailable(f"{path}: no readable index manifest ({exc})") from None


class EdgeIndex(ManifestReads):
    """FormularyIndex over one Qdrant Edge shard."""

    def __init__(self, shard: qe.EdgeShard, manifest: IndexManifest, *, path: Path,
                 private_copy: Path | None = None) -> None:
        self._holder: list[qe.EdgeShard] = [shard]
        self._manifest = manifest
        self.immutable = private_copy is not None
        """Opened read-only (a private copy nobody writes): a section read once reads the same ever after."""
        self._bm25 = _bm25(manifest.avg_len)
        self.path = path
        # Also at interpreter exit: close the shard *before* removing its private copy, or the shard's
        # final flush recreates the directory after it was removed.
        self._release = weakref.finalize(self, _release, self._holder, private_copy)

    # -- building and opening ---------------------------------------------------------------------
    @classmethod
    def build(cls, path: Path, monographs: Sequence[Monograph], *, progress: bool = False,
              embedder: DenseEmbedder | None = None) -> IndexManifest:
        """Write a new index at `path` (which must not hold one) from exactly these monographs; with an
        embedder, each chunk also gets a dense vector and the manifest records the embedder's name and dim."""
        chunks, manifest = prepare(monographs, embedder)
        return cls._write(Path(path), chunks, manifest, embedder, progress)

    @classmethod
    def rebuild(cls, source: Path, path: Path, *, progress: bool = False,
                embedder: DenseEmbedder | None = None) -> IndexManifest:
        """Write a new index at `path` holding exactly the chunks of the index at `source`, embedded with
        `embedder` (None: no dense vectors). For a change of EMBEDDER without re-reading the corpus files."""
        old = cls.open(source, read_only=True)
        try:
            chunks = old._scroll(qe.Filter())
            manifest = old._manifest
        finally:
            old.close()
        manifest = manifest.model_copy(update={"embedder": embedder.name if embedder else None,
                                               "embedder_dim": embedder.dim if embedder else None})
        return cls._write(Path(path), chunks, manifest, embedder, progress)

    @classmethod
    def build_from_chunks(cls, path: Path, chunks: Sequence[Chunk], manifest: IndexManifest, *,
                          progress: bool = False, embedder: DenseEmbedder | None = None) -> IndexManifest:
        """Write a new index at `path` from chunks already made (ingest --add: kept chunks plus new ones)."""
        return cls._write(Path(path), chunks, manifest, embedder, progress)

    @classmethod
    def _write(cls, path: Path, chunks: Sequence[Chunk], manifest: IndexManifest,
               embedder: DenseEmbedder | None, progress: bool) -> IndexManifest:
        if (path / SHARD_DIR).exists():
            raise IndexUnavailable(f"{path}: an index already exists there; build into a new directory")
        bm25 = _bm25(manifest.avg_len)
        dense = dense_vectors(embedder, chunks)
        path.mkdir(parents=True, exist_ok=True)
        vectors = ({DENSE_VECTOR: qe.EdgeVectorParams(size=embedder.dim, distance=qe.Distance.Cosine)}
                   if embedder else None)
        config = qe.EdgeConfig(vectors=vectors,
                               sparse_vectors={TEXT_VECTOR: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
                               payload_memory=qe.Memory.Cached)
        with _translated("build"):
            shard = qe.EdgeShard.create(str(path / SHARD_DIR), config)
            try:
                for field in ("drug_id", "section_key"):
                    shard.update(qe.UpdateOperation.create_field_index(field, qe.PayloadSchemaType.Keyword))
                bar = tqdm(total=len(chunks), desc="indexing", unit="chunk", disable=not progress)
                for start in range(0, len(chunks), BATCH):
                    batch = chunks[start:start + BATCH]
                    points = []
                    for i, c in enumerate(batch):
                        vector: dict[str, Any] = {TEXT_VECTOR: bm25.embed_document(c.text)}
                        if dense is not None:
                            vector[DENSE_VECTOR] = dense[start + i]
                        points.append(qe.Point(start + i, vector, chunk_payload(c, start + i)))
                    shard.update(qe.UpdateOperation.upsert_points(points))
                    bar.update(len(batch))
                bar.close()
                shard.optimize()
                shard.flush()
            finally:
                shard.close()
        (path / MANIFEST_FILE).write_text(manifest.model_dump_json(indent=1), encoding="utf-8")
        return manifest

    @classmethod
    def open(cls, path: Path, *, read_only: bool = True) -> EdgeIndex:
        """Open an index. read_only loads a private copy, so the original stays unlocked for others."""
        path = Path(path)
        manifest = read_manifest(path)
        source = path / SHARD_DIR
        if not source.is_dir():
            raise IndexUnavailable(f"{path}: no Edge shard in {source}")
        private: Path | None = None
        target = source
        if read_only:
            _sweep_stale_copies()
            private = Path(tempfile.mkdtemp(prefix=f"{_COPY_PREFIX}{os.getpid()}-"))
            target = private / SHARD_DIR
            try:
                # The writer's lock file must not travel with the copy.
                shutil.copytree(source, target, ignore=shutil.ignore_patterns("*.lock"))
            except OSError as exc:
                shutil.rmtree(private, ignore_errors=True)
                raise IndexUnavailable(f"{path}: cannot copy the shard for reading ({exc})") from None
        try:
            with _translated(f"opening {path}"):
                shard = qe.EdgeShard.load(str(target))
        except IndexUnavailable:
            if private:
                shutil.rmtree(private, ignore_errors=True)
            raise
        return cls(shard, manifest, path=path, private_copy=private)

    # -- FormularyIndex -------------------------------------------------------------------------------
    def _call(self, what: str, fn: Callable[[qe.EdgeShard], T]) -> T:
        if not self._holder:
            raise IndexUnavailable("Qdrant Edge index is closed")
        with _translated(what):
            return fn(self._holder[0])

    def _scroll_page(self, request: qe.ScrollRequest) -> tuple[list[qe.Record], Any]:
        return self._call("scroll", lambda s: s.scroll(request))

    def _scroll(self, flt: qe.Filter) -> list[Chunk]:
        payloads: list[dict[str, Any] | None] = []
        offset: Any = None
        while True:
            request = qe.ScrollRequest(offset=offset, limit=_SCROLL_PAGE, filter=flt, with_payload=True,
                                       with_vector=False)
            records, offset = self._scroll_page(request)
            payloads.extend(r.payload for r in records)
            if offset is None:
                return in_book_order(payloads)

    def find_by_section(self, drug_id: str, section_key: str) -> list[Chunk]:
        return self._scroll(qe.Filter(must=[_match("drug_id", drug_id), _match("section_key", section_key)]))

    def find_by_drug(self, drug_id: str) -> list[Chunk]:
        return self._scroll(qe.Filter(must=[_match("drug_id", drug_id)]))

    def search_text(self, query: str, *, section_keys: Sequence[str] | None = None, limit: int = 10) -> list[ScoredChunk]:
        vector = self._bm25.embed_query(query)
        if not vector.indices or limit <= 0:
            return []
        request = qe.QueryRequest(limit=limit, query=qe.Query.Nearest(vector, using=TEXT_VECTOR),
                                  filter=_section_filter(section_keys), with_payload=True, with_vector=False)
        points = self._call("search", lambda s: s.query(request))
        return [ScoredChunk(chunk=chunk_from_payload(p.payload), score=float(p.score)) for p in points]

    def search_dense(self, vector: Sequence[float], *, section_keys: Sequence[str] | None = None,
                     limit: int = 10) -> list[ScoredChunk]:
        """Cosine nearest neighbours on the dense vector; [] when the index was built without an embedder."""
        if limit <= 0 or not check_dense_query(self._manifest, vector, str(self.path)):
            return []
        request = qe.QueryRequest(limit=limit, query=qe.Query.Nearest([float(v) for v in vector], using=DENSE_VECTOR),
                                  filter=_section_filter(section_keys), with_payload=True, with_vector=False)
        points = self._call("dense search", lambda s: s.query(request))
        return [ScoredChunk(chunk=chunk_from_payload(p.payload), score=float(p.score)) for p in points]

    def count(self) -> int:
        return self._call("count", lambda s: s.count(qe.CountRequest(exact=True)))

    def close(self) -> None:
        with _translated("close"):
            self._release()


def _release(holder: list[qe.EdgeShard], private_copy: Path | None) -> None:
    try:
        while holder:
            holder.pop().close()
    finally:
        if private_copy is not None:
            shutil.rmtree(private_copy, ignore_errors=True)


def _sweep_stale_copies() -> None:
    """Remove private copies left by processes that died without closing (killed servers)."""
    for copy in Path(tempfile.gettempdir()).glob(f"{_COPY_PREFIX}*-*"):
        pid_text = copy.name.removeprefix(_COPY_PREFIX).split("-", 1)[0]
        if not pid_text.isdigit():
            continue
        try:
            os.kill(int(pid_text), 0)
        except ProcessLookupError:
            shutil.rmtree(copy, ignore_errors=True)
        except OSError:
            continue  # alive, owned by someone else
