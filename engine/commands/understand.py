"""`formulary-fsm understand "…"`: print what the machine understood of one turn, as JSON.

A debugging and clinical-review tool. The turn goes through the same resolver and configured understander as a
live turn (the rules understander by default), over the index under DATA_DIR; `--after` replays earlier turns
first (rules + frame merge, treating a turn the machine would clarify as awaiting an answer), so a follow-up
like "còn trẻ em thì sao?" shows the merged frame.

    formulary-fsm understand "Liều paracetamol cho bé 5 tuổi 18kg"
    formulary-fsm understand "Bé nặng 18 kg" --after "Liều paracetamol cho trẻ em?"
"""

from __future__ import annotations

import argparse
import json

from core.budget import RequestBudget
from engine.config import load_settings
from engine.wiring import make_understander, open_index
from retrieval.resolver import DrugResolver
from retrieval.service import RetrievalService
from states import routing
from states.frame import Pending, QueryFrame
from states.merge import merge_frames
from states.understander import Understander, UnderstandingRequest

# The field names first (the review reads these), then the rest of the frame.
KEY_FIELDS = ("turn_type", "drugs", "unknown_drugs", "section_key", "population", "age_months", "weight_kg",
              "route", "condition", "needs_clarify", "confidence")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", help="the user turn, in Vietnamese (with or without diacritics)")
    parser.add_argument("--after", action="append", default=[], metavar="TURN",
                        help="an earlier user turn of the same conversation (repeatable, oldest first)")
    parser.add_argument("--candidates", action="store_true",
                        help="also print the resolver's candidates and unknown names")
    parser.add_argument("--compact", action="store_true", help="one line of JSON")


def _pending_after(frame: QueryFrame) -> Pending | None:
    """What the machine would ask after this frame (the slot rows of the routing table), if anything."""
    if frame.non_human or frame.turn_type in ("smalltalk", "out_of_scope", "condition_relation"):
        return None
    if routing.dosing_population_unknown(frame):
        return Pending(reason="missing_population", missing=["population"])
    if routing.pediatric_age_or_weight_missing(frame):
        missing = [s for s, v in (("age", frame.age_months), ("weight", frame.weight_kg)) if v is None]
        return Pending(reason="missing_pediatric_age_or_weight", missing=missing)
    if routing.attribute_missing(frame):
        return Pending(reason="missing_attribute", missing=["attribute"])
    if routing.is_condition_turn(frame) or routing.only_unknown_drugs(frame):
        return None
    if routing.no_drug(frame):
        return Pending(reason="no_drug", missing=["drug"])
    return None


def understand_turns(turns: list[str], resolver: DrugResolver, understander: Understander,
                     budget: RequestBudget) -> tuple[QueryFrame, UnderstandingRequest]:
    prior: QueryFrame | None = None
    pending: Pending | None = None
    history: list[str] = []
    frame = QueryFrame()
    request: UnderstandingRequest | None = None
    for text in turns:
        request = UnderstandingRequest(text=text, history=history[-12:], prior_frame=prior, pending=pending,
                                       candidates=resolver.resolve(text))
        understood = understander.understand(request, budget).frame
        allowed = set(request.candidates.drug_ids)
        understood = understood.model_copy(update={"drugs": [d for d in understood.drugs if d in allowed]})
        frame = merge_frames(understood, prior, pending, text)
        history.append(f"Người dùng: {text}")
        prior, pending = frame, _pending_after(frame)
    assert request is not None
    return frame, request


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    index = open_index(settings)
    try:
        retrieval = RetrievalService(index)
        understander = make_understander(settings, retrieval)
        resolver = DrugResolver(retrieval.names.entries())
        budget = RequestBudget(settings.max_wall_clock_ms, settings.max_llm_calls_per_turn)
        frame, request = understand_turns([*args.after, args.text], resolver, understander, budget)
    finally:
        index.close()
    dumped = frame.model_dump()
    out: dict[str, object] = {k: dumped[k] for k in KEY_FIELDS}
    out.update({k: v for k, v in dumped.items() if k not in out})
    if args.candidates:
        out["resolver"] = request.candidates.model_dump()
    print(json.dumps(out, ensure_ascii=False, indent=None if args.compact else 2))
    return 0
