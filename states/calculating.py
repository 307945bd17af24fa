"""The `calculating` state: this patient's amount from the weight-based line that applies, computed by code.

Entered after generation when `calculation_applies` (a dosing answer, a plausible weight, and exactly one
weight-based line of the evidence that is for this patient's route, indication, population and band). The step
computes the amount with `grounding.calculator` and adds it to the answer; the `verifying` state then accepts it
only when its derivation reproduces from the cited text and the frame's weight. A model never computes: a
generator may only propose operands (`Answer.calculation_requests`), each checked against the line and the frame,
and a proposal that does not match is rejected (and said so in the trace), never shown.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from core.corpus import Chunk
from core.dosage.model import Patient
from core.numbers import extract_quantities
from grounding.answer import Answer, CalculationRequest
from grounding.calculation_lines import BODY_SURFACE_REFUSAL, Selected, select
from grounding.calculation_shown import shown_with_its_line
from grounding.calculator import Calculation, compute, exact
from grounding.dosing_select import patient_in_context, stated_conditions
from grounding.patient_safety import patient_safety
from states.frame import QueryFrame
from states.step import Services, TurnView, Update, update

DOSING_SECTION = "lieu_luong_cach_dung"
HEADING = "Tính liều theo cân nặng (mã tính, theo dòng liều được trích dẫn):"
BODY_SURFACE_NOTICE = (
    "Dược thư ghi liều này theo diện tích da (mg/m²): hệ thống không tính liều theo diện tích da; hãy tính cùng "
    "bác sĩ hoặc dược sĩ."
)


def patient_of(frame: QueryFrame) -> Patient:
    """What the calculator may know of the patient: only slots the frame holds (none is ever assumed)."""
    return replace(patient_in_context(frame.population, frame.age_months, frame.weight_kg, frame.route,
                                      frame.condition, frame.renal, frame.hepatic,
                                      f"Tuổi thai: {frame.gestation}" if frame.gestation else ""),
                   conditions=stated_conditions(frame.condition, frame.comorbidities, frame.unknown_drugs),
                   pregnant=bool(frame.pregnant))


def applicable(frame: QueryFrame, evidence: Sequence[Chunk], answer: Answer | None) -> tuple[list[Selected], list[str]]:
    """The line the calculator may compute for this turn (at most one), and why others were refused."""
    if answer is None or not answer.claims or answer.insufficient:
        return [], ["no answer to calculate beside"]
    if frame.section_key != DOSING_SECTION or not frame.drugs or len(frame.drugs) != 1:
        return [], ["not a one-drug dosing answer"]
    if frame.weight_kg is None or not math.isfinite(frame.weight_kg):
        return [], ["weight not known"]
    own = tuple(c for c in evidence if c.drug_id == frame.drugs[0])
    chosen, refused = _applicable(own, patient_of(frame), bool(frame.pregnant), bool(frame.breastfeeding))
    return list(chosen), list(refused)


@lru_cache(maxsize=256)
def _applicable(own: tuple[Chunk, ...], patient: Patient, pregnant: bool,
                breastfeeding: bool) -> tuple[tuple[Selected, ...], tuple[str, ...]]:
    """`applicable`'s selection, remembered: a pure function of the drug's chunks (frozen), the patient (frozen)
    and the two flags. The machine's guard (`calculation_applies`) and the step (`calculate`) ask it for the same
    turn; the answer is computed once (each caller gets its own lists; `Selected` is frozen)."""
    if patient_safety(own, patient, pregnant=pregnant, breastfeeding=breastfeeding).contraindicated:
        # The safety sections exclude this patient ("không dùng cho trẻ sơ sinh"): no amount is computed.
        return (), ("excluded for this patient by its contraindication/precaution text",)
    chosen, refused = select(own, patient)
    return tuple(chosen), tuple(refused)


def calculation_applies(frame: QueryFrame, evidence: Sequence[Chunk], answer: Answer | None) -> bool:
    """Guard: weight-based line, weight known and plausible, the line applies to this patient (or the line that
    applies is per m², which the reply must say is not computed)."""
    chosen, refused = applicable(frame, evidence, answer)
    return bool(chosen) or _per_surface(refused)


def _per_surface(refused: Sequence[str]) -> bool:
    return any(r.startswith(BODY_SURFACE_REFUSAL) for r in refused)


def _request_problem(request: CalculationRequest, chosen: Selected, frame: QueryFrame) -> str | None:
    if request.doc_id != chosen.span.doc_id:
        return f"names {request.doc_id}, not the line that applies ({chosen.span.doc_id})"
    if request.weight_kg is None or frame.weight_kg is None or exact(request.weight_kg) != exact(frame.weight_kg):
        return f"weight {request.weight_kg} kg is not the patient's {frame.weight_kg} kg"
    stated = [(exact(q.low), exact(q.high)) for q in extract_quantities(request.rule) if q.unit.startswith("mg/kg")]
    if stated != [(exact(chosen.rule.low), exact(chosen.rule.high))]:
        return f"rule «{request.rule}» is not the line's"
    return None


def calculate(ctx: TurnView, services: Services) -> Update:
    answer = ctx.answer
    assert answer is not None
    chosen, refused = applicable(ctx.frame, ctx.evidence, answer)
    notes = [f"calculation refused: {r}" for r in refused]
    calculations: list[Calculation] = []
    for selected in chosen:
        result = compute(selected.rule, selected.ceilings, exact(ctx.frame.weight_kg or 0.0), rule_line=selected.span,
                         frequency_certain=selected.frequency_certain, frequency_shown=selected.frequency_shown,
                         drug_id=selected.chunk.drug_id)
        if isinstance(result, Calculation):
            calculations.append(result)
            notes.append(f"calculation: {result.derivation.rule_line.ref} × {result.derivation.weight_kg} kg")
        else:
            notes.append(f"calculation refused: {result.reason}")
    for request in answer.calculation_requests:
        # Operands only, and only as a cross-check: the amounts shown are the code's, from the code's own selection.
        problem = _request_problem(request, chosen[0], ctx.frame) if chosen else "no line applies to this patient"
        notes.append(f"proposed calculation rejected: {problem}" if problem else
                     f"proposed calculation matches the line computed ({request.doc_id})")
    notices = [BODY_SURFACE_NOTICE] if _per_surface(refused) else []
    return update(answer=answer.model_copy(update={"calculations": calculations, "calculation_notes": notices}),
                  notes=notes)


def calculation_lines(answer: Answer | None) -> list[str]:
    """The calculation block of the reply text (under the cited lines)."""
    if answer is None:
        return []
    answer = shown_with_its_line(answer)
    if not (answer.calculations or answer.calculation_notes):
        return []
    return [HEADING, *(f"- {line}" for calc in answer.calculations for line in calc.lines),
            *(f"- {note}" for note in answer.calculation_notes)]
