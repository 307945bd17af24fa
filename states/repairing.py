"""The `repairing` state's step: ask the generator to add what the verifier found omitted, once."""

from __future__ import annotations

from grounding.answer import Answer
from states.generating import generation_request
from states.step import ProviderOutput, Services, TurnView, Update, provider_call, update


def repair(ctx: TurnView, services: Services) -> Update:
    assert ctx.answer is not None and ctx.entailment is not None
    answer, omissions = ctx.answer, ctx.entailment.omissions
    repaired: Answer | None = None

    def run() -> None:
        nonlocal repaired
        repaired = services.generator.repair(generation_request(ctx, services), answer, omissions, ctx.budget)

    failure = provider_call("repair", run)
    if repaired is None:
        return update(repairs=ctx.repairs + 1, failure=failure)
    recorded = repaired.model_dump()
    # The calculation was computed by code (calculating state) from the cited line and the frame's weight, not
    # by the generator; a generator that rewrites the answer (Claude) returns none. It stays under the repaired
    # answer, and verifying checks it again against the evidence (a derivation that no longer reproduces fails).
    if not repaired.calculations and not repaired.calculation_notes:
        repaired = repaired.model_copy(update={"calculations": answer.calculations,
                                               "calculation_notes": answer.calculation_notes})
    return update(repairs=ctx.repairs + 1, answer=repaired, failure=failure,
                  outputs=[ProviderOutput(site="repair", output=recorded)])
