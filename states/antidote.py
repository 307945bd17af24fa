"""A drug the formulary has no monograph for, asked about in one drug's overdose context: an antidote.

"Với bệnh nhân này, N-acetylcystein đường uống trong xử trí quá liều paracetamol dùng liều thế nào?" asks the
antidote's regimen, which the book states inside paracetamol's "Quá liều và xử trí" (140 mg/kg, then 70 mg/kg in the
real text). Answered from that section, the lines naming the antidote first (grounding.question_focus) — never from
paracetamol's "Liều lượng và cách dùng", whose doses are paracetamol's, not the antidote's (a tester was shown
paracetamol's 0,5 - 1 g/lần as the answer).

And the rule beside it: a dose question whose dose is the non-formulary drug's ("liều N-acetylcystein cho bệnh nhân
uống paracetamol") is never answered with the formulary drug's dose. When the drug's overdose section does not name
it, the formulary drug is dropped from the question, so the turn abstains naming the drug the book lacks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from core.corpus import Chunk
from core.text import fold, states_phrase
from states.frame import QueryFrame
from states.overdose import OVERDOSE_SECTION

DOSING_SECTION = "lieu_luong_cach_dung"

SectionLookup = Callable[[str, str], Sequence[Chunk]]
_ABBREVIATED = (("nac", "N-acetylcystein"),)
"""(Folded abbreviation, the antidote's name as the book writes it.)"""


def _dose_of(folded: str, name: str) -> bool:
    """"liều N-acetylcystein", "liều dùng của methionin", "liều lượng acetylcystein": the dose named is this drug's."""
    return re.search(rf"\blieu (?:dung |luong |cua |dung cua )?{re.escape(fold(name))}\b", folded) is not None


def _dose_asked(frame: QueryFrame, folded: str) -> bool:
    return frame.turn_type == "dosing_calc" or frame.section_key == DOSING_SECTION or bool(
        re.search(r"\blieu\b", folded.replace("qua lieu", "")))


def with_antidote(merged: QueryFrame, turn: QueryFrame, prior: QueryFrame | None, text: str,
                  find_by_section: SectionLookup) -> QueryFrame:
    """The frame answering a non-formulary drug named in one drug's overdose section from that section; or, for a
    dose question about a non-formulary drug, the frame that names no formulary drug (abstains naming it)."""
    folded = fold(text)
    # "NAC liều bn" after the child's paracetamol overdose: clinicians' abbreviation of the antidote (#17 held-out
    # H186 asked the child's weight for a paracetamol dose).
    unknown = merged.unknown_drugs or [name for short, name in _ABBREVIATED if re.search(rf"\b{short}\b", folded)]
    if unknown and not merged.unknown_drugs:
        merged = merged.model_copy(update={"unknown_drugs": unknown})
    if not unknown or merged.refusal is not None or merged.turn_type in ("interaction", "out_of_scope", "smalltalk"):
        return merged
    carried = not turn.drugs and prior is not None and len(prior.drugs) == 1 and prior.section_key == OVERDOSE_SECTION
    drugs = merged.drugs if len(merged.drugs) == 1 else (prior.drugs if carried and prior is not None else [])
    if len(drugs) != 1:
        return merged
    drug = drugs[0]
    overdose_context = (merged.section_key == OVERDOSE_SECTION or carried
                        or any(_dose_of(folded, u) for u in unknown))
    if not overdose_context or not _dose_asked(merged, folded) and merged.section_key != OVERDOSE_SECTION:
        return merged
    try:
        section = find_by_section(drug, OVERDOSE_SECTION)
    except Exception:  # noqa: BLE001 - an index outage here only skips the reading; retrieval reports it later
        section = []
    named = [u for u in unknown if any(states_phrase(c.text, u) for c in section)]
    if named:
        return merged.model_copy(update={
            "drugs": [drug], "turn_type": "drug_attribute", "section_key": OVERDOSE_SECTION, "section_overview": False,
            "needs_clarify": False, "clarify_reason": None, "quick_replies": []})
    if any(_dose_of(folded, u) for u in unknown) and _dose_asked(merged, folded) and not _dose_of_known(folded, turn):
        # The dose asked is the non-formulary drug's and the book states it nowhere here: never the other drug's.
        return merged.model_copy(update={"drugs": [], "section_key": None})
    return merged


def _dose_of_known(folded: str, turn: QueryFrame) -> bool:
    return any(_dose_of(folded, d.replace("_", " ")) for d in turn.drugs)
