"""The Claude understander: a QueryFrame through forced tool use, bounded by the resolver's candidates.

The model only extracts; the code decides which slots are required (routing). The resolver has already
bounded the drug set before the model runs: the candidates are bound into the prompt, and the reply is
checked against them — an id outside the set is dropped and reported (the runner re-checks). The patient
values are checked against the user's words the same way (states.provenance). It fails closed: any provider failure or invalid output
raises, and the runner turns that into abstain / system_error.
"""

from __future__ import annotations

import copy
import json
import logging
from typing import Any

from core.budget import RequestBudget
from core.sections import SECTION_HEADINGS
from grounding.anthropic_adapter import ClaudeClient, ToolSpec, parse_tool_input
from states.frame import QueryFrame
from states.provenance import grounded
from states.understander import Understanding, UnderstandingRequest

log = logging.getLogger(__name__)

CALL_SITE = "understand"
TOOL_NAME = "record_query_frame"
HISTORY_LINES = 12
_NOT_EXTRACTED = ("understood_by", "confidence", "unanswered", "notes", "route_family", "weight_text", "kept",
                  "listed", "shorthand", "shorthand_of", "kept_pending", "routes_unusable",
                  "harm_refused", "taking")
"""Set by the code, never by the model."""

SYSTEM_PROMPT = f"""\
You are the understanding step of a question-answering service over the Vietnamese national drug formulary
(Dược thư Quốc gia Việt Nam 2018). Users are clinicians and pharmacists writing in Vietnamese, often without
diacritics, with typos and with brand names. You never answer the question: you only extract what the turn
asks into the {TOOL_NAME} tool, and you must call that tool exactly once.

Rules:
- Extract, do not decide. The service decides which facts are required; never invent a value the turn and
  the conversation do not state. Leave a field null/empty/false when it is not stated.
- drugs: formulary drug ids, chosen ONLY from the candidate list given with the turn, in the order the turn
  names them. Never write an id that is not a candidate. A name that looks like a drug but matches no
  candidate goes to unknown_drugs, as written.
- turn_type: drug_attribute (one section of a drug: contraindications, adverse effects, pregnancy, storage…),
  drug_overview (the drug in general), dosing_calc (dose, how to take it), interaction (two or more drugs
  together), condition_to_drug / symptom_to_drug (which drugs for a condition or a symptom),
  condition_relation (whether a drug relates to a condition other than as its indication), smalltalk
  (greetings, thanks), out_of_scope (anything the formulary does not cover).
- section_key: one of {", ".join(SECTION_HEADINGS)}; section_overview is true when the turn asks for a whole
  section or the whole monograph rather than one fact.
- population: "adult" or "pediatric" only when stated ("trẻ em", "bé", "cháu 5 tuổi" → pediatric;
  "người lớn" → adult). age_text as written; age_months in months (5 tuổi → 60; 18 tháng → 18).
  weight_kg in kilograms. route: oral (uống), rectal (đặt hậu môn/trực tràng), iv, im, sc, topical, inhaled.
- condition: the condition or symptom as written; condition_relation: indication, contraindication,
  adverse_effect, caution or other; condition_ambiguous when the condition could mean several things.
- Patient context: comorbidities, renal/hepatic impairment as written, pregnant, breastfeeding.
- non_human: true when the subject is an animal (veterinary use: chó, mèo, bò…).
- A short reply to the pending question ("Uống", "18 kg", "5 tuổi", a quick-reply chip) continues the prior
  frame: fill only what the reply states; the service merges it with the prior frame.
- needs_clarify with a short clarify_reason and Vietnamese quick_replies only when the turn is too vague to
  extract a question at all.
"""


def frame_schema() -> dict[str, Any]:
    """QueryFrame's JSON schema minus the fields the code sets.

    The candidate ids are bound in the prompt, not here: tools come first in the prompt-cache prefix, so a
    per-turn enum would make every turn miss the cache of the tools and the system prompt. The reply is
    checked against the candidates instead (and again by the runner).
    """
    schema = copy.deepcopy(QueryFrame.model_json_schema())
    for name in _NOT_EXTRACTED:
        schema["properties"].pop(name, None)
    schema.pop("title", None)
    schema["properties"]["section_key"] = {
        "anyOf": [{"type": "string", "enum": list(SECTION_HEADINGS)}, {"type": "null"}], "default": None
    }
    return schema


FRAME_TOOL = ToolSpec(TOOL_NAME, "Record what the user's turn asks, as a structured query frame.", frame_schema())


def user_message(request: UnderstandingRequest) -> str:
    """The per-turn part of the prompt (the system prompt stays identical, hence cacheable)."""
    lines: list[str] = []
    history = request.history[-HISTORY_LINES:]
    if history:
        lines += ["Conversation so far (oldest first):", *history, ""]
    if request.prior_frame is not None:
        prior = request.prior_frame.model_dump(exclude={"understood_by", "confidence"}, exclude_defaults=True)
        lines += [f"Prior frame: {json.dumps(prior, ensure_ascii=False)}", ""]
    if request.pending is not None:
        lines += [f"Pending question ({request.pending.reason}): {request.pending.question}",
                  f"Quick replies offered: {', '.join(request.pending.quick_replies) or '(none)'}", ""]
    if request.candidates.candidates:
        lines.append("Candidate drugs (the only ids you may put in drugs):")
        lines += [f"- {c.drug_id} (matched \"{c.span}\" as \"{c.matched}\", score {c.score:.0f})"
                  for c in request.candidates.candidates]
    else:
        lines.append("Candidate drugs: none — drugs must stay empty.")
    if request.candidates.unknown:
        lines.append(f"Names not in the formulary: {', '.join(request.candidates.unknown)}")
    lines += ["", f"Turn: {request.text}"]
    return "\n".join(lines)


class ClaudeUnderstander:
    name = "anthropic"

    def __init__(self, client: ClaudeClient) -> None:
        self.client = client

    def understand(self, request: UnderstandingRequest, budget: RequestBudget) -> Understanding:
        candidate_ids = request.candidates.drug_ids
        raw = self.client.call_tool(
            CALL_SITE, SYSTEM_PROMPT, [{"role": "user", "content": user_message(request)}], FRAME_TOOL, budget
        )
        return understanding_from_output(raw, candidate_ids, request)


def understanding_from_output(
    raw: dict[str, Any], candidate_ids: list[str], request: UnderstandingRequest | None = None
) -> Understanding:
    """Validate a recorded tool input into an Understanding (also what replay runs on a stored output).

    With the turn's `request`, the frame's patient values are grounded in the user's words; replay passes it
    too, so a stored model output is re-checked exactly as it was live.
    """
    data = {k: v for k, v in raw.items() if k not in _NOT_EXTRACTED}
    frame = parse_tool_input(QueryFrame, data, CALL_SITE)
    allowed = set(candidate_ids)
    invented = [d for d in frame.drugs if d not in allowed]
    notes: list[str] = []
    if invented:
        # A model may only choose among the resolver's candidates: drop, and say so in the trace.
        notes.append(f"understand: dropped drug ids outside the candidate set: {invented}")
        log.warning("understander returned drug ids outside the candidate set", extra={"invented": invented})
    frame = frame.model_copy(update={"drugs": [d for d in frame.drugs if d in allowed], "understood_by": "anthropic"})
    understood = Understanding(frame=frame, provider_output=raw, notes=notes)
    return grounded(understood, request) if request is not None else understood
