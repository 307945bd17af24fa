"""The fixture formulary and its transcripts, loaded once per group process."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from core.corpus import DrugNames, Monograph

FIXTURE_DIR = Path(__file__).resolve().parents[1] / "fixtures"
TRANSCRIPTS_DIR = FIXTURE_DIR / "transcripts"
LABELLED_UNDERSTANDING = FIXTURE_DIR / "labelled" / "understanding.jsonl"


@functools.cache
def fixture_monographs() -> tuple[Monograph, ...]:
    from retrieval.ingest import FIXTURE_FORMULARY, load_corpus

    monographs, _ = load_corpus([FIXTURE_FORMULARY])
    return tuple(monographs)


def fixture_names() -> list[DrugNames]:
    from retrieval.monograph_names import names_of

    return [names_of(m) for m in fixture_monographs()]


def transcripts() -> list[dict[str, Any]]:
    """Every golden conversation (fixtures/transcripts/*.jsonl), in file order; [] when none exist yet."""
    found: list[dict[str, Any]] = []
    for path in sorted(TRANSCRIPTS_DIR.glob("*.jsonl")) if TRANSCRIPTS_DIR.is_dir() else []:
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if not line or line.startswith("//"):
                continue
            row = json.loads(line)
            if isinstance(row, dict) and row.get("turns"):
                found.append(row)
    return found


def labelled_texts() -> list[str]:
    """The user texts of the labelled understanding set, in file order."""
    texts: list[str] = []
    for line in LABELLED_UNDERSTANDING.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            if "text" in row:
                texts.append(row["text"])
    return texts


def labelled_conversations(limit: int | None = None) -> list[list[str]]:
    """Single-turn conversations from the labelled understanding set (each text is its own conversation)."""
    texts = labelled_texts()
    return [[t] for t in (texts[:limit] if limit else texts)]


def conversations() -> list[list[str]]:
    """The user turns of the golden transcripts, then the labelled single turns: a realistic mix."""
    golden = [[str(t["user"]) for t in c["turns"] if "user" in t] for c in transcripts()]
    return [c for c in golden if c] + labelled_conversations()
