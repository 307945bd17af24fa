"""Qdrant server adapter via qdrant-client: the scale-out FormularyIndex (`QDRANT_URL`).

Tests run it against qdrant-client's local mode (`QdrantClient(location=":memory:")` or `path=…`),
which speaks the same API. BM25 vectors are computed here (retrieval.sparse_bm25) because
qdrant-client's own BM25 needs fastembed to download a model. The drug-name table and the synthetic
flag live in a manifest point (id 0, no vector) of the same collection, so a build is swapped in whole:
it writes a new physical collection and then moves the alias. Every qdrant-client error → IndexUnavailable.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from qdrant_client import QdrantClient, models
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
from retrieval.sparse_bm25 import embed_document, embed_query

MANIFEST_ID = 0
BATCH = 256
_SCROLL_PAGE = 1024
T = TypeVar("T")


@contextmanager
def _translated(what: str) -> Iterator[None]:
    try:
        yield
    except EngineError:
        raise
    except Exception as exc:  # UnexpectedResponse, ResponseHandlingException, httpx/grpc errors, ValueError (local)
        raise IndexUnavailable(f"Qdrant: {what} failed: {exc}") from exc


def _match(key: str, value: str) -> models.FieldCondition:
    return models.FieldCondition(key=key, match=models.MatchValue(value=value))


_IS_CHUNK = _match("kind", "chunk")


def _chunk_filter(section_keys: Sequence[str] | None) -> models.Filter:
    must: list[Any] = [_IS_CHUNK]
    if section_keys:
        must.append(models.FieldCondition(key="section_key", match=models.MatchAny(any=list(section_keys))))
    return models.Filter(must=must)


class QdrantServerIndex(ManifestReads):
    """FormularyIndex over one Qdrant collection (or alias)."""

    def __init__(self, client: QdrantClient, collection: str = "formulary") -> None:
        self.client = client
        self.collection = collection
        self._manifest = self._load_manifest()

    @staticmethod
    def client_for(url: str, *, timeout_s: float = 10.0) -> QdrantClient:
        with _translated(f"connecting to {url}"):
            return QdrantClient(url=url, timeout=int(timeout_s))

    @classmethod
    def connect(cls, url: str, collection: str = "formulary", *, timeout_s: float = 10.0) -> QdrantServerIndex:
        return cls(cls.client_for(url, timeout_s=timeout_s), collection)

    def _load_manifest(self) -> IndexManifest:
        records = self._call("reading the manifest", lambda c: c.retrieve(self.collection, [MANIFEST_ID],
                                                                           with_payload=True))
        if not records or not records[0].payload or "manifest" not in records[0].payload:
            raise IndexUnavailable(f"Qdrant collection {self.collection!r} has no formulary manifest; ingest first")
        try:
            return IndexManifest.model_validate(records[0].payload["manifest"])
        except ValueError as exc:
            raise IndexUnavailable(f"Qdrant collection {self.collection!r}: bad manifest ({exc})") from None

    # -- building -----------------------------------------------------------------------------------------
    @classmethod
    def build(cls, client: QdrantClient, collection: str, monographs: Sequence[Monograph], *,
              progress: bool = False, embedder: DenseEmbedder | None = None) -> IndexManifest:
        """Write exactly these monographs into a new physical collection, then point alias `collection` at it.

        Until the alias moves, readers keep the old collection; a failed build leaves it serving. With an
        embedder each chunk also gets a cosine dense vector "dense" and the manifest names the embedder.
        """
        chunks, manifest = prepare(monographs, embedder)
        dense = dense_vectors(embedder, chunks)
        physical = f"{collection}__{time.strftime('%Y%m%d%H%M%S')}_{time.time_ns() % 1_000_000:06d}"
        vectors_config: dict[str, models.VectorParams] = (
            {DENSE_VECTOR: models.VectorParams(size=embedder.dim, distance=models.Distance.COSINE)} if embedder else {})
        with _translated(f"building {physical}"):
            client.create_collection(
                physical, vectors_config=vectors_config,
                sparse_vectors_config={TEXT_VECTOR: models.SparseVectorParams(modifier=models.Modifier.IDF)})
            try:
                for field in ("drug_id", "section_key", "kind"):
                    _quietly(client.create_payload_index, physical, field, models.PayloadSchemaType.KEYWORD)
                client.upsert(physical, [models.PointStruct(
                    id=MANIFEST_ID, vector={}, payload={"kind": "manifest", "manifest": manifest.model_dump()})])
                bar = tqdm(total=len(chunks), desc="indexing", unit="chunk", disable=not progress)
                for start in range(0, len(chunks), BATCH):
                    batch = chunks[start:start + BATCH]
                    points = []
                    for i, c in enumerate(batch):
                        indices, values = embed_document(c.text, manifest.avg_len)
                        vector: dict[str, Any] = {TEXT_VECTOR: models.SparseVector(indices=indices, values=values)}
                        if dense is not None:
                            vector[DENSE_VECTOR] = dense[start + i]
                        points.append(models.PointStruct(id=start + i + 1, payload=chunk_payload(c, start + i),
                                                         vector=vector))
                    client.upsert(physical, points)
                    bar.update(len(batch))
                bar.close()
                old = [a.collection_name for a in client.get_aliases().aliases if a.alias_name == collection]
                if client.collection_exists(collection) and not old:
                    raise IndexUnavailable(f"{collection!r} is a collection, not an alias; cannot swap it")
                ops: list[Any] = [models.DeleteAliasOperation(delete_alias=models.DeleteAlias(alias_name=collection))
                                  ] if old else []
                ops.append(models.CreateAliasOperation(
                    create_alias=models.CreateAlias(collection_name=physical, alias_name=collection)))
                client.update_collection_aliases(ops)
            except BaseException:
                client.delete_collection(physical)
                raise
            for name in old:
                client.delete_collection(name)
        return manifest

    # -- FormularyIndex ---------------------------------------------------------------------------------------
    def _call(self, what: str, fn: Callable[[QdrantClient], T]) -> T:
        with _translated(what):
            return fn(self.client)

    def _scroll(self, flt: models.Filter) -> list[Chunk]:
        payloads: list[dict[str, Any] | None] = []
        offset: Any = None
        while True:
            records, offset = self._scroll_page(flt, offset)
            payloads.extend(r.payload for r in records)
            if offset is None:
                return in_book_order(payloads)

    def _scroll_page(self, flt: models.Filter, offset: Any) -> tuple[list[models.Record], Any]:
        with _translated("scroll"):
            return self.client.scroll(self.collection, scroll_filter=flt, limit=_SCROLL_PAGE, offset=offset,
                                      with_payload=True, with_vectors=False)

    def find_by_section(self, drug_id: str, section_key: str) -> list[Chunk]:
        return self._scroll(models.Filter(must=[_IS_CHUNK, _match("drug_id", drug_id),
                                                _match("section_key", section_key)]))

    def find_by_drug(self, drug_id: str) -> list[Chunk]:
        return self._scroll(models.Filter(must=[_IS_CHUNK, _match("drug_id", drug_id)]))

    def search_text(self, query: str, *, section_keys: Sequence[str] | None = None, limit: int = 10) -> list[ScoredChunk]:
        indices, values = embed_query(query)
        if not indices or limit <= 0:
            return []
        response = self._call("search", lambda c: c.query_points(
            self.collection, query=models.SparseVector(indices=indices, values=values), using=TEXT_VECTOR,
            query_filter=_chunk_filter(section_keys), limit=limit, with_payload=True, with_vectors=False))
        return [ScoredChunk(chunk=chunk_from_payload(p.payload), score=float(p.score)) for p in response.points]

    def search_dense(self, vector: Sequence[float], *, section_keys: Sequence[str] | None = None,
                     limit: int = 10) -> list[ScoredChunk]:
        """Cosine nearest neighbours on the dense vector; [] when the collection was built without an embedder."""
        if limit <= 0 or not check_dense_query(self._manifest, vector, f"Qdrant collection {self.collection!r}"):
            return []
        response = self._call("dense search", lambda c: c.query_points(
            self.collection, query=[float(v) for v in vector], using=DENSE_VECTOR,
            query_filter=_chunk_filter(section_keys), limit=limit, with_payload=True, with_vectors=False))
        return [ScoredChunk(chunk=chunk_from_payload(p.payload), score=float(p.score)) for p in response.points]

    def count(self) -> int:
        return self._call("count", lambda c: c.count(self.collection, count_filter=models.Filter(must=[_IS_CHUNK]),
                                                     exact=True).count)

    def close(self) -> None:
        with _translated("close"):
            self.client.close()


def _quietly(fn: Callable[..., object], *args: object) -> None:
    """Local mode warns that payload indexes have no effect there; the server uses them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        fn(*args)
