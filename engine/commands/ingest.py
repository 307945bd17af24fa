"""`formulary-fsm ingest PATH... [--json]`: build the index under DATA_DIR from exactly these files."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from engine.config import load_settings
from retrieval.embedder import make_embedder
from retrieval.ingest import IngestSummary, ingest, ingest_qdrant


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                        help="formulary Markdown, JSON Lines, or a JSON export ({\"drugs\": [...]}) — the format is "
                             "read from each file's content — or folders holding .md/.jsonl/.json files")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def _print_summary(summary: IngestSummary) -> None:
    print(f"monographs: {summary.monographs}")
    print(f"sections: {summary.sections}")
    print(f"chunks: {summary.chunks}")
    print(f"quarantined blocks: {summary.quarantined_blocks}")
    print(f"unknown headings: {len(summary.unknown_headings)}")
    for issue in summary.unknown_headings:
        print(f"  {issue}")
    print(f"real-text hygiene: {len(summary.hygiene)} monographs changed")
    for h in summary.hygiene:
        print(f"  {h.summary()}")
        for span in h.headers_removed:
            print(f"    page header removed: {span}")
        for block in h.tables_quarantined:
            print(f"    flattened table quarantined: {block}")
        for note in h.misplaced:
            print(f"    misplaced text: {note}")
    print(f"errors: {len(summary.errors)}")
    for issue in summary.errors:
        print(f"  {issue}")
    print(f"index: {summary.index_path}")


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    progress = not args.no_progress and not args.json
    embedder = make_embedder(settings.embedder)  # EMBEDDER: the chunks get dense vectors too
    if settings.qdrant_url:
        # Serving reads the server when QDRANT_URL is set, so that is where the corpus must go.
        from retrieval.qdrant_index import QdrantServerIndex

        client = QdrantServerIndex.client_for(settings.qdrant_url)
        try:
            summary = ingest_qdrant(args.paths, client, settings.qdrant_collection, progress=progress,
                                    embedder=embedder)
        finally:
            client.close()
    else:
        summary = ingest(args.paths, settings.data_dir, progress=progress, embedder=embedder)
    if args.json:
        print(json.dumps(summary.to_json_dict(), ensure_ascii=False))
    else:
        _print_summary(summary)
    # Partial success still swaps the index in; a non-zero exit tells scripts some input was skipped.
    return 1 if summary.errors else 0
