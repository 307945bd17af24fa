"""Dosing slots: which routes the dosage evidence offers for this patient, and when the route must be asked.

Route is deliberately NOT a universal required slot (reference system, 2026-08): the evidence decides.
One applicable route → answer now; several → clarify with the routes found as quick replies. This avoids
a chip funnel for a question that was already precise enough.

The routes come from the dosage tree (core.dosage): a route is offered when the section has a regimen line on it
for a patient like this one (population, and age/weight band when known) — not merely when the word occurs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from core.combination_form import asks_combination
from core.corpus import Chunk
from core.dosage.indication import is_partial, is_severity_label, match_score, severities
from core.dosage.lines import dose_quantities
from core.dosage.model import Patient, RegimenLine
from core.dosage.select import band_admits, indication_key, indication_labels, states_amount
from core.dosage.select import select as select_lines
from core.missed_dose import asks_missed_dose
from core.organ_adjustment import asks_organ_adjustment
from core.sentence_match import asks_food
from core.text import fold
from core.vocabulary import INJECTION_ROUTES, MAY_TAKE, ROUTE_LABELS_VI
from grounding.dosing_select import (
    label_of,
    patient_in_context,
    patient_of,
    routes_of,
    routes_offered,
    stated_conditions,
    trees_by_drug,
)
from grounding.patient_safety import PatientSafety, is_comorbidity, patient_safety
from states.conditions import condition_in_drug_turn, is_symptom
from states.followup import is_elliptical
from states.frame import QueryFrame


def chunk_label(chunk: Chunk) -> str:
    """The italic label a dosing paragraph starts with (`*Uống – Trẻ em:*`), folded; '' if none."""
    return label_of(chunk.text)


def routes_in_evidence(evidence: Sequence[Chunk], population: str | None, *, age_months: float | None = None,
                       weight_kg: float | None = None, context_text: str = "",
                       condition: str | None = None, asked_route: str | None = None,
                       injection_indication: str | None = None) -> list[str]:
    """Routes for which the dosage tree gives a regimen for this patient (and the indication asked, when the book's
    lead-ins name it), in display order. `asked_route`: the route the user named (an ointment's lines, which give
    how often and no amount, are its regimen only then)."""
    patient = patient_of(population, age_months, weight_kg, None, condition, context_text)
    found = routes_offered(trees_by_drug(evidence), patient, asked_route)
    order = list(ROUTE_LABELS_VI)
    if injection_indication and asked_route is None:
        # "người lớn buồn nôn, nôn sau mổ, haloperidol tiêm liều thế nào": the indication named is dosed on one
        # injection route only ("1 - 2 mg tiêm bắp") — that route is the answer, nothing to ask (#17 held-out H174
        # asked IV or IM).
        named = replace(patient, indication=injection_indication)
        # (Only its injection lines: the same indication dosed by mouth too — "Dự phòng viêm nội tâm mạc: uống 50
        # mg/kg … Tiêm tĩnh mạch 50 mg/kg" — is still one injection route; #17 held-out H178 asked IV or IM.)
        own = {r for tree in trees_by_drug(evidence) for line in select_lines(tree.tree, named).lines
               if line.kind == "regimen" and indication_key(line) and states_amount(line) for r in line.routes
               if r in INJECTION_ROUTES}
        if len(own) == 1 and own <= set(found):
            return list(own)
    return sorted((r for r in found if r in order), key=order.index)


def one_dose_for_the_indication(evidence: Sequence[Chunk], frame: QueryFrame, routes_found: Sequence[str]) -> list[str]:
    """The routes to offer when the indication named is dosed alike on every route found for this patient: "bé 2 tháng
    5kg vừa tiêm chủng về bị sốt, dùng paracetamol bao nhiêu" — the book's "Uống, đặt trực tràng: … Để hạ sốt sau
    tiêm chủng cho trẻ 2 - 3 tháng tuổi: Liều dùng là 60 mg", the same 60 mg by mouth or rectally; asking which route
    asked for something the dose does not depend on (#18 held-out H227). The first route then stands for all;
    otherwise the routes found, unchanged. The patient's dosed lines once the indication narrowed them count (their
    figures, not the lines: the book writes the dose twice)."""
    if frame.route is not None or frame.route_family is not None or not frame.condition or len(routes_found) < 2:
        return list(routes_found)
    context = ", ".join(c for c in (frame.renal, frame.hepatic, frame.person, frame.gestation) if c)
    seen: set[frozenset[tuple[object, ...]]] = set()
    for route in routes_found:
        patient = patient_of(frame.population, frame.age_months, frame.weight_kg, route, frame.condition, context)
        figures = frozenset((line.rule.kind, line.rule.low, line.rule.high, line.rule.unit)
                            for tree in trees_by_drug(evidence) for line in select_lines(tree.tree, patient).lines
                            if line.kind == "regimen" and line.rule is not None and states_amount(line)
                            and route in line.routes)
        if not figures:
            return list(routes_found)
        seen.add(figures)
    return list(routes_found[:1]) if len(seen) == 1 else list(routes_found)


def one_injection_dose(evidence: Sequence[Chunk], frame: QueryFrame, routes_found: Sequence[str]) -> list[str]:
    """The routes to offer for "tiêm" when the patient's lines are the same on every injection route found: the
    book gives one dose for them all ("Người cao tuổi thường dùng liều 30 - 65 mg …, tiêm nhắc lại …" under
    "Tiêm:", read as IV and IM), so asking "tĩnh mạch hay tiêm bắp?" would ask for something the answer does not
    depend on — the first injection route then stands for all of them. Otherwise the routes found, unchanged."""
    injections = [r for r in routes_found if r in INJECTION_ROUTES]
    if frame.route is not None or len(injections) < 2:
        return list(routes_found)
    if frame.route_family != "injection" and len(injections) < len(routes_found):
        # No route named, and the book's lines for this patient are on injection routes only (the indication asked
        # is written under "Thuốc tiêm:" alone): the same test as for "tiêm" — one dose for every route is answered.
        return list(routes_found)
    context = ", ".join(c for c in (frame.renal, frame.hepatic, frame.person, frame.gestation) if c)
    seen: set[tuple[tuple[str, int], ...]] = set()
    for route in injections:
        patient = patient_of(frame.population, frame.age_months, frame.weight_kg, route, frame.condition, context)
        lines = tuple((tree.drug_id, line.start) for tree in trees_by_drug(evidence)
                      for line in select_lines(tree.tree, patient).lines if line.kind == "regimen")
        if not lines or not all(set(injections) <= set(line.routes) for tree in trees_by_drug(evidence)
                                for line in select_lines(tree.tree, patient).lines if line.kind == "regimen"):
            return list(routes_found)
        seen.add(lines)
    if len(seen) != 1:
        return list(routes_found)
    return [r for r in routes_found if r not in INJECTION_ROUTES or r == injections[0]]


def route_ambiguous(frame: QueryFrame, routes_found: Sequence[str]) -> bool:
    return (
        frame.turn_type == "dosing_calc"
        and not frame.section_overview
        and frame.route is None
        and len(routes_found) > 1
    )


def route_not_documented(frame: QueryFrame, routes_found: Sequence[str]) -> bool:
    """The user chose a route the dosage evidence gives no regimen for (ibuprofen "đặt trực tràng")."""
    return (
        frame.turn_type == "dosing_calc"
        and not frame.section_overview
        and bool(routes_found)
        and (frame.route not in routes_found if frame.route is not None
             # The patient cannot take any route the book doses ("không uống được" for an oral-only drug): no dose.
             else bool(frame.routes_unusable) and set(routes_found) <= set(frame.routes_unusable))
    )


_ELDERLY = re.compile(r"\b(nguoi cao tuoi|nguoi gia)\b")
MIN_INDICATIONS_TO_ASK = 3
"""How many indications the patient's dose lines must sit under, with no general line, before a dose question
naming none is asked which one. Two are shown side by side, each labelled with its lead-in, as the book writes them
(the golden transcripts' ibuprofen: "Giảm đau, hạ sốt" beside "Chống viêm"); from three on the reply would be a
list of other patients' doses in which the user must find their own (aspirin: pain/fever, anti-inflammatory,
antiplatelet), so the machine asks."""


def indications_in_evidence(evidence: Sequence[Chunk], frame: QueryFrame) -> list[str]:
    """The indication lead-ins to ask the user to choose among (`_indications_in_evidence`); [] when the safety
    sections answer first. A severity the user did not say is never asked: `usual_severity` takes the mild band."""
    # The safety sections read once (which indication, and whether the patient's context answers first).
    safety_patient = replace(patient_in_context(frame.population, frame.age_months, frame.weight_kg, frame.route,
                                                None, frame.renal, frame.hepatic),
                             conditions=stated_conditions(frame.condition, frame.comorbidities, frame.unknown_drugs))
    safety = patient_safety(evidence, safety_patient, pregnant=frame.pregnant, breastfeeding=frame.breastfeeding)
    if safety.contraindicated or safety.adjustments:
        # The safety sections exclude this patient, or give their renal/hepatic adjustment ("suy gan nặng: tối đa
        # 20 mg/ngày"): that is the answer whatever the indication, so none is asked.
        return []
    if safety_patient.renal_ml_min is not None and safety_patient.dialysis is None and \
            _every_route_adjusted_for_kidney(evidence, safety_patient) and \
            _kidney_band_holds(evidence, safety_patient):
        # "đang dùng metformin 850mg x2, eGFR đúng 45. Liều tối đa còn được bao nhiêu?": the renal band holding the
        # value ("eGFR 45–59: tối đa 2 000 mg/ngày") names no indication or form — the answer for every one, so
        # none is asked (#18 held-out H203 asked which tablet).
        return []
    return _indications_in_evidence(evidence, frame, safety)


def usual_severity(evidence: Sequence[Chunk], frame: QueryFrame) -> tuple[str, str] | None:
    """(mild lead-in, severe lead-in) when a dose question said no severity and this patient's lines — of the
    indication named, or of every indication when none is — split by it ("Nhiễm khuẩn nhẹ, vừa: 20 mg/kg/ngày …" /
    "Nhiễm khuẩn nặng: … 45 mg/kg/ngày"). The mild band is the everyday infection an antibiotic is asked about, as the
    usual indication is (#17 item 2, docs/blind-sets.md): its lines are answered under a note naming the severe band,
    whose doses are another patient's until the user says so. Both bands side by side were flagged by blind writers
    (#17/#18 held-out H126, H127, H130); asking the severity each time (session 18) was marked wrong by the next
    writers (H133: "bé 3t 14kg viêm tai giữa, amox liều bn" expects the mild band). None otherwise."""
    if frame.population is None or (frame.condition and severities(frame.condition)):
        return None
    context = ", ".join(c for c in (frame.renal, frame.hepatic, frame.person, frame.gestation) if c)
    patient = patient_of(frame.population, frame.age_months, frame.weight_kg, frame.route, frame.condition, context)
    labels: dict[str, str] = {}
    for tree in trees_by_drug(evidence):
        selection = select_lines(tree.tree, patient)
        if selection.indication_unmatched:
            continue  # an indication the book does not name ("bs viết toa"): its general lines, as before
        for line in selection.lines:
            if line.kind != "regimen" or not dose_quantities(line.text):
                continue
            for label in indication_labels(line):
                if is_severity_label(label):
                    for grade in severities(label):
                        labels.setdefault(grade, label)
    return (labels["mild"], labels["severe"]) if {"mild", "severe"} <= set(labels) else None


def _indications_in_evidence(evidence: Sequence[Chunk], frame: QueryFrame, safety: PatientSafety) -> list[str]:
    """The indication lead-ins ("Đau, sốt", "Đau sau phẫu thuật", "Bệnh Lyme", …) under which the dosage tree has a
    regimen line for this patient, outermost as written, in book order — or none when the patient also has a
    general dose line (under no indication: the book's usual dose for them, shown with the others labelled).
    Severity sub-bands of one indication ("Nhiễm khuẩn nhẹ, vừa" / "nặng") are one indication."""
    context = ", ".join(c for c in (frame.renal, frame.hepatic, frame.gestation) if c)
    person = frame.person or ""
    patient = patient_of(frame.population, frame.age_months, frame.weight_kg, frame.route, None,
                         f"{context} {person}".strip())
    if frame.condition:
        if not all(is_comorbidity(frame.condition, safety, tree.tree.text) for tree in trees_by_drug(evidence)):
            return _unmatched_indications(evidence, frame, patient)
        # A comorbidity a caution names ("sa sút trí tuệ"): asked about as a question naming no indication — unless a
        # dosage lead-in names it too, when it is the indication after all and there is nothing to ask.
        asked = replace(patient, indication=frame.condition)
        if any(not select_lines(tree.tree, asked).indication_unmatched for tree in trees_by_drug(evidence)):
            return []
    found: list[str] = []
    for tree in trees_by_drug(evidence):
        for line in select_lines(tree.tree, patient).lines:
            if line.kind != "regimen":
                continue
            if line.context.renal or line.context.hepatic:
                return []  # the patient's renal/hepatic adjustment applies whatever the indication: answered
            labels = [label for label in indication_labels(line) if not is_severity_label(label)]
            if not labels and dose_quantities(line.text) and not (_ELDERLY.search(fold(" ".join(line.path)))
                                                                  and not patient.elderly):
                return []  # a general dose line for this patient: the usual dose is answerable
            if not labels:
                continue  # a note on how to take it, or the elderly's line for a patient not said to be elderly
            if labels[0] not in found:
                found.append(labels[0])
    return found


def _unmatched_indications(evidence: Sequence[Chunk], frame: QueryFrame, patient: Patient) -> list[str]:
    """The question names an indication none of the book's lead-ins match (or two match equally, as near
    paraphrases): the indications under which the patient has dose lines, outermost lead-in first, in book order —
    when there are two or more. Showing them all, even labelled, would put other patients' doses in the reply
    (issue 17); the machine asks which one, the book's lead-ins as quick replies, and the reply fills the condition.
    One indication only: [] (its lines are shown with their path, under the notice)."""
    asked = replace(patient, indication=frame.condition)
    if frame.condition and any(
            any(line.kind == "regimen" and not indication_key(line) and dose_quantities(line.text)
                for line in select_lines(tree.tree, asked).lines) for tree in trees_by_drug(evidence)):
        # The book gives this patient a general dose (under no indication: its usual dose) and names the indication
        # asked nowhere: the general line is the answer, under the notice that the book has no dose of its own for
        # that indication — not a choice among the other indications. "nhiễm khuẩn nhẹ" was asked between severe
        # pneumonia, H. pylori and endocarditis (#18 held-out H108); an adult's strep throat between chlamydia and
        # trachoma, neither of which they have (#18 held-out H121).
        return []
    found: list[str] = []
    for tree in trees_by_drug(evidence):
        selection = select_lines(tree.tree, asked)
        if not selection.indication_unmatched:
            continue
        # The indications to offer are every one the patient has lines under (the unmatched selection itself keeps
        # only the general lines, core.dosage.select.narrow_to_indication).
        for line in select_lines(tree.tree, patient).lines:
            labels = [label for label in indication_labels(line) if not is_severity_label(label)]
            if line.kind == "regimen" and labels and labels[0] not in found:
                found.append(labels[0])
    return found if len(found) >= MIN_UNMATCHED_TO_ASK else []


MIN_UNMATCHED_TO_ASK = 2
"""A named indication the book does not match is asked about from two indications on (see
`_unmatched_indications`)."""


def indication_ambiguous(frame: QueryFrame, indications_found: Sequence[str]) -> bool:
    """A dose question naming no condition, and the patient's lines sit under several indications with no general
    line among them (see MIN_INDICATIONS_TO_ASK); or naming one the book does not match, and the patient's lines sit
    under two or more indications (`indications_in_evidence` then returns them)."""
    return (
        frame.turn_type == "dosing_calc"
        and not frame.section_overview
        and frame.population is not None  # whose lines they are is known first (the population guard asks it)
        and (_none_named(frame.condition, indications_found) if frame.condition
             else len(indications_found) >= MIN_INDICATIONS_TO_ASK)
    )


def _none_named(condition: str, indications: Sequence[str]) -> bool:
    """Two or more indications, and the condition names none of them (or two equally, as near paraphrases)."""
    if len(indications) < MIN_UNMATCHED_TO_ASK:
        return False
    scores = [match_score(condition, [label]) for label in indications]
    best = max(scores)
    return best == 0 or (is_partial(best) and scores.count(best) > 1)


_ALIKE = re.compile(r"\blieu (uong|tiem tinh mach|truyen tinh mach|tiem bap) va (?:lieu )?(uong|tiem tinh mach|"
                    r"truyen tinh mach|tiem bap) (?:deu )?(?:nhu nhau|giong nhau|bang nhau)\b")
_ALIKE_ROUTES = {"uong": "oral", "tiem tinh mach": "iv", "truyen tinh mach": "iv", "tiem bap": "im"}


def routes_dosed_alike(evidence: Sequence[Chunk], routes_found: Sequence[str]) -> bool:
    """The dosage section says the routes found are dosed alike ("Liều uống và liều truyền tĩnh mạch như nhau",
    the real warfarin's "Liều uống và liều tiêm tĩnh mạch đều giống nhau"): the route question would ask for
    something the dose does not depend on (#18 held-out H185 asked oral or IV for fluconazole)."""
    if len(routes_found) < 2:
        return False
    for chunk in evidence:
        if chunk.section_key != "lieu_luong_cach_dung":
            continue
        for m in _ALIKE.finditer(fold(chunk.text)):
            if set(routes_found) <= {_ALIKE_ROUTES[m.group(1)], _ALIKE_ROUTES[m.group(2)]}:
                return True
    return False


def route_settled_by_safety(evidence: Sequence[Chunk], frame: QueryFrame, routes_found: Sequence[str]) -> bool:
    """The route does not change the answer: the safety sections exclude this patient (no dose on any route), or
    the patient's renal/hepatic adjustment stated there names no route or every route found."""
    patient = replace(patient_in_context(frame.population, frame.age_months, frame.weight_kg, frame.route,
                                         frame.condition, frame.renal, frame.hepatic),
                      conditions=stated_conditions(frame.condition, frame.comorbidities, frame.unknown_drugs))
    safety = patient_safety(evidence, patient, pregnant=frame.pregnant, breastfeeding=frame.breastfeeding)
    if safety.contraindicated:
        return True
    if patient.hepatic is not None and _every_route_capped_for_liver(evidence, patient):
        # "bố bé 40 tuổi bị suy gan thì tối đa bao nhiêu": the dosage section's "Suy gan: Tối đa 20 mg/ngày" names no
        # route — the answer for every route (#18 held-out H104 asked oral or IV first).
        return True
    if patient.renal and patient.renal_ml_min is None and patient.dialysis is None and \
            _every_route_adjusted_for_kidney(evidence, patient):
        # "BN nữ 68t … cũng suy thận mà chưa có ClCr, liều amox sao": the answer is the book's renal bands, which name
        # no route ("Đối với người suy thận, phải giảm liều …: Clcr < 10 ml/phút: 250 - 500 mg/24 giờ …"), with the
        # value asked — the same on every route (#17 held-out H178 asked oral, IV or IM first).
        return True
    if patient.renal_ml_min is not None and patient.dialysis is None and \
            _every_route_adjusted_for_kidney(evidence, patient) and _kidney_band_holds(evidence, patient):
        # "còn ông em 70 tuổi, suy thận ClCr 25, dùng Klacid liều sao": the renal band holding his value names no
        # route ("Độ thanh thải creatinin dưới 30 ml/phút: giảm liều một nửa (250 mg/lần …)") — his answer on every
        # route (#18 held-out H183 asked oral or IV first).
        return True
    if not safety.adjustments:
        return False
    named = {r for claim in safety.adjustments for r in routes_of(claim.text)}
    return not named or set(routes_found) <= named


def _every_route_adjusted_for_kidney(evidence: Sequence[Chunk], patient: Patient) -> bool:
    """The dosage section writes its renal bands' amounts under no route of their own, and every renal line is so."""
    found = False
    for tree in trees_by_drug(evidence):
        for line in tree.tree.lines:
            if not _dose_or_cap(line) or line.band.renal_ml_min is None or not states_amount(line):
                continue
            if line.routes or line.population not in (None, patient.population):
                return False
            found = True
    return found


def _kidney_band_holds(evidence: Sequence[Chunk], patient: Patient) -> bool:
    """A renal band line stating an amount holds the patient's clearance."""
    return any(_dose_or_cap(line) and line.band.renal_ml_min is not None and states_amount(line)
               and band_admits(line.band, patient) for tree in trees_by_drug(evidence) for line in tree.tree.lines)


def _dose_or_cap(line: RegimenLine) -> bool:
    """A regimen line, or a note stating only a ceiling ("khi độ thanh thải creatinin dưới 10 ml/phút, không dùng quá
    2 g/ngày": ceftriaxone's renal band, the answer on every route — #18 held-out H199 asked IV or IM first)."""
    return line.kind == "regimen" or (line.kind == "note" and bool(line.maxima))


def _every_route_capped_for_liver(evidence: Sequence[Chunk], patient: Patient) -> bool:
    """The dosage section writes an amount for the patient's hepatic impairment under no route of its own."""
    for tree in trees_by_drug(evidence):
        for line in tree.tree.lines:
            if line.kind == "regimen" and line.context.hepatic and not line.routes and states_amount(line) \
                    and line.population in (None, patient.population) and band_admits(line.band, patient):
                return True
    return False


def carried_child_may_take(merged: QueryFrame, text: str) -> QueryFrame:
    """"thế ibuprofen hạ sốt cho bé được không" after "bé 5 tháng 6 kg …": a child whose age or weight the
    conversation already holds, asking whether the drug may be given, asks for this child's dose — the dose path,
    which states the book's exclusion for the child's band first ("Không khuyến cáo cho trẻ dưới 7 kg") and gives no
    dose then. Left a lookup of the dosage section (drug_attribute), every band's lines were quoted and the
    verification, binding them to the child, abstained. (The rules understander does the same for a turn that
    states the age or weight itself: rules_understander, "a child of known age or weight asking whether …".)"""
    if merged.turn_type == "drug_attribute" and merged.section_key == "chong_chi_dinh" and merged.population == \
            "pediatric" and len(merged.drugs) == 1 and merged.age_months is not None and merged.weight_kg is not None \
            and merged.condition_relation != "contraindication" and not merged.comorbidities and not (
                merged.renal or merged.hepatic or merged.pregnant or merged.breastfeeding) and (
                MAY_TAKE.search(fold(text)) or is_elliptical(text)) and (
                (said := condition_in_drug_turn(text)) is None or is_symptom(said)):
        # ("thế cho bé uống ibuprofen được không, bé cũng sốt": a symptom the drug treats is no illness the
        # contraindications read — the dose path; #18 held-out H189.)
        # (A turn naming the child's illness, "bé bị hen phế quản thì có dùng đc ko", asks the contraindications.)
        # "còn chị nó 4 tuổi 16 kg" after "bé 20 tháng … cho uống imodium được ko": the same may-take question for a
        # child whose age and weight are both known — the dose path, which states any exclusion of the child first
        # (#18 held-out H52 listed the contraindications and no dose for the 4-year-old).
        return merged.model_copy(update={"turn_type": "dosing_calc", "section_key": "lieu_luong_cach_dung"})
    if merged.turn_type != "drug_attribute" or merged.section_key not in ("lieu_luong_cach_dung", "chi_dinh") \
            or merged.population != "pediatric" or len(merged.drugs) != 1 or merged.section_overview \
            or (merged.age_months is None and merged.weight_kg is None) or not MAY_TAKE.search(fold(text)) \
            or asks_combination(text) or asks_food(text) or asks_missed_dose(text):
        # (Nor a missed dose — "nếu bé quên uống 1 liều hôm qua thì hôm nay cho gấp đôi được ko": the book's
        # "Không được uống hai liều … để bù", never the child's dose again; #18 held-out H225.)
        # (How it is taken with food — "siro này cho uống lúc bụng đói được ko" — is the book's food sentence, not
        # the child's dose again: #17 held-out H184.)
        # (A combination product asked — "cho bé uống viên phối hợp 3 thuốc được ko" — is answered by whom the book
        # says it is not for, core.combination_form; not the child's dose.)
        return merged
    return merged.model_copy(update={"turn_type": "dosing_calc", "section_key": "lieu_luong_cach_dung"})


def organ_question_person(merged: QueryFrame, text: str) -> QueryFrame:
    """"… có cần chỉnh liều vì thận không" read as the organ's lines (core.organ_adjustment) but whose person the
    merge did not carry: the dose path, which asks adult or child first — an organ line's dose is quoted for a known
    population only (grounding.organ_lines)."""
    if merged.turn_type == "drug_attribute" and merged.section_key == "lieu_luong_cach_dung" and \
            merged.population is None and asks_organ_adjustment(text) is not None:
        return merged.model_copy(update={"turn_type": "dosing_calc"})
    return merged
