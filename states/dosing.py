"""Dosing slots: which routes the dosage evidence offers, and when the route must be asked.

Route is deliberately NOT a universal required slot (reference system, 2026-08): the evidence decides.
One applicable route → answer now; several → clarify with the routes found as quick replies. This avoids
a chip funnel for a question that was already precise enough.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.corpus import Chunk
from core.vocabulary import ROUTE_LABELS_VI
from grounding.dosing_select import label_of, population_of, routes_of
from states.frame import QueryFrame


def chunk_label(chunk: Chunk) -> str:
    """The italic label a dosing paragraph starts with (`*Uống – Trẻ em:*`), folded; '' if none."""
    return label_of(chunk.text)


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
