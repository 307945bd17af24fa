"""The dosage lines answering "is the dose changed for renal (or hepatic) impairment?" (core.organ_adjustment).

The generator quotes them and the verifier admits them, both from this one function: a free-form answer from the
dosage section otherwise quotes no number (grounding.verify.check_free_form), because a number there may be another
band's dose. These lines are the organ's own (under "Suy thận:" or stating a ClCr/eGFR band), of the patient's
population or of everyone, and of the patient's own band when their value or grade is known.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.corpus import Chunk
from core.dosage.select import HEPATIC_WORDS, RENAL_WORDS, band_admits, is_renal_line
from core.text import fold
from grounding.answer import Claim, GenerationRequest
from grounding.dosing_select import patient_of_request, trees_by_drug
from grounding.sentences import clean, sentences

CAUTION_SECTION = "than_trong"
CONTRAINDICATION_SECTION = "chong_chi_dinh"

MAX_ORGAN_LINES = 6
"""The renal (or hepatic) lines quoted for "có cần chỉnh liều không": a phone screen of them."""


DIALYSIS = re.compile(r"\b(?:tham phan|tham tach|loc mau|chay than|than nhan tao)\b")
"""(Folded.) A line for patients on dialysis."""


def organ_claims(request: GenerationRequest, evidence: Sequence[Chunk], organ: str) -> list[Claim]:
    """The organ's dosage lines for this request's patient, each as the book writes it with its citations. None when
    the population is not known (a dose line is quoted for a known population only, as on the dose path)."""
    if request.population is None:
        return []
    patient = patient_of_request(request)
    claims: list[Claim] = []
    for tree in trees_by_drug(evidence):
        for line in tree.tree.lines:
            if line.context.population not in (None, request.population):
                continue
            renal = is_renal_line(line)
            hepatic = line.context.hepatic or line.band.hepatic is not None
            if not (renal if organ == "renal" else hepatic):
                continue
            if organ == "renal" and line.band.renal_ml_min is not None and patient.renal_ml_min is not None \
                    and not band_admits(line.band, patient):
                continue
            if organ == "renal" and patient.dialysis is None and patient.renal_ml_min is not None and \
                    DIALYSIS.search(fold(" ".join((*line.path, line.text)))):
                # ("Bệnh nhân thẩm phân máu: 250 - 500 mg/24 giờ" is a dialysis patient's, not one of ClCr 20 — #17
                # held-out H160, flagged.)
                continue
            if organ == "hepatic" and line.band.hepatic not in (None, "any") and patient.hepatic not in (None, "any") \
                    and not band_admits(line.band, patient):
                continue
            # The lead-in before the line as the book writes it ("Suy thận: Không cần điều chỉnh liều."): quoted with
            # it when it stands right before the line, else the line alone (a claim is the book's words).
            labelled = clean(f"{line.path[-1]}: {line.text}") if line.path else ""
            verbatim = bool(labelled) and fold(labelled) in fold(clean(tree.text.replace("*", "")))
            claims.append(Claim(text=labelled if verbatim else clean(line.text), citations=tree.citations(line)))
    if not claims:
        # The dosage section writes nothing for the organ, but the cautions do ("Ở người suy thận: … Không khuyến cáo
        # phải điều chỉnh liều … chỉ nên dùng liều uống đến tối đa là 40 mg" in pantoprazole's "Thận trọng"): those
        # sentences, the one naming the organ and the ones continuing it (#17 held-out H105 asked which indication).
        claims = _caution_sentences(evidence, organ)
    return claims[:MAX_ORGAN_LINES]


def organ_contraindications(request: GenerationRequest, evidence: Sequence[Chunk]) -> list[Claim]:
    """The contraindication sentences naming the patient's impaired organ, when the path brought them beside a
    question answered from the dosage section (states.paths) — stated first: "Chưa xác định được độ an toàn … ở
    người suy thận" alone left ibuprofen's "suy thận (mức lọc cầu thận dưới 30 ml/phút)" unsaid (#18 held-out H275)."""
    organs = [o for o, said in (("renal", request.renal), ("hepatic", request.hepatic)) if said]
    return [Claim(text=clean(s), citations=[c.doc_id]) for c in evidence
            if c.section_key == CONTRAINDICATION_SECTION and not c.has_quarantined_content
            for s in sentences(c.text) if any(_ORGAN_WORDS[o].search(fold(s)) for o in organs)]


_ORGAN_WORDS = {"renal": RENAL_WORDS, "hepatic": HEPATIC_WORDS}
_OPENS_OTHER_GROUP = re.compile(r"^(?:o |voi )?(?:nguoi|benh nhan|tre|phu nu|nguoi benh)\b|^[^\s]+ (?:tre em|nguoi cao tuoi):")


def _caution_sentences(evidence: Sequence[Chunk], organ: str) -> list[Claim]:
    claims: list[Claim] = []
    for chunk in (c for c in evidence if c.section_key == CAUTION_SECTION and not c.has_quarantined_content):
        parts = sentences(chunk.text)
        for i, sentence in enumerate(parts):
            if not _ORGAN_WORDS[organ].search(fold(sentence)):
                continue
            claims.append(Claim(text=clean(sentence), citations=[chunk.doc_id]))
            for after in parts[i + 1:i + 3]:
                if _OPENS_OTHER_GROUP.search(fold(after)) or _ORGAN_WORDS["hepatic" if organ == "renal" else "renal"] \
                        .search(fold(after)):
                    break
                claims.append(Claim(text=clean(after), citations=[chunk.doc_id]))
            return claims
    return claims
