"""Dosing slots: which routes the dosage evidence offers, and when the route must be asked.

Route is deliberately NOT a universal required slot (reference system, 2026-08): the evidence decides.
One applicable route → answer now; several → clarify with the routes found as quick replies. This avoids
a chip funnel for a question that was already precise enough.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from retrieval.corpus import Chunk
from retrieval.text import fold
from states.frame import ROUTE_LABELS_VI, QueryFrame

# Folded keyword → route. Order matters only for readability; every match counts.
_ROUTE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("oral", re.compile(r"\b(uong|duong uong)\b")),
    ("rectal", re.compile(r"\b(dat truc trang|dat hau mon|truc trang|hau mon|thuoc dan)\b")),
    ("iv", re.compile(r"\b(tiem tinh mach|truyen tinh mach|tinh mach|truyen)\b")),
    ("im", re.compile(r"\b(tiem bap)\b")),
    ("sc", re.compile(r"\b(tiem duoi da)\b")),
    ("topical", re.compile(r"\b(boi|dung ngoai|ngoai da)\b")),
    ("inhaled", re.compile(r"\b(khi dung|hit|phun mu)\b")),
)
_LABEL = re.compile(r"^\s*\*([^*]{2,80}?):?\*\s*:?")
_POP_ADULT = re.compile(r"\b(nguoi lon|nguoi truong thanh)\b")
_POP_CHILD = re.compile(r"\b(tre em|tre so sinh|tre nho|tre \d|tre duoi|tre tren)\b")


def chunk_label(chunk: Chunk) -> str:
    """The italic label a dosing paragraph starts with (`*Uống – Trẻ em:*`), folded; '' if none."""
    m = _LABEL.match(chunk.text)
    return fold(m.group(1)) if m else ""


def routes_of(text: str) -> list[str]:
    folded = fold(text)
    return [route for route, pattern in _ROUTE_PATTERNS if pattern.search(folded)]


def population_of(text: str) -> set[str]:
    folded = fold(text)
    found: set[str] = set()
    if _POP_ADULT.search(folded):
        found.add("adult")
    if _POP_CHILD.search(folded):
        found.add("pediatric")
    return found


def regimen_chunks(evidence: Sequence[Chunk], population: str | None) -> list[Chunk]:
    """Dosage chunks that state a regimen for this population (labelled paragraphs preferred)."""
    labelled = [c for c in evidence if c.section_key == "lieu_luong_cach_dung" and chunk_label(c)]
    pool = labelled or [c for c in evidence if c.section_key == "lieu_luong_cach_dung"]
    if population is None:
        return pool
    matching = [c for c in pool if population in population_of(chunk_label(c) or c.text)]
    return matching


def routes_in_evidence(evidence: Sequence[Chunk], population: str | None) -> list[str]:
    """Routes for which the evidence gives a regimen for this population, in a stable order."""
    found: list[str] = []
    for chunk in regimen_chunks(evidence, population):
        source = chunk_label(chunk) or chunk.text
        for route in routes_of(source):
            if route not in found:
                found.append(route)
    order = list(ROUTE_LABELS_VI)
    return sorted(found, key=order.index)


def route_ambiguous(frame: QueryFrame, routes_found: Sequence[str]) -> bool:
    return (
        frame.turn_type == "dosing_calc"
        and not frame.section_overview
        and frame.route is None
        and len(routes_found) > 1
    )


def route_not_documented(frame: QueryFrame, routes_found: Sequence[str]) -> bool:
    """The user chose a route the dosage evidence gives no regimen for (ibuprofen "đặt trực tràng")."""
    return (
        frame.turn_type == "dosing_calc"
        and not frame.section_overview
        and frame.route is not None
        and bool(routes_found)
        and frame.route not in routes_found
    )


def route_quick_replies(routes_found: Sequence[str]) -> list[str]:
    return [ROUTE_LABELS_VI[r] for r in routes_found]
