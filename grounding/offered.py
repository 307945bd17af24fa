"""The dose lines the engine offers the model as this patient's, and the answer shown in the book's own words.

For a dosing request about one patient (`grounding.dosing_binding.patient_for`), code already knows the
patient's lines: the dosage tree's selection (core.dosage.select), quoted with their context paths, the
patient-context safety sentences first — exactly what the extractive generator answers with. The model is
given those lines in its prompt, so it cites them instead of guessing which band is the patient's.

What the model cites is then shown as the book's own words: each cited claim of such an answer that only rewords
its spans (no number or negation of its own) is shown as its cited spans (`cited_text`, whole sentence blocks),
not the model's sentence. That keeps the generator on its cited
spans by construction, so a claim restates its spans and needs no entailment call; what a model call would
still judge is decided by code: whether each quoted line is this patient's (dosing binding) and whether an
applicable ceiling is left out (`GroundingResult.omissions`, repaired like any omission).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.budget import RequestBudget
from core.text import fold
from grounding.answer import Claim, GenerationRequest
from grounding.claude_verifier import NEGATIONS
from grounding.dosing_binding import patient_for
from grounding.extractive import ExtractiveGenerator
from grounding.verify import quantities_not_in

__all__ = ["book_words", "offered_lines", "patient_bound", "restates_spans"]


def patient_bound(request: GenerationRequest) -> bool:
    """A dosing request about one patient: its lines are chosen, bound and completed by code."""
    return patient_for(request) is not None


def offered_lines(request: GenerationRequest) -> list[str]:
    """The patient's cited lines as the extractive generator quotes them; [] for any other request."""
    if not patient_bound(request):
        return []
    answer = ExtractiveGenerator().generate(request, RequestBudget())
    return list(dict.fromkeys(c.text for c in answer.claims if c.citations))


def restates_spans(claim: Claim) -> bool:
    """The claim says nothing its spans do not: every number with its unit is in them, and the same negations.

    What the model wrote beyond that is wording, which the book's words replace. A claim with a number of its own
    (a dose it computed) or a negation the spans lack (or drop) says something else: it is kept as written, so
    numeric grounding refuses the number and the model judges the rest (entailment)."""
    if not claim.quotes:
        return False
    said = set(re.findall(r"\w+", fold(claim.text))) & NEGATIONS
    quoted = set(re.findall(r"\w+", fold(" ".join(claim.quotes)))) & NEGATIONS
    return said == quoted and not quantities_not_in(claim.text, claim.quotes)


def book_words(claims: Sequence[Claim]) -> list[Claim]:
    """Each cited claim that only rewords its spans, shown as those spans (duplicates once); any other claim is
    kept as it is (an uncited one is rejected by grounding, one that says more is checked as written)."""
    shown: list[Claim] = []
    seen: set[str] = set()
    for claim in claims:
        if not restates_spans(claim):
            shown.append(claim)
            continue
        text = " ".join(q.strip() for q in claim.quotes if q.strip())
        if text in seen:
            continue
        seen.add(text)
        shown.append(claim.model_copy(update={"text": text}))
    return shown
