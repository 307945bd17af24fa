"""Section → chunks, the unit of retrieval and citation.

Rules (each keeps a dosing block whole, because the engine selects dosing blocks by their label):
- paragraphs (blank-line separated) are units; consecutive plain paragraphs share a chunk up to `max_chars`;
- a line starting with an italic label (`*Uống – Trẻ em:*`, `*Cách dùng:*`, `*Suy thận:*`,
  `*Thường gặp, ADR > 1/100*`) starts a new unit and a new chunk, and keeps its list lines with it;
- a quarantined block is a chunk of its own with `has_quarantined_content=True`;
- a unit longer than `max_chars` is split at line, then sentence boundaries; the pieces of a labelled
  unit repeat its label so each piece still says whom it is for.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from core.corpus import Chunk, Monograph, Section
from retrieval.markdown_loader import PAGE_MARKER, QUARANTINE_END, QUARANTINE_START

MAX_CHARS = 900
_LABEL = re.compile(r"^\*(?!\*)[^*\n]+?\*:?")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")


@dataclass
class _Unit:
    lines: list[str]
    page: int | None
    labelled: bool = False
    quarantined: bool = False

    @property
    def text(self) -> str:
        return "\n".join(self.lines).strip()


def _units(section: Section) -> Iterator[_Unit]:
    page = section.page
    current: _Unit | None = None
    quarantine: _Unit | None = None
    for raw in section.text.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if quarantine is not None:
            if QUARANTINE_END.match(stripped):
                yield quarantine
                quarantine = None
            elif stripped:
                quarantine.lines.append(line)
            continue
        if marker := PAGE_MARKER.match(stripped):
            page = int(marker.group(1))
            continue
        if start := QUARANTINE_START.match(stripped):
            if current is not None:
                yield current
                current = None
            reason = start.group(1).strip()
            quarantine = _Unit(lines=[f"[{reason}]"] if reason else [], page=page, quarantined=True)
            continue
        if not stripped:
            if current is not None:
                yield current
                current = None
            continue
        if _LABEL.match(stripped):
            if current is not None:
                yield current
            current = _Unit(lines=[stripped], page=page, labelled=True)
            continue
        if current is None:
            current = _Unit(lines=[], page=page)
        current.lines.append(stripped)
    if current is not None:
        yield current
    if quarantine is not None:  # unterminated: still quarantined (the loader reported it)
        yield quarantine


def _pack(pieces: list[str], max_chars: int, sep: str) -> list[str]:
    packed: list[str] = []
    for piece in pieces:
        if packed and len(packed[-1]) + len(sep) + len(piece) <= max_chars:
            packed[-1] = packed[-1] + sep + piece
        else:
            packed.append(piece)
    return packed


def _split_long(text: str, max_chars: int) -> list[str]:
    if len(text) <= max_chars:
        return [text]
    pieces: list[str] = []
    for line in text.split("\n"):
        pieces.extend([line] if len(line) <= max_chars else _pack(_SENTENCE_END.split(line), max_chars, " "))
    return _pack(pieces, max_chars, "\n")


def _split_unit(unit: _Unit, max_chars: int) -> list[str]:
    text = unit.text
    if len(text) <= max_chars:
        return [text]
    if not unit.labelled:
        return _split_long(text, max_chars)
    label_match = _LABEL.match(text)
    label = label_match.group(0) if label_match else ""
    body = text[len(label):].strip()
    budget = max(max_chars - len(label) - 1, max_chars // 2)
    pieces = _split_long(body, budget)
    return [f"{label} {pieces[0]}".strip(), *(f"{label}\n{p}" for p in pieces[1:])]


@dataclass
class _Draft:
    text: str
    page: int | None
    quarantined: bool = False
    continues: bool = False
    """A later piece of one paragraph split for length (the dosage tree re-joins it with a space)."""


def _mid_line(text: str, piece: str) -> bool:
    """The piece starts inside a line of the unit (a long flattened paragraph cut at a sentence), not at one."""
    at = text.find(piece)
    return at > 0 and text[at - 1] != "\n"


def _drafts(section: Section, max_chars: int) -> list[_Draft]:
    drafts: list[_Draft] = []
    open_draft: _Draft | None = None  # the plain/labelled chunk that may still absorb a plain paragraph
    for unit in _units(section):
        if unit.quarantined:
            drafts.append(_Draft(text=unit.text, page=unit.page, quarantined=True))
            open_draft = None
            continue
        if not unit.text:
            continue
        pieces = _split_unit(unit, max_chars)
        if len(pieces) == 1 and not unit.labelled and open_draft is not None \
                and len(open_draft.text) + 2 + len(pieces[0]) <= max_chars:
            open_draft.text += "\n\n" + pieces[0]
            continue
        for i, piece in enumerate(pieces):
            drafts.append(_Draft(text=piece, page=unit.page,
                                 continues=i > 0 and not unit.labelled and _mid_line(unit.text, piece)))
        open_draft = drafts[-1] if len(pieces) == 1 else None
    return drafts


def section_of_doc(doc_id: str) -> str:
    """The section key a chunk's doc_id names (see `chunk_section`); '' for an id of another shape."""
    parts = doc_id.split("__")
    return parts[1] if len(parts) == 3 else ""


def chunk_section(drug_id: str, drug_title: str, section: Section, *, start: int = 0,
                  max_chars: int = MAX_CHARS) -> list[Chunk]:
    """Chunks of one section, numbered from `start` (doc_id `{drug_id}__{section_key}__{n}`)."""
    return [
        Chunk(doc_id=f"{drug_id}__{section.key}__{start + i}", drug_id=drug_id, section_key=section.key,
              text=d.text, page=d.page, has_quarantined_content=d.quarantined, drug_title=drug_title,
              continues=d.continues)
        for i, d in enumerate(_drafts(section, max_chars))
    ]


def chunk_monograph(monograph: Monograph, *, max_chars: int = MAX_CHARS) -> list[Chunk]:
    """Every chunk of a monograph in book order. A section key that occurs twice keeps numbering on."""
    next_n: defaultdict[str, int] = defaultdict(int)
    chunks: list[Chunk] = []
    for section in monograph.sections:
        part = chunk_section(monograph.drug_id, monograph.title, section, start=next_n[section.key],
                             max_chars=max_chars)
        next_n[section.key] += len(part)
        chunks.extend(part)
    return chunks
