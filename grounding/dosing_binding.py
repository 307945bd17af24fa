"""Binding a dosing answer to its patient, decided by code from the dosage tree (no model).

Verbatim is not enough: "Uống – Người lớn: 500 mg – 1 g/lần" quoted word for word is still wrong for an 18 kg
five-year-old. For every claim that cites a dosage block:
- the tree lines it quotes are found (by text, else by the doses it states); each must be a line of this patient
  (`core.dosage.select.admits`: route, population, band). A claim whose every candidate line is another patient's
  is NOT BOUND — a grounding problem, on which the machine abstains;
- a dosing answer that leaves out the ceiling ("tối đa …") of the group it quotes from has an omission: the line
  stating it is returned so the answer can be repaired (or, where no repair runs, refused).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from core.corpus import Chunk
from core.dosage.model import DosageTree, Patient, RegimenLine
from core.dosage.select import (
    admits,
    adult_lines_referred,
    context_sentences,
    default_outside_band,
    elderly_dose_line,
    heads_list_of,
    indication_labels,
    indication_route,
    is_conditional_cap,
    is_renal_line,
    is_weight_band_beside_default,
    names_patient_condition,
    select,
)
from core.numbers import Quantity, extract_quantities
from core.text import fold
from grounding.answer import Answer, Claim, GenerationRequest
from grounding.dosing_select import DOSING_SECTION, SectionTree, patient_of_request, trees_by_drug
from grounding.sentences import clean

__all__ = ["binding_problems", "missing_maxima", "patient_for", "quoted_lines"]


def patient_for(request: GenerationRequest) -> Patient | None:
    """The patient a single-drug dosing request is about; None when the request is not about one patient."""
    if request.mode != "single" or request.section_key != DOSING_SECTION or request.free_form:
        # A free-form answer quotes no line of a band (grounding.verify.check_free_form: no number at all), so there
        # is no patient's band to bind it to.
        return None
    if request.population is None and request.route is None and request.age_months is None \
            and request.weight_kg is None:
        return None
    return patient_of_request(request)


def _dose_quantities(text: str) -> list[Quantity]:
    return [q for q in extract_quantities(text) if q.unit.startswith(("mg", "ml", "iu", "vien", "goi"))
            and not q.unit.startswith("ml/phut")]


def quoted_lines(claim: Claim, tree: SectionTree) -> list[RegimenLine]:
    """The tree lines a claim quotes: by text (the line is in the claim, or the claim in the line), else every
    line of its cited blocks that states all of the claim's doses."""
    cited = set(claim.citations)
    in_cited = [line for line, ids in tree.line_doc_ids() if not cited.isdisjoint(ids)]
    said = fold(clean(claim.text))
    by_text = [line for line in in_cited if (body := fold(clean(line.text))) and (body in said or said in body)]
    if by_text:
        return by_text
    doses = _dose_quantities(claim.text)
    if not doses:
        return []
    return [line for line in in_cited
            if all(any(_same(q, s) for s in extract_quantities(line.text)) for q in doses)]


def _same(q: Quantity, s: Quantity) -> bool:
    return s.unit == q.unit and ((s.low == q.low and s.high == q.high) or any(e.low == q.low for e in s.ends()))


def _dosing_claims(answer: Answer, trees: Sequence[SectionTree]) -> list[tuple[int, Claim, SectionTree]]:
    found: list[tuple[int, Claim, SectionTree]] = []
    for i, claim in enumerate(answer.claims):
        for tree in trees:
            if any(c.doc_id in claim.citations for _, _, c in tree.spans):
                found.append((i, claim, tree))
    return found


def binding_problems(answer: Answer, evidence: Sequence[Chunk], patient: Patient) -> list[str]:
    """Claims quoting a dosage line of another population, band or route than the patient's."""
    problems: list[str] = []
    asked = patient
    for i, claim, tree in _dosing_claims(answer, trees_by_drug(evidence)):
        lines = [line for line in quoted_lines(claim, tree) if line.kind in ("regimen", "exclusion")]
        if not lines:
            continue
        patient = _on_indication_route(tree.tree, asked)
        if any(line.kind == "exclusion" and admits(line, replace(patient, route=None), closed=True)
               for line in lines) and not any(line.kind == "regimen" for line in lines):
            # An exclusion of this patient quoted from another route ("Uống – Trẻ em: Không khuyến cáo dùng cho trẻ dưới
            # 1 tuổi" for a 10-month-old asked rectally, a route the book doses no one by): it carries no dose, and it
            # is the book's only word for them (grounding.extractive; #18 held-out H140).
            continue
        if any(admits(line, patient, closed=True) for line in lines) or any(
                line in adult_lines_referred(tree.tree, select(tree.tree, patient).lines, patient) for line in lines):
            # A cross-reference band that holds the patient ("Trẻ > 16 tuổi có thể dùng liều như người lớn") binds
            # the adult lines it refers to (core.dosage.select.adult_lines_referred).
            if _replaced_by_adjustment(lines, tree, patient):
                problems.append(
                    f"claim {i} «{claim.text[:60]}»: its cited line is the usual dose, which this patient's renal/"
                    "hepatic adjustment replaces (dosing binding: not bound)")
            continue
        if any(_context_sentence_quoted(claim, line, patient) or names_patient_condition(line, patient)
               or is_conditional_cap(line, patient) or is_weight_band_beside_default(line, tree.tree, patient)
               for line in lines):
            # A ceiling the book writes for the patient's stated condition inside a sibling band's line
            # (core.dosage.select.context_sentences): that sentence is this patient's, the band's dose is not quoted.
            # So is a band line whose lead-in names their condition beside its band (names_patient_condition), and a
            # weight band's ceiling alone for an adult of no stated weight (core.dosage.select.is_conditional_cap).
            continue
        whose = lines[0]
        problems.append(
            f"claim {i} «{claim.text[:60]}»: its cited line belongs to "
            f"{' › '.join(whose.path) or 'the section'} ({whose.population or 'no population'}, "
            f"{'/'.join(whose.routes) or 'no route'}, band {whose.band.describe()}), not to this patient "
            f"({patient.population or '?'}, {patient.route or '?'}, age {patient.age_months}, weight "
            f"{patient.weight_kg}) (dosing binding: not bound)")
    return problems


def _on_indication_route(tree: DosageTree, patient: Patient) -> Patient:
    """The patient on the one route the book doses their indication by, when another was asked (as selected:
    core.dosage.select.indication_route)."""
    route = indication_route(tree, patient)
    return patient if route is None else replace(patient, route=route)


def _context_sentence_quoted(claim: Claim, line: RegimenLine, patient: Patient) -> bool:
    said = fold(clean(claim.text))
    path = fold(" › ".join(line.path))
    body = said[len(path):].lstrip(" :") if path and said.startswith(path) else said
    return any(body == fold(clean(sentence)) for sentence in context_sentences(line, patient))


def _replaced_by_adjustment(lines: Sequence[RegimenLine], tree: SectionTree, patient: Patient) -> bool:
    """The patient's selection is their renal/hepatic adjustment only, and the claim quotes none of it but a usual
    dose line: shown beside the adjustment, that line is another patient's dose."""
    if not (patient.renal or patient.hepatic is not None):
        return False
    chosen = select(tree.tree, patient).lines
    adjustment = [line for line in chosen if line.kind == "regimen" and (is_renal_line(line) or line.context.hepatic)]
    if not adjustment or any(not (is_renal_line(line) or line.context.hepatic) for line in chosen):
        return False
    return not any(line in chosen or is_renal_line(line) or line.context.hepatic for line in lines)


def missing_maxima(answer: Answer, evidence: Sequence[Chunk], patient: Patient | None) -> list[str]:
    """Lines stating a ceiling that applies to what the answer quotes, whose ceiling the answer does not state.

    Applies = the same context group (path, routes, population, indication) as a quoted line, and either no band
    or the quoted line's band; with a patient, also a line of the patient's own selection."""
    said = [q for c in answer.claims for q in extract_quantities(c.text)]
    missing: list[str] = []
    for tree in trees_by_drug(evidence):
        quoted: list[RegimenLine] = []
        for _, claim, t in _dosing_claims(answer, [tree]):
            quoted += [line for line in quoted_lines(claim, t) if line not in quoted]
        if not quoted or any(line.kind == "exclusion" for line in quoted):
            continue
        # The indication includes a lead-in the line opens with ("… Zollinger Ellison: Uống … lên tới 240 mg"): the
        # ceiling of another indication's line is not an omission of this one.
        # Only a quoted dose opens its group: an administration note quoted for a newborn ("Khi tiêm bắp, hòa tan
        # thuốc trong dung dịch lidocain 1%") does not make the adults' unlabelled "không tiêm quá 1 g tại một vị trí"
        # an omission — demanded, it was then refused as another patient's line and the newborn's answer abstained.
        groups = {(line.path, line.routes, line.population, indication_labels(line)) for line in quoted
                  if line.kind != "note"}
        # (Each group with its own quoted bands: the oral "trên 32 tuần" line matched beside the rectal "28 - 32 tuần"
        # one made the rectal "> 32 tuần" ceiling an omission of a 30-week baby's answer — #17 held-out H201.)
        bands: dict[tuple[object, ...], set[object]] = {}
        for line in quoted:
            bands.setdefault((line.path, line.routes, line.population, indication_labels(line)), set()).add(line.band)
        pool = select(tree.tree, patient).lines if patient is not None else tree.tree.lines
        for line in pool:
            if not line.maxima or line in quoted:
                continue
            group = (line.path, line.routes, line.population, indication_labels(line))
            if group not in groups:
                continue
            if patient is None and not line.band.empty and line.band not in bands.get(group, set()):
                continue  # without a patient, only the quoted band's own ceilings and the general ones
            if any(default_outside_band(line, band) for band in quoted):
                continue  # the 1 g line's 4 g/ngày is not the ceiling of a 33–50 kg adult's 15 mg/kg line
            if any(heads_list_of(line, band) for band in quoted):
                continue  # a list heading's "tối đa 300 mg/ngày" is not the ceiling of its 12–18 years' band
            if all(elderly_dose_line(q) for q in quoted) and not elderly_dose_line(line):
                continue  # the usual adult start and ceiling are not the elderly line's ("… người cao tuổi …: 2,5 mg")
            limits = [q for m in line.maxima for q in extract_quantities(m.text)]
            if limits and not all(any(_same(q, s) for s in said) for q in limits) and line.text not in missing:
                missing.append(line.text)
    return missing
