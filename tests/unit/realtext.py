"""The real extracted DTQG 2018 text in ../shared/realtext (never copied into the repository): readers that skip,
saying so, when the folder is absent."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from core.corpus import Chunk
from retrieval.chunking import chunk_monograph
from retrieval.ingest import load_corpus

REALTEXT = Path(__file__).resolve().parents[2].parent / "shared" / "realtext"
SOURCE = REALTEXT / "source"


def has_realtext() -> bool:
    return SOURCE.is_dir()


def real_field(stem: str, key: str) -> str:
    """One field (`=== key`) of a real monograph record, e.g. real_field("498_paracetamol", "lieu_dung")."""
    if not has_realtext():
        pytest.skip(f"real DTQG text not present at {REALTEXT} (CI has it): real-text test skipped")
    text = (SOURCE / f"{stem}.txt").read_text(encoding="utf-8")
    m = re.search(rf"^=== {re.escape(key)}\n(.*?)(?=^=== |\Z)", text, re.S | re.M)
    assert m, f"{stem} has no field {key}"
    return m.group(1).strip()


def real_stems() -> list[str]:
    return sorted(p.stem for p in SOURCE.glob("*.txt")) if has_realtext() else []


@cache
def _real_chunks() -> dict[str, list[Chunk]]:
    monographs, _ = load_corpus([REALTEXT / "dtqg_real.jsonl"])
    return {m.drug_id: chunk_monograph(m) for m in monographs}


def real_chunks(drug: str, *section_keys: str) -> list[Chunk]:
    """The chunks of one real monograph's sections, as the engine indexes them (loaded once per test session)."""
    if not has_realtext():
        pytest.skip(f"real DTQG text not present at {REALTEXT} (CI has it): real-text test skipped")
    return [c for c in _real_chunks()[drug] if c.section_key in section_keys]
