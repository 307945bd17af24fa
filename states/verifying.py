"""The `verifying` state's step: deterministic citation and number grounding, then entailment."""

from __future__ import annotations

from core.text import fold
from grounding.answer import EntailmentResult
from grounding.verify import verify_grounding
from states.generating import generation_request
from states.step import ProviderOutput, Services, TurnView, Update, provider_call, update


def verify(ctx: TurnView, services: Services) -> Update:
    assert ctx.answer is not None
    answer = ctx.answer
    request = generation_request(ctx, services)
    grounding = verify_grounding(answer, ctx.evidence, candidate_drug_ids=request.candidate_drug_ids
                                 if request.mode == "list" else None, weight_kg=ctx.frame.weight_kg,
                                 # A dosing answer is bound to its patient: a quoted line of another population,
                                 # band or route, or a left-out ceiling, is a grounding problem (issue #19.2) —
                                 # whichever generator wrote it, a verbatim quote included.
                                 request=request)
    entailment: EntailmentResult | None = None
    if not grounding.ok:
        return update(grounding=grounding, entailment=entailment,
                      notes=[f"grounding: {p}" for p in grounding.problems])

    def run() -> None:
        nonlocal entailment
        entailment = services.verifier.verify(answer, ctx.evidence, ctx.budget)

    failure = provider_call("entail", run)
    outputs: list[ProviderOutput] = []
    notes: list[str] = []
    if entailment is not None and services.verifier.calls_llm:
        outputs.append(ProviderOutput(site="entail", output=entailment.model_dump()))
    if entailment is not None and grounding.omissions:
        # The ceiling (or, in a list, the patient's exclusion of a listed drug) code found left out joins the verifier's omissions, once each (the lexical verifier finds the
        # same line): the omission guards route the turn to repair, whichever verifier ran.
        known = {fold(o) for o in entailment.omissions}
        added = [o for o in grounding.omissions if fold(o) not in known]
        entailment = entailment.model_copy(update={"ok": False, "omissions": [*entailment.omissions, *added]})
        what = ("the sentence excluding this patient" if request.mode == "list" else "the applicable maximum",
                "list exclusion" if request.mode == "list" else "dosing binding")
        notes += [f"omission: {what[0]} «{o}» is not stated ({what[1]}: omission)" for o in added]
    if entailment is not None and not entailment.ok:
        notes += [f"entailment: {p}" for p in entailment.problems]
    return update(grounding=grounding, entailment=entailment, failure=failure, notes=notes, outputs=outputs)
