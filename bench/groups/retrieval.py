"""Retrieval at 30,000 chunks (issue 4): Qdrant Edge vs qdrant-client local mode, side by side; server RSS.

The corpus is the fixture formulary scaled with renamed synthetic copies (`retrieval.synthetic.scaled_corpus`)
to 30,000 chunks. Both adapters are built from exactly that corpus (build time of each is reported), then
queried on the same items, alternating Edge / local per item:

- exact section lookup: `find_by_section(drug_id, section_key)` (payload-filtered scroll), the dominant path;
- BM25 query: `search_text(condition, section_keys=["chi_dinh"])`, the condition→drug path's query.

qdrant-client's local mode is pure Python (it scans every point), so it gets a small sample; Qdrant Edge gets a
large one too, for its own percentiles. Last, a fresh `formulary-fsm serve` process is started on a data
directory whose serving index is the 30,000-chunk Edge index; after it has answered lookups and BM25 turns,
its resident memory is read from /proc/<pid>/status.
"""

from __future__ import annotations

import tempfile
import time
import warnings
from pathlib import Path

from bench.engines import offline_env
from bench.fixture import fixture_monographs
from bench.results import Distribution, GroupResult, at_least, at_most, compare
from bench.server import Server, rss_mib
from bench.timing import cycle, interleaved, time_each

TITLE = "retrieval at 30,000 chunks: Qdrant Edge vs qdrant-client local mode; server RSS"
TARGET_CHUNKS = 30_000
LOCAL_SAMPLES = 8
"""Per query kind, on qdrant-client local mode (each query scans all 30,000 points in Python)."""
EDGE_SAMPLES = 2_000
TARGET_RATIO = 100.0
TARGET_LOOKUP_P50_MS = 0.5
TARGET_RSS_MIB = 300.0
SECTIONS = ("chong_chi_dinh", "lieu_luong_cach_dung", "tuong_tac_thuoc", "chi_dinh", "than_trong",
            "thoi_ky_mang_thai", "tac_dung_khong_mong_muon")
CONDITIONS = ("tăng huyết áp", "đau nửa đầu", "sốt", "nhiễm khuẩn đường hô hấp", "động kinh", "đái tháo đường",
              "loét dạ dày tá tràng", "suy tim", "hen phế quản", "viêm mũi dị ứng", "gout", "tiêu chảy cấp",
              "nhiễm nấm candida", "đau thắt ngực", "rung nhĩ", "tang huyet ap")
SERVE_TURNS = ("Chống chỉ định của ibuprofen là gì?", "Thuốc nào điều trị tăng huyết áp?",
               "Tương tác giữa warfarin và aspirin?", "Liều paracetamol cho người lớn?",
               "Thuốc nào chữa đau nửa đầu?", "Tác dụng không mong muốn của metformin")


def _lookups(drug_ids: list[str]) -> list[tuple[str, str]]:
    # Real fixture drugs and synthetic copies alike, every section kind: deterministic, no sampling randomness.
    return [(d, SECTIONS[i % len(SECTIONS)]) for i, d in enumerate(drug_ids)]


def _install_as_serving_index(data_dir: Path, build: Path) -> None:
    """Make `build` the serving index of `data_dir` (retrieval.ingest's layout: shards/<name> + `current`)."""
    root = data_dir / "index"
    (root / "current").write_text(build.name + "\n", encoding="utf-8")


def run() -> GroupResult:
    from qdrant_client import QdrantClient

    from retrieval.edge_index import EdgeIndex
    from retrieval.index_common import prepare
    from retrieval.qdrant_index import QdrantServerIndex
    from retrieval.synthetic import scaled_corpus

    result = GroupResult(group="retrieval", title=TITLE)
    corpus = scaled_corpus(list(fixture_monographs()), TARGET_CHUNKS)
    chunks, _ = prepare(corpus)
    drug_ids = [m.drug_id for m in corpus]
    result.setup = {
        "corpus": f"{len(corpus)} monographs (30 fixture + synthetic copies), {len(chunks)} chunks",
        "Qdrant Edge": "retrieval.edge_index.EdgeIndex, opened read-only (private copy), as a server worker does",
        "qdrant-client local mode": "retrieval.qdrant_index.QdrantServerIndex over QdrantClient(':memory:')",
        "samples": f"{LOCAL_SAMPLES} lookups and {LOCAL_SAMPLES} BM25 queries alternating Edge / local mode; then "
                   f"{EDGE_SAMPLES} of each on Edge alone",
    }
    with tempfile.TemporaryDirectory(prefix="bench-retrieval-") as tmp:
        data_dir = Path(tmp) / "data"
        build = data_dir / "index" / "shards" / "bench-30k"
        t0 = time.monotonic()
        EdgeIndex.build(build, corpus)
        edge_build_s = time.monotonic() - t0
        client = QdrantClient(location=":memory:")
        t0 = time.monotonic()
        with warnings.catch_warnings():  # local mode warns that it has no payload indexes: that is the point
            warnings.simplefilter("ignore", UserWarning)
            QdrantServerIndex.build(client, "formulary", corpus)
        local_build_s = time.monotonic() - t0
        result.values["Qdrant Edge build time (30k chunks), s"] = round(edge_build_s, 2)
        result.values["qdrant-client local mode build time (30k chunks), s"] = round(local_build_s, 2)
        result.comparisons.append(compare("index build time", "Qdrant Edge", edge_build_s, "qdrant-client local",
                                          local_build_s, unit="s", meaning="local build time / Edge build time"))

        edge = EdgeIndex.open(build, read_only=True)
        local = QdrantServerIndex(client, "formulary")
        try:
            if edge.count() != local.count():
                result.notes.append(f"the two indexes disagree on the chunk count: {edge.count()} vs {local.count()}")
            lookups = _lookups(drug_ids)
            stride = max(1, len(lookups) // LOCAL_SAMPLES)
            few_lookups = lookups[::stride][:LOCAL_SAMPLES]
            few_queries = cycle(list(CONDITIONS), LOCAL_SAMPLES)
            # Warm both (first-query costs: payload caches, tokenizer set-up), untimed.
            for index in (edge, local):
                index.find_by_section(*lookups[0])
                index.search_text(CONDITIONS[0], section_keys=["chi_dinh"], limit=12)
            lk = interleaved({"edge": lambda p: edge.find_by_section(*p), "local": lambda p: local.find_by_section(*p)},
                             few_lookups)
            bm = interleaved({
                "edge": lambda q: edge.search_text(q, section_keys=["chi_dinh"], limit=12),
                "local": lambda q: local.search_text(q, section_keys=["chi_dinh"], limit=12),
            }, few_queries)
            same = sum(edge.find_by_section(*p) == local.find_by_section(*p) for p in few_lookups[:3])
            if same != 3:
                result.notes.append("Edge and local mode returned different chunks for the same section lookup")
            edge_lookup = Distribution.of(time_each(lambda p: edge.find_by_section(*p), cycle(lookups, EDGE_SAMPLES),
                                                    warmup=100))
            edge_bm25 = Distribution.of(time_each(
                lambda q: edge.search_text(q, section_keys=["chi_dinh"], limit=12),
                cycle(list(CONDITIONS), EDGE_SAMPLES), warmup=50))
        finally:
            edge.close()
            local.close()

        pair_edge_lk, pair_local_lk = Distribution.of(lk["edge"]), Distribution.of(lk["local"])
        pair_edge_bm, pair_local_bm = Distribution.of(bm["edge"]), Distribution.of(bm["local"])
        result.figures.update({
            "section lookup, Qdrant Edge (side by side)": pair_edge_lk,
            "section lookup, qdrant-client local mode (side by side)": pair_local_lk,
            "BM25 query, Qdrant Edge (side by side)": pair_edge_bm,
            "BM25 query, qdrant-client local mode (side by side)": pair_local_bm,
            "section lookup, Qdrant Edge (large sample)": edge_lookup,
            "BM25 query, Qdrant Edge (large sample)": edge_bm25,
        })
        lookup_ratio = compare("exact section lookup, p50", "Qdrant Edge", pair_edge_lk.p50, "qdrant-client local",
                               pair_local_lk.p50, meaning="local p50 / Edge p50")
        bm25_ratio = compare("BM25 query (chi_dinh), p50", "Qdrant Edge", pair_edge_bm.p50, "qdrant-client local",
                             pair_local_bm.p50, meaning="local p50 / Edge p50")
        result.comparisons += [lookup_ratio, bm25_ratio]
        # Interleaved with a one-second pure-Python scan, each Edge call starts with cold CPU caches; the large
        # Edge-only sample (same process, same run) shows its steady state. The target uses the conservative one.
        result.comparisons += [
            compare("exact section lookup, p50 (Edge steady state)", "Qdrant Edge (large sample)", edge_lookup.p50,
                    "qdrant-client local", pair_local_lk.p50, meaning="local p50 / Edge large-sample p50"),
            compare("BM25 query (chi_dinh), p50 (Edge steady state)", "Qdrant Edge (large sample)", edge_bm25.p50,
                    "qdrant-client local", pair_local_bm.p50, meaning="local p50 / Edge large-sample p50"),
        ]
        result.targets += [
            at_least(4, "section lookup speed-up, Edge vs local mode (p50 ratio, side by side)", lookup_ratio.ratio, TARGET_RATIO,
                     "×", fmt="{:,.0f}"),
            at_least(4, "BM25 query speed-up, Edge vs local mode (p50 ratio, side by side)", bm25_ratio.ratio, TARGET_RATIO, "×",
                     fmt="{:,.0f}"),
            at_most(4, "Qdrant Edge section lookup, p50", edge_lookup.p50, TARGET_LOOKUP_P50_MS, "ms", label="p50 "),
        ]
        _serve_rss(data_dir, build, result)
    return result


def _serve_rss(data_dir: Path, build: Path, result: GroupResult) -> None:
    import httpx

    _install_as_serving_index(data_dir, build)
    log = data_dir / "serve.log"
    try:
        with Server(offline_env(data_dir), workers=1, log=log) as server, httpx.Client(timeout=30) as client:
            for text in SERVE_TURNS * 3:
                client.post(f"{server.url}/v1/rag/query", json={"message": text}).raise_for_status()
            memory = rss_mib(server.worker_pids()[0])
    except (RuntimeError, httpx.HTTPError) as exc:
        result.status = "partial"
        result.notes.append(f"server RSS not measured: {exc}")
        result.targets.append(at_most(4, "server RSS with the 30k-chunk index", None, TARGET_RSS_MIB, "MiB"))
        return
    result.values["server RSS (VmRSS) after serving, MiB"] = round(memory["VmRSS"], 1)
    result.values["server peak RSS (VmHWM), MiB"] = round(memory["VmHWM"], 1)
    result.setup["server RSS"] = (f"`formulary-fsm serve --workers 1` on a data dir serving the 30k Edge index; "
                                  f"{len(SERVE_TURNS) * 3} turns answered, then /proc/<pid>/status")
    result.targets.append(at_most(4, "server RSS with the 30k-chunk index (VmRSS after serving)", memory["VmRSS"],
                                  TARGET_RSS_MIB, "MiB", fmt="{:.0f}"))
