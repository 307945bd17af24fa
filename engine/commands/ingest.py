"""`formulary-fsm ingest PATH... [--add] [--allow-errors] [--json]`: build the index under DATA_DIR.

Without --add the index holds exactly these files; with --add the serving index keeps its other monographs
and these are added, or replace the monograph of the same drug id. A run whose input had errors leaves the
serving index as it was unless --allow-errors. A running server notices a swapped index by itself.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from core.errors import ConfigurationError
from engine.config import load_settings
from retrieval.embedder import make_embedder
from retrieval.ingest import IngestSummary, ingest, ingest_qdrant


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                        help="formulary Markdown, JSON Lines, or a JSON export ({\"drugs\": [...]}) — the format is "
                             "read from each file's content — or folders holding .md/.jsonl/.json files")
    parser.add_argument("--add", action="store_true",
                        help="add these monographs to the serving index (replacing the same drug ids), keep the rest")
    parser.add_argument("--allow-errors", action="store_true",
                        help="swap the index in even when some input could not be loaded (skipped, reported)")
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
    print(f"real-text hygiene and dosage placement: {len(summary.hygiene)} monographs")
    for h in summary.hygiene:
        print(f"  {h.summary()}")
        for span in h.headers_removed:
            print(f"    page header removed: {span}")
        for block in h.tables_quarantined:
            print(f"    flattened table quarantined: {block}")
        for note in h.misplaced:
            print(f"    misplaced text: {note}")
        for line in h.dosage_unplaced:
            print(f"    dosage line not placed ({line})")
    print(f"errors: {len(summary.errors)}")
    for issue in summary.errors:
        print(f"  {issue}")
    if summary.kept_monographs:
        print(f"kept from the previous index: {summary.kept_monographs} monographs")
    if summary.swapped:
        print(f"index: {summary.index_path} (version {summary.index_version}, now serving)")
    else:
        print(f"index NOT swapped: {len(summary.errors)} error(s) in the input; fix them, or rerun with "
              f"--allow-errors to serve the rest. Still serving: {summary.index_version or 'no index'}")


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    progress = not args.no_progress and not args.json
    embedder = make_embedder(settings.embedder)  # EMBEDDER: the chunks get dense vectors too
    if settings.qdrant_url:
        # Serving reads the server when QDRANT_URL is set, so that is where the corpus must go.
        from retrieval.qdrant_index import QdrantServerIndex

        if args.add:
            raise ConfigurationError("ingest --add works on the embedded index only; with QDRANT_URL set, ingest "
                                     "the whole corpus (the collection alias moves to the new build)")
        client = QdrantServerIndex.client_for(settings.qdrant_url)
        try:
            summary = ingest_qdrant(args.paths, client, settings.qdrant_collection, progress=progress,
                                    embedder=embedder, allow_errors=args.allow_errors)
        finally:
            client.close()
    else:
        summary = ingest(args.paths, settings.data_dir, progress=progress, embedder=embedder, add=args.add,
                         allow_errors=args.allow_errors)
    if args.json:
        print(json.dumps(summary.to_json_dict(), ensure_ascii=False))
    else:
        _print_summary(summary)
    # Errors exit non-zero whether or not --allow-errors swapped the rest in: some input was skipped.
    return 1 if summary.errors else 0
