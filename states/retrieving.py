"""The retrieving states' steps: single drug, interaction, condition → drug, and the patient safety review.

Each step only fetches evidence (states/paths.py); the transitions out of it decide what the evidence means.
"""

from __future__ import annotations

from collections.abc import Callable

from core.dosage.indication import is_severity_label, names_all_words, severities, severity_phrase
from core.dosage.usual import usual_indication, usual_indication_note, usual_severity_note
from core.errors import IndexUnavailable
from core.sentence_match import asked_words
from core.text import fold
from states import paths
from states.conditions import condition_as_in_book
from states.dosing import indications_in_evidence, usual_severity
from states.followup import settle_route_family
from states.step import Failure, Services, TurnView, Update, update


def _retrieving(ctx: TurnView, fn: Callable[[], dict[str, object]]) -> Update:
    """Run retrieval work; an index outage becomes a failure the next transition abstains on."""
    try:
        return Update(fn())
    except IndexUnavailable as exc:
        return update(failure=Failure("index", ctx.state, str(exc)), evidence=[], safety_evidence=[], routes_found=[],
                      notes=[f"index unavailable: {exc}"])


def retrieve_single(ctx: TurnView, services: Services) -> Update:
    def run() -> dict[str, object]:
        evidence, routes_found = paths.single_drug_evidence(services.retrieval, ctx.frame, asked_words(ctx.query))
        # "thế còn đường tiêm?": settled against the evidence already fetched (no second index read, so an index
        # outage is this step's failure and abstains as index_unavailable).
        frame = settle_route_family(ctx.frame, routes_found)
        indications = indications_in_evidence(evidence, frame) if paths.is_dose_question(frame) else []
        if indications and frame.condition and not indications_in_evidence(
                evidence, frame.model_copy(update={"condition": None})) and paths.indication_of_drug(
                services.retrieval, frame):
            # "người lớn viêm họng uống amoxicilin": an indication the book names in "Chỉ định" but gives no dose
            # lead-in of its own is dosed by the patient's general line (the book's usual dose); the machine does
            # not ask which of the other indications' lead-ins it is.
            indications = []
        if indications and frame.condition and (
                label := paths.indication_label_in_book(services.retrieval, frame, indications)):
            # The book's "Chỉ định" names the condition under one of the dosage lead-ins: that lead-in's lines — of the
            # severity said ("viêm tai giữa nặng": #17 held-out H143 asked which indication, then the mild band).
            said = severities(frame.condition or "")
            graded = f"{label}, {severity_phrase(said)}" if len(said) == 1 else label
            frame = frame.model_copy(update={"condition": graded, "condition_relation": "indication"})
            indications = indications_in_evidence(evidence, frame)
        elif not indications and frame.condition and paths.is_dose_question(frame):
            # The condition matched a dosage lead-in by some of its words only ("sau đặt stent mạch vành" by "mạch
            # vành" of "hội chứng mạch vành cấp"), while the book's "Chỉ định" files the whole phrase under another
            # lead-in ("Chống kết tập tiểu cầu: … sau đặt stent mạch vành"): that lead-in is the patient's (#18
            # held-out H56 gave a stent patient the acute coronary loading dose).
            every = indications_in_evidence(evidence, frame.model_copy(update={"condition": None}))
            label = paths.indication_label_in_book(services.retrieval, frame, every, prose=False) if every else None
            if label and not names_all_words(frame.condition, every):
                frame = frame.model_copy(update={"condition": label, "condition_relation": "indication"})
        severity_only = bool(frame.condition) and is_severity_label(frame.condition or "")
        if (not frame.condition or severity_only) and (usual := usual_indication(indications)):
            # No indication named, and one of the patient's is the drug's everyday use while the others are
            # circumstances the user would have said (core.dosage.usual): its lines are the answer, named as such.
            # A severity alone ("người lớn, uống, nhiễm khuẩn nặng") names no indication either: the usual one, of
            # that severity (#17 held-out H133 was asked among Lyme disease and H. pylori).
            said = severities(frame.condition or "")
            condition = f"{usual}, {severity_phrase(said)}" if severity_only and said else usual
            frame = frame.model_copy(update={"condition": condition, "condition_relation": "indication",
                                             "notes": [*frame.notes, usual_indication_note(usual, indications)]})
            indications = []
        if not indications and paths.is_dose_question(frame) and (split := usual_severity(evidence, frame)):
            # No severity said where the patient's lines split by it: the mild band, as the usual indication is —
            # of the indication named ("viêm tai giữa, nhẹ, vừa": its severity words only, so the indication matched
            # stays the same), or the band's own lead-in when none is.
            mild, severe = split
            typed_plain = bool(frame.condition) and frame.condition == fold(frame.condition or "")
            condition = f"{frame.condition}, {severity_phrase(frozenset({'mild'}), folded=typed_plain)}" \
                if frame.condition else mild
            frame = frame.model_copy(update={"condition": condition, "condition_relation": "indication",
                                             "notes": [*frame.notes, usual_severity_note(mild, severe)]})
        return {"evidence": evidence, "routes_found": routes_found, "indications_found": indications,
                **({"frame": frame} if frame is not ctx.frame else {})}

    return _with_path("single_drug", _retrieving(ctx, run))


def retrieve_interaction(ctx: TurnView, services: Services) -> Update:
    def run() -> dict[str, object]:
        return {"evidence": paths.interaction_evidence(services.retrieval, ctx.frame)}

    return _with_path("interaction", _retrieving(ctx, run))


def retrieve_condition(ctx: TurnView, services: Services) -> Update:
    def run() -> dict[str, object]:
        evidence, candidates, truncated = paths.condition_evidence(services.retrieval, ctx.frame)
        evidence += [c for c in paths.child_safety_blocks(services.retrieval, ctx.frame, candidates)
                     if c not in evidence]
        evidence += [c for c in paths.child_dosage_exclusion_blocks(services.retrieval, ctx.frame, candidates)
                     if c not in evidence]
        # The condition as the book spells it ("mề đay" asked, "mày đay" in the text), from the evidence fetched.
        frame = condition_as_in_book(ctx.frame, evidence)
        if truncated:  # a partial list must say so (the note is the reply's first line, this turn only)
            frame = frame.model_copy(update={"notes": [*frame.notes, paths.LIST_TRUNCATED_NOTE]})
        return {"evidence": evidence, "candidates": candidates, **({"frame": frame} if frame is not ctx.frame else {})}

    return _with_path("condition_to_drug", _retrieving(ctx, run))


def review_safety(ctx: TurnView, services: Services) -> Update:
    def run() -> dict[str, object]:
        safety_evidence = paths.safety_evidence(services.retrieval, ctx.frame, ctx.candidates)
        return {"safety_evidence": safety_evidence, "evidence": [*ctx.evidence, *safety_evidence]}

    return _retrieving(ctx, run)


def _with_path(path: str, done: Update) -> Update:
    return Update({"path": path, **done.values}, done.notes)
