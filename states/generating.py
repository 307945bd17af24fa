"""The `generating` state's step, and the generation request the verifying and repairing steps share."""

from __future__ import annotations

import threading

from grounding.answer import Answer, GenerationRequest
from states import paths
from states.step import ProviderOutput, Services, TurnView, Update, provider_call, update

_last = threading.local()
"""This thread's last request and the objects it was built from (`generation_request`)."""


def generation_request(ctx: TurnView, services: Services) -> GenerationRequest:
    """The request generation sees, built once per turn: the generating step builds it, and the verifying and
    repairing steps of the same turn get that same request back as long as everything it is built from is the
    same object (frame, evidence, candidates, query, path, names; the steps replace these, never change them in
    place). Any of them replaced builds it again."""
    inputs = (ctx.frame, ctx.evidence, ctx.candidates, ctx.query, ctx.path, services.names)
    last: tuple[tuple[object, ...], GenerationRequest] | None = getattr(_last, "request", None)
    if last is not None and all(a is b for a, b in zip(last[0], inputs, strict=True)):
        return last[1]
    request = _generation_request(ctx, services)
    _last.request = (inputs, request)
    return request


def _generation_request(ctx: TurnView, services: Services) -> GenerationRequest:
    f = ctx.frame
    mode = {"interaction": "interaction", "condition_to_drug": "list"}.get(ctx.path or "", "single")
    # For a patient-specific list the raw patient values are withheld: they already selected the safety
    # sections and are not formulary evidence; restated in a claim they would (rightly) fail grounding.
    query = paths.patient_generation_query(f) if mode == "list" and f.has_patient_context else ctx.query
    return GenerationRequest(
        query=query,
        evidence=ctx.evidence,
        mode=mode,  # type: ignore[arg-type]
        section_key=f.section_key,
        drug_ids=f.drugs,
        candidate_drug_ids=ctx.candidates,
        population=f.population,
        age_months=f.age_months,
        weight_kg=f.weight_kg,
        route=f.route,
        condition=f.condition,
        # The patient's context from the frame (never re-read from the synthesized query text, where "chức năng
        # thận bình thường" would read as renal impairment).
        renal=f.renal,
        hepatic=f.hepatic,
        pregnant=f.pregnant,
        breastfeeding=f.breastfeeding,
        comorbidities=list(f.comorbidities),
        # A drug question the understander routed to the dosage section without asking a dose (states.rules_understander:
        # a free-form question whose best-matching sentence is there): answered from its usage sentences only.
        free_form=f.turn_type == "drug_attribute" and f.section_key == paths.DOSING_SECTION,
        # Folded names/aliases/classes per drug: how the extractive generator finds mentions in evidence.
        drug_names={d: services.names.names_of(d) for d in dict.fromkeys([*f.drugs, *ctx.candidates])},
        drug_own_names={d: services.names.names_of(d, with_classes=False) for d in ctx.candidates},
        taking=list(f.unknown_drugs),
        # A class asked about ("thuốc chống đông") is found by its members' names too (the book's class lines).
        partners=services.names.partners_with_members(f.unknown_drugs, besides=f.drugs) if mode == "interaction"
        else [],
    )


def generate(ctx: TurnView, services: Services) -> Update:
    request = generation_request(ctx, services)
    answer: Answer | None = None

    def run() -> None:
        nonlocal answer
        answer = services.generator.generate(request, ctx.budget)

    failure = provider_call("generate", run)
    if answer is None:
        return update(failure=failure)
    return update(answer=answer, failure=failure,
                  outputs=[ProviderOutput(site="generate", output=answer.model_dump())])
