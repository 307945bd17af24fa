"""Small helpers for the grounding tests: inline chunks, and a plain reader of the fixture formulary files.

The reader is deliberately simple (headings → section keys, one chunk per blank-line paragraph of the
dosage section, one chunk per other section, quarantined blocks as their own flagged chunk) so these tests
do not depend on the Markdown loader being written alongside them.
"""

from __future__ import annotations

import re
from pathlib import Path

from core.corpus import Chunk
from core.sections import SECTION_HEADINGS
from core.text import fold

FORMULARY = Path(__file__).resolve().parents[2] / "fixtures" / "formulary"
_FOLDED_HEADINGS = {fold(h).replace("(adr)", "").strip(): k for k, h in SECTION_HEADINGS.items()}
# The heading variants the fixture uses on purpose (the real loader tolerates more).
_FOLDED_HEADINGS |= {
    "thoi ki mang thai": "thoi_ky_mang_thai",
    "lieu dung va cach dung": "lieu_luong_cach_dung",
    "thong tin qui che": "thong_tin_quy_che",
    "tac dung khong mong muon": "tac_dung_khong_mong_muon",
    "qua lieu cap tinh va xu tri": "qua_lieu_xu_tri",
}
_QUARANTINE = re.compile(r"<!-- QUARANTINED.*?<!-- /QUARANTINED -->", re.DOTALL)


def chunk(doc_id: str, text: str, *, title: str = "", page: int | None = None, quarantined: bool = False) -> Chunk:
    drug_id, section_key, _ = doc_id.split("__")
    return Chunk(doc_id=doc_id, drug_id=drug_id, section_key=section_key, text=text, page=page,
                 has_quarantined_content=quarantined, drug_title=title or drug_id.upper())


def _key(heading: str) -> str | None:
    folded = fold(heading.replace("*", "")).replace("(adr)", "").strip()
    return _FOLDED_HEADINGS.get(folded)


def fixture_chunks(drug_id: str) -> list[Chunk]:
    text = (FORMULARY / f"{drug_id}.md").read_text(encoding="utf-8")
    title_match = re.search(r"^# \*\*(.+?)\*\*", text, re.MULTILINE)
    title = title_match.group(1) if title_match else drug_id.upper()
    chunks: list[Chunk] = []
    for part in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        heading, _, body = part.partition("\n")
        key = _key(heading)
        if key is None:
            continue
        counter = 0

        def add(piece: str, quarantined: bool = False, key: str = key) -> None:
            nonlocal counter
            piece = re.sub(r"<!-- page: \d+ -->", "", piece).strip()
            if piece:
                chunks.append(chunk(f"{drug_id}__{key}__{counter}", piece, title=title, quarantined=quarantined))
                counter += 1

        for q in _QUARANTINE.findall(body):
            add(q, quarantined=True)
        body = _QUARANTINE.sub("", body)
        pieces = re.split(r"\n\s*\n", body) if key == "lieu_luong_cach_dung" else [body]
        for piece in pieces:
            add(piece)
    return chunks


def has_fixture(drug_id: str) -> bool:
    return (FORMULARY / f"{drug_id}.md").exists()
