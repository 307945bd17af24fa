"""The fixture formulary's dosage blocks, as the engine chunks them, for the calculator tests."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from core.corpus import Chunk
from retrieval.chunking import chunk_monograph
from retrieval.markdown_loader import load_markdown

FORMULARY = Path(__file__).resolve().parents[2] / "fixtures" / "formulary"
DOSING = "lieu_luong_cach_dung"


@cache
def monograph_chunks(drug_id: str) -> tuple[Chunk, ...]:
    monographs, _ = load_markdown(FORMULARY / f"{drug_id}.md")
    return tuple(chunk_monograph(monographs[0]))


def dosing_chunks(drug_id: str) -> list[Chunk]:
    return [c for c in monograph_chunks(drug_id) if c.section_key == DOSING]


def all_dosing_chunks() -> list[Chunk]:
    return [c for path in sorted(FORMULARY.glob("*.md")) for c in dosing_chunks(path.stem)]
