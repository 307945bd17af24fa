"""The `understanding` state's step: resolve drug names, understand the turn, merge it with the conversation."""

from __future__ import annotations

from retrieval.resolver import ResolverResult
from states import replies
from states.dosing import carried_child_may_take
from states.frame import QueryFrame
from states.merge import merge_frames
from states.nicknames import without_nickname_names
from states.refusal import refusal_of
from states.relabel import kept_child
from states.step import ProviderOutput, Services, TurnView, Update, provider_call, update
from states.synthesis import synthesize_query
from states.understander import UnderstandingRequest

_LOOKUPS = ("condition_to_drug", "symptom_to_drug", "condition_relation")


def with_shorthand(merged: QueryFrame, turn: QueryFrame, candidates: ResolverResult) -> QueryFrame:
    """A turn naming no drug but a shorthand several drugs begin with ("liều cef cho người lớn") asks which drug,
    the candidates as quick replies: neither one of them guessed nor the conversation's earlier drug carried (the
    question and the patient stay, for the answer to fill in)."""
    if turn.drugs or turn.unknown_drugs or turn.non_human or not candidates.ambiguous or turn.turn_type in _LOOKUPS:
        return merged.model_copy(update={"shorthand": None, "shorthand_of": []}) if merged.shorthand else merged
    first = candidates.ambiguous[0]
    update: dict[str, object] = {"drugs": [], "listed": [], "shorthand": first.span, "shorthand_of": first.drug_ids}
    if merged.turn_type in ("smalltalk", "out_of_scope"):
        update.update(turn_type="drug_overview", kept=None)
    elif merged.turn_type == "dosing_calc" and merged.section_key is None:
        # "ibu cho bé 3 tuổi 14kg": a dose question as "ibuprofen cho bé …" is; without its section, the drug named
        # in answer to "có phải là Ibuprofen không?" got the overview instead of the child's dose.
        update.update(section_key="lieu_luong_cach_dung")
    return merged.model_copy(update=update)


def with_refusal(merged: QueryFrame, text: str) -> QueryFrame:
    """A lethal-amount or prescription request is declined, whatever drug or patient it names (states.refusal); a
    refusal never outlives its turn."""
    refusal = refusal_of(text)
    if refusal is not None:
        return merged.model_copy(update={"turn_type": "out_of_scope", "refusal": refusal, "section_key": None,
                                         "needs_clarify": False, "clarify_reason": None, "quick_replies": []})
    return merged.model_copy(update={"refusal": None}) if merged.refusal is not None else merged


def understand(ctx: TurnView, services: Services) -> Update:
    # A child's nickname ("bé Mimi", "cu Tony") is the child, not a drug the formulary lacks (states.nicknames).
    candidates = without_nickname_names(services.resolver.resolve(ctx.text), ctx.text, ctx.history)
    request = UnderstandingRequest(
        text=ctx.text,
        history=ctx.history,
        prior_frame=ctx.prior_frame,
        pending=ctx.pending,
        candidates=candidates,
    )
    notes: list[str] = []
    outputs: list[ProviderOutput] = []
    merged: QueryFrame | None = None
    understood_by: str | None = None

    def run() -> None:
        nonlocal merged, understood_by
        understood = services.understander.understand(request, ctx.budget)
        if understood.provider_output is not None:
            outputs.append(ProviderOutput(site="understand", output=understood.provider_output))
        notes.extend(understood.notes)
        allowed = set(candidates.drug_ids)
        frame = understood.frame
        invented = [d for d in frame.drugs if d not in allowed]
        if invented:
            # A model may only choose among the resolver's candidates.
            notes.append(f"dropped drug ids outside the candidate set: {invented}")
            frame = frame.model_copy(update={"drugs": [d for d in frame.drugs if d in allowed]})
        merged = with_shorthand(merge_frames(frame, ctx.prior_frame, ctx.pending, ctx.text), frame, candidates)
        # A child relabelled to unlock a dose keeps the child's own values (states.relabel: safety reason there).
        merged = kept_child(merged, ctx.prior_frame, ctx.text)
        merged = carried_child_may_take(merged, ctx.text)
        merged = with_refusal(merged, ctx.text)
        understood_by = frame.understood_by

    failure = provider_call("understand", run)
    if failure is not None or merged is None:
        merged = QueryFrame(non_human=replies.looks_non_human(ctx.text))
    query = synthesize_query(merged, ctx.text)
    return update(frame=merged, understanding_failed=failure is not None, understood_by=understood_by, query=query,
                  failure=failure, notes=notes, outputs=outputs)
