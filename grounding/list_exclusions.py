"""What a condition → drug list must say under a listed drug for THIS patient: the book's sentences that exclude the
patient from it (a child's age band, pregnancy, breastfeeding).

One reading for every generator and for the verifier (issue #18, safety by omission): the offline list quotes these
under the drug (grounding.extractive), and the verifier reports any one a list leaves out (grounding.verify), so a
model-written list is repaired or abstains. Two sources, both as the dose path reads them:
- the safety sections (`grounding.patient_safety`): "Trẻ em dưới 16 tuổi, vì nguy cơ hội chứng Reye";
- the dosage section's exclusion lines whose band holds the patient (`core.dosage.select`): the book writes "không
  dùng cho trẻ dưới 2 tuổi" only there as often as in "Chống chỉ định". Only the exclusion line is quoted — never a
  dose line beside it (a list is not the dose path).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from core.corpus import Chunk
from core.dosage.model import Patient
from core.dosage.select import select as select_lines
from grounding.answer import Claim
from grounding.dosing_select import trees_by_drug
from grounding.patient_safety import SAFETY_SECTIONS, patient_safety
from grounding.sentences import clean


@dataclass(frozen=True)
class ListExclusion:
    claim: Claim
    """As quoted under the drug: the sentence, or the dosage line after its context path ("Uống › Trẻ em: …")."""
    statement: str
    """The book's own words a list must state (what the verifier looks for, and the repair adds)."""


UNKNOWN_AGE_PROBES = (1.0, 6.0, 24.0, 72.0, 144.0, 180.0)
"""Ages (months) a child of unknown age and weight is read at on a list ("thuốc nào dùng cho bé bị sốt"): a newborn,
an infant, a toddler, a school child, a pre-teen and a 15-year-old. Safety (#18, by omission): aspirin listed for a
child's fever with no word of "Trẻ em dưới 16 tuổi … hội chứng Reye" implies it is an option; an exclusion that holds
at any of these ages is quoted under the drug, and the list's notice says it applies when its condition holds."""


def list_exclusions(evidence: Sequence[Chunk], drug_id: str, patient: Patient, *, pregnant: bool = False,
                    breastfeeding: bool = False) -> list[ListExclusion]:
    if patient.population == "pediatric" and patient.age_months is None and patient.weight_kg is None:
        found: list[ListExclusion] = []
        for months in UNKNOWN_AGE_PROBES:
            for e in _list_exclusions(evidence, drug_id, replace(patient, age_months=months),
                                      pregnant=pregnant, breastfeeding=breastfeeding):
                if all(f.statement != e.statement for f in found):
                    found.append(e)
        return found
    return _list_exclusions(evidence, drug_id, patient, pregnant=pregnant, breastfeeding=breastfeeding)


def _list_exclusions(evidence: Sequence[Chunk], drug_id: str, patient: Patient, *, pregnant: bool = False,
                     breastfeeding: bool = False) -> list[ListExclusion]:
    own = [c for c in evidence if c.drug_id == drug_id]
    blocks = [c for c in own if c.section_key in SAFETY_SECTIONS]
    found = [ListExclusion(claim=e, statement=e.text) for e in
             patient_safety(blocks, patient, pregnant=pregnant, breastfeeding=breastfeeding).exclusions]
    for tree in trees_by_drug(own):
        for line in select_lines(tree.tree, patient).exclusions:
            statement = clean(line.text.rstrip(";, "))
            if any(f.statement == statement for f in found):
                continue
            found.append(ListExclusion(claim=Claim(text=clean(line.quoted()), citations=tree.citations(line)),
                                       statement=statement))
    return found
