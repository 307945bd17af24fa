"""A follow-up's words settled against the formulary before routing: "đường tiêm" becomes the one injection route
the dosage text gives, and a condition spelt otherwise than the book ("mề đay") takes the book's spelling.

Run at the end of understanding (one index lookup by exact filter, only for these turns): the routing guards and
the generator then read a frame that names what the book names. An index outage leaves the frame as it is; the
retrieval step that follows reports it.
"""

from __future__ import annotations

from core.errors import IndexUnavailable
from retrieval.service import RetrievalService
from states import paths
from states.conditions import condition_as_in_book, condition_spellings
from states.followup import settle_route_family
from states.frame import QueryFrame

_CONDITION_TURNS = ("condition_to_drug", "symptom_to_drug")


def settle_against_book(frame: QueryFrame, retrieval: RetrievalService) -> QueryFrame:
    try:
        if (frame.route is None and frame.route_family == "injection" and frame.turn_type == "dosing_calc"
                and frame.drugs and frame.section_key == "lieu_luong_cach_dung"):
            _, routes = paths.single_drug_evidence(retrieval, frame)
            frame = settle_route_family(frame, routes)
        if frame.condition and frame.turn_type in _CONDITION_TURNS and len(condition_spellings(frame.condition)) > 1:
            evidence, _ = paths.condition_evidence(retrieval, frame)
            frame = condition_as_in_book(frame, evidence)
    except IndexUnavailable:
        return frame
    return frame
