"""Citation and numeric grounding: the deterministic first check of every generated answer.

Each check is a separate public function returning human-readable problems (empty = passed); the runner
calls `verify_grounding`, which runs them all:

- `check_has_claims`: an answer with no claims is not an answer.
- `check_preamble`: the framing text carries no numbers (a number there would be cited by nothing).
- `check_citations`: every claim cites at least one block, every cited block was retrieved, none is
  quarantined (a block that failed extraction is never answered from).
- `check_numbers`: every number with its unit in a claim is stated by one of the blocks it cites. A dose
  the answer computed (18 kg × 15 mg/kg), a widened range, a unit swapped (mg ↔ mg/kg) or a dose copied
  from another drug's block all fail here.
- `check_calculations` (grounding.derivation_check): the ONLY way a computed number passes — a calculation of
  the answer is accepted when its derivation reproduces from the cited line's text and the frame's weight.
- `check_list_binding` (list mode): claims name only candidate drugs, and a claim naming a candidate cites
  that candidate's own block.
- `list_exclusion_omissions` (list mode, a known patient): a listed drug whose safety sections exclude this patient
  (grounding.patient_safety, as the offline list and the dose path read them) must carry that sentence; one left out
  is an omission, repaired once, else the turn abstains (incomplete_answer).
- `check_list_dose` (list mode): a claim citing a dosage block states no dose (only the exclusion line is for a list).
- `check_dosing_binding` (a dosing request about one patient): every quoted dosage line is this patient's
  (population, band, route), even when quoted verbatim; and the ceilings that apply to what the answer quotes are
  stated (an omitted maximum is a problem: the answer is incomplete in the way that matters most).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from core.combination_form import combination_limit
from core.corpus import Chunk
from core.inr_monitoring import inr_monitoring_sentence
from core.numbers import Quantity, extract_quantities
from core.organ_adjustment import asks_organ_adjustment
from core.sentence_match import allows_times, asked_words, usage_sentence
from core.text import fold
from grounding.answer import Answer, Claim, GenerationRequest, GroundingResult
from grounding.derivation_check import check_calculations
from grounding.dosing_binding import binding_problems, missing_maxima, patient_for
from grounding.dosing_select import DOSING_SECTION, patient_of_request
from grounding.list_exclusions import list_exclusions
from grounding.organ_lines import organ_claims, organ_contraindications

__all__ = [
    "verify_grounding",
    "check_has_claims",
    "check_preamble",
    "check_citations",
    "check_numbers",
    "check_list_binding",
    "check_list_dose",
    "check_dosing_binding",
    "check_free_form",
    "dosing_omissions",
    "list_exclusion_omissions",
    "ungrounded_quantities",
    "quantities_not_in",
]

_SNIPPET = 60


def _name(i: int, claim: Claim) -> str:
    text = claim.text if len(claim.text) <= _SNIPPET else claim.text[: _SNIPPET - 1] + "…"
    return f"claim {i} «{text}»"


def check_has_claims(answer: Answer) -> list[str]:
    return [] if answer.claims else ["answer has no claims (nothing to verify)"]


def check_preamble(answer: Answer) -> list[str]:
    return [f"preamble contains a number, which no block can ground: «{text}»"
            for text in (answer.preamble, *answer.calculation_notes) if re.search(r"\d", text)]


def check_citations(answer: Answer, by_id: Mapping[str, Chunk]) -> list[str]:
    problems: list[str] = []
    for i, claim in enumerate(answer.claims):
        if not claim.citations:
            problems.append(f"{_name(i, claim)}: cites no block (citation check)")
        for doc_id in claim.citations:
            chunk = by_id.get(doc_id)
            if chunk is None:
                problems.append(f"{_name(i, claim)}: cites {doc_id}, which was not retrieved (citation check)")
            elif chunk.has_quarantined_content:
                problems.append(f"{_name(i, claim)}: cites quarantined block {doc_id} (citation check)")
    return problems


@dataclass(frozen=True)
class _Statements:
    """What one source text states, as sets to look quantities up in (`_statements`)."""

    numerals: frozenset[Decimal]
    """Every numeral as written (a bare number is held to these)."""
    ranges: frozenset[tuple[str, Decimal, Decimal]]
    """(unit, low, high) of every stated value or range."""
    values: frozenset[tuple[str, Decimal]]
    """(unit, value) of every stated value and of each end of every stated range (the unit carries over)."""


@lru_cache(maxsize=16_384)
def _statements(text: str) -> _Statements:
    # An evidence block is checked for every claim that cites it, on every turn that retrieves it: its statements
    # are read once per text (Quantity is immutable; the text is the whole key).
    stated = extract_quantities(text)
    return _Statements(
        numerals=frozenset(n for q in stated for n in q.written),
        ranges=frozenset((s.unit, s.low, s.high) for s in stated),
        values=frozenset((s.unit, end) for s in stated for end in (s.low, s.high)),
    )


def _stated_by(q: Quantity, said: Sequence[_Statements]) -> bool:
    if q.is_bare:
        # A bare number is held to its numerals: each must be written somewhere in the cited blocks.
        return all(any(n in s.numerals for s in said) for n in q.written)
    if q.is_range:
        stated_range = (q.unit, q.low, q.high)
        return any(stated_range in s.ranges for s in said)
    # A single value may be a stated value or either end of a stated range (the unit carries over).
    value = (q.unit, q.low)
    return any(value in s.values for s in said)


def ungrounded_quantities(text: str, blocks: Sequence[Chunk]) -> list[Quantity]:
    """The quantities of `text` that none of `blocks` states (with the same unit)."""
    return quantities_not_in(text, [b.text for b in blocks])


def quantities_not_in(text: str, sources: Sequence[str]) -> list[Quantity]:
    """The quantities of `text` that none of the `sources` texts states (with the same unit)."""
    said = [_statements(source) for source in sources]
    return [q for q in extract_quantities(text) if not _stated_by(q, said)]


def check_numbers(answer: Answer, by_id: Mapping[str, Chunk]) -> list[str]:
    problems: list[str] = []
    for i, claim in enumerate(answer.claims):
        cited = [by_id[d] for d in claim.citations if d in by_id and not by_id[d].has_quarantined_content]
        if not cited:
            continue  # check_citations already names this claim
        for q in ungrounded_quantities(claim.text, cited):
            kind = "number" if q.is_bare else "range" if q.is_range else "value"
            problems.append(
                f"{_name(i, claim)}: {kind} '{q.text}' ({q}) is not stated in its cited block(s) "
                f"{', '.join(c.doc_id for c in cited)} (numeric grounding)"
            )
    return problems


def check_list_binding(answer: Answer, by_id: Mapping[str, Chunk], candidate_drug_ids: Sequence[str]) -> list[str]:
    candidates = set(candidate_drug_ids)
    problems: list[str] = []
    for i, claim in enumerate(answer.claims):
        outside = [d for d in claim.drug_ids if d not in candidates]
        if outside:
            problems.append(f"{_name(i, claim)}: names {', '.join(outside)}, outside the candidate set "
                            f"{sorted(candidates)} (list binding)")
        cited = [by_id[d] for d in claim.citations if d in by_id]
        foreign = sorted({c.drug_id for c in cited if c.drug_id not in candidates})
        if foreign:
            problems.append(f"{_name(i, claim)}: cites blocks of {', '.join(foreign)}, outside the candidate set "
                            "(list binding)")
        for drug_id in claim.drug_ids:
            if drug_id in candidates and not any(c.drug_id == drug_id for c in cited):
                problems.append(f"{_name(i, claim)}: names {drug_id} but cites none of its blocks (list binding)")
    return problems


_PATIENT_BAND_UNITS = frozenset({"thang", "tuan", "ngay", "kg"})
"""The units of whom a line is for (an age, a weight): what a dosage exclusion line quoted in a list may state."""


def check_list_dose(answer: Answer, by_id: Mapping[str, Chunk]) -> list[str]:
    """A list claim that cites a dosage-section block states no dose: the section comes with a child's list only for
    its exclusion line (grounding.list_exclusions). Safety: a dose quoted there would reach a child with no band
    check and no ceiling — only the dose path gives a dose."""
    problems: list[str] = []
    for i, claim in enumerate(answer.claims):
        if not any(by_id[d].section_key == DOSING_SECTION for d in claim.citations if d in by_id):
            continue
        doses = [q.text for q in extract_quantities(claim.text) if q.unit not in _PATIENT_BAND_UNITS]
        if doses:
            problems.append(f"{_name(i, claim)}: a list quotes a dose ({', '.join(doses)}) of the dosage section "
                            "(list binding)")
    return problems


def check_free_form(answer: Answer, request: GenerationRequest, evidence: Sequence[Chunk] = ()) -> list[str]:
    """A free-form question answered from the dosage section quotes no number: a number there may be one band's
    dose, given only on the dose path for a known patient (whatever generator wrote the answer). An administration
    question ("truyền trong bao lâu") may be answered with how long an infusion lasts — a time, never an amount,
    an interval or a rate (core.sentence_match.usage_sentence)."""
    if not request.free_form or request.section_key != "lieu_luong_cach_dung":
        return []
    durations = allows_times(asked_words(request.query))
    # "suy thận có cần chỉnh liều không", for a known population: the organ's own lines of this patient's band
    # (grounding.organ_lines), numbers and all.
    organ = asks_organ_adjustment(request.query)
    allowed = {c.text for c in organ_claims(request, evidence, organ)} if organ is not None else set()
    # The contraindication naming the patient's impaired organ, quoted first (a sentence of "Chống chỉ định", whose
    # number is a bound of whom it excludes, never a dose).
    allowed |= {c.text for c in organ_contraindications(request, evidence)}
    return [f"{_name(i, claim)}: a free-form answer quotes a number of the dosage section (free-form binding)"
            for i, claim in enumerate(answer.claims) if not usage_sentence(claim.text, durations=durations)
            and not inr_monitoring_sentence(request.query, claim.text) and claim.text not in allowed
            and not combination_limit(request.query, claim.text)]



def check_dosing_binding(answer: Answer, evidence: Sequence[Chunk], request: GenerationRequest) -> list[str]:
    """Quoted dosage lines of another population, band or route than the request's patient."""
    patient = patient_for(request)
    return [] if patient is None else binding_problems(answer, evidence, patient)


def dosing_omissions(answer: Answer, evidence: Sequence[Chunk], request: GenerationRequest) -> list[str]:
    """The applicable ceilings a dosing answer for this patient leaves out (the lines, as the book writes them)."""
    patient = patient_for(request)
    return [] if patient is None else missing_maxima(answer, evidence, patient)


def list_exclusion_omissions(answer: Answer, evidence: Sequence[Chunk], request: GenerationRequest) -> list[str]:
    """The sentences excluding this patient (a child's age band, pregnancy, breastfeeding) of each drug the list
    names, that the answer does not state. Safety (#18): a list naming aspirin for a 3-year-old's fever with no word
    of its under-16 exclusion reads as "aspirin is an option" — whichever generator wrote it. The same reading as
    the offline list (grounding.extractive) and the dose path: `grounding.list_exclusions`."""
    if request.mode != "list":
        return []
    patient = patient_of_request(request)
    listed = {d for c in answer.claims for d in c.drug_ids}
    said = " ".join(fold(c.text) for c in answer.claims)
    missing: list[str] = []
    for drug_id in (d for d in request.candidate_drug_ids if d in listed):
        for exclusion in list_exclusions(evidence, drug_id, patient, pregnant=request.pregnant,
                                         breastfeeding=request.breastfeeding):
            if fold(exclusion.statement) not in said and exclusion.statement not in missing:
                missing.append(exclusion.statement)
    return missing


def verify_grounding(
    answer: Answer, evidence: Sequence[Chunk], *, candidate_drug_ids: Sequence[str] | None = None,
    request: GenerationRequest | None = None, weight_kg: float | None = None,
) -> GroundingResult:
    """All grounding checks; `candidate_drug_ids` not None means list mode (the candidate set is bound);
    `request` (the generation request) binds a dosing answer to its patient; `weight_kg` is the frame's weight,
    the one slot value a calculation may be derived from."""
    by_id = {c.doc_id: c for c in evidence}
    problems = [
        *check_has_claims(answer),
        *check_preamble(answer),
        *check_citations(answer, by_id),
        *check_numbers(answer, by_id),
        *check_calculations(answer.calculations, evidence, weight_kg),
    ]
    if candidate_drug_ids is not None:
        problems += check_list_binding(answer, by_id, candidate_drug_ids)
        problems += check_list_dose(answer, by_id)
    omissions: list[str] = []
    if request is not None and not problems:
        problems += check_free_form(answer, request, evidence)
        problems += check_dosing_binding(answer, evidence, request)
        if not problems:
            # Every quoted line is this patient's; a ceiling left out is an omission, which the machine repairs
            # once (verifying → repairing) and abstains on if it is still missing (incomplete_answer).
            omissions = dosing_omissions(answer, evidence, request) + list_exclusion_omissions(answer, evidence,
                                                                                               request)
    return GroundingResult(ok=not problems, problems=problems, omissions=omissions)
