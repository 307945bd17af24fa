"""The `understanding` state's step: resolve drug names, understand the turn, merge it with the conversation."""

from __future__ import annotations

from states import replies
from states.frame import QueryFrame
from states.merge import merge_frames
from states.relabel import kept_child
from states.step import ProviderOutput, Services, TurnView, Update, provider_call, update
from states.synthesis import synthesize_query
from states.understander import UnderstandingRequest


def understand(ctx: TurnView, services: Services) -> Update:
    candidates = services.resolver.resolve(ctx.text)
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
        merged = merge_frames(frame, ctx.prior_frame, ctx.pending, ctx.text)
        # A child relabelled to unlock a dose keeps the child's own values (states.relabel: safety reason there).
        merged = kept_child(merged, ctx.prior_frame, ctx.text)
        understood_by = frame.understood_by

    failure = provider_call("understand", run)
    if failure is not None or merged is None:
        merged = QueryFrame(non_human=replies.looks_non_human(ctx.text))
    query = synthesize_query(merged, ctx.text)
    return update(frame=merged, understanding_failed=failure is not None, understood_by=understood_by, query=query,
                  failure=failure, notes=notes, outputs=outputs)
