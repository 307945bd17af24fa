"""Patient context on the dose path: the contraindication or caution the safety sections state for this patient,
quoted before any dose — and when it is a contraindication for this patient, instead of the dose.

Which sentences: those of `chong_chi_dinh`, `than_trong`, `thoi_ky_mang_thai`, `thoi_ky_cho_con_bu` that name the
patient's context (pregnancy, breastfeeding, renal or hepatic impairment). When a sentence is a contraindication
for THIS patient:
- pregnancy / breastfeeding named in `chong_chi_dinh`: yes (the trimester is not known, so the sentence stands);
- renal: a ClCr/eGFR band in the sentence must admit the patient's value ("eGFR dưới 30" and eGFR 25); a band
  with no patient value does not decide (the dose path then asks for the value); no band, no severity: yes;
- hepatic: the sentence's grade ("suy gan nặng") must cover the patient's grade; an unknown grade does not decide.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.corpus import Chunk
from core.dosage.bands import hepatic_grade, read_band
from core.dosage.model import Patient
from core.dosage.select import band_admits
from core.text import fold
from core.vocabulary import PATIENT_TERMS
from grounding.answer import Claim
from grounding.sentences import sentences

SAFETY_SECTIONS = ("chong_chi_dinh", "than_trong", "thoi_ky_mang_thai", "thoi_ky_cho_con_bu")
MAX_SENTENCES_PER_SECTION = 3
SAFETY_FIRST_PREAMBLE = "Lưu ý an toàn Dược thư ghi cho bối cảnh bệnh nhân đã nêu (đọc trước phần liều):"
_HEPATIC_COVERS = {"mild": {"mild"}, "moderate": {"mild", "moderate"}, "severe": {"severe"}}


@dataclass
class PatientSafety:
    claims: list[Claim] = field(default_factory=list)
    contraindicated: bool = False


def _contexts(patient: Patient, query: str) -> list[str]:
    folded = fold(query)
    found: list[str] = []
    if re.search(r"\b(mang thai|co thai|thai phu|ba bau)\b", folded):
        found.append("pregnant")
    if re.search(r"\b(cho con bu|dang cho bu)\b", folded):
        found.append("breastfeeding")
    if patient.renal:
        found.append("renal")
    if patient.hepatic is not None:
        found.append("hepatic")
    return found


def _states(sentence: str, context: str) -> bool:
    folded = fold(sentence)
    terms = PATIENT_TERMS[context] + (("clcr", "egfr") if context == "renal" else ())
    return any(re.search(rf"\b{re.escape(t)}\b", folded) for t in terms)


def _contraindicates(sentence: str, context: str, patient: Patient) -> bool:
    folded = fold(sentence)
    if context in ("pregnant", "breastfeeding"):
        return True
    if context == "renal":
        band = read_band(sentence).band
        if band.renal_ml_min is not None:
            return patient.renal_ml_min is not None and band_admits(band, patient)
        return not re.search(r"\b(nhe|vua|nang|giai doan)\b", folded)
    grade = hepatic_grade(folded)
    if grade in (None, "any"):
        return True
    return patient.hepatic not in (None, "any") and patient.hepatic in _HEPATIC_COVERS[grade]


def patient_safety(evidence: Sequence[Chunk], patient: Patient, query: str) -> PatientSafety:
    contexts = _contexts(patient, query)
    result = PatientSafety()
    if not contexts:
        return result
    for section in SAFETY_SECTIONS:
        for chunk in (c for c in evidence if c.section_key == section and not c.has_quarantined_content):
            picked = 0
            for sentence in sentences(chunk.text):
                stated = [c for c in contexts if _states(sentence, c)]
                whole = section in ("thoi_ky_mang_thai", "thoi_ky_cho_con_bu") and (
                    ("pregnant" in contexts and section == "thoi_ky_mang_thai")
                    or ("breastfeeding" in contexts and section == "thoi_ky_cho_con_bu"))
                if not stated and not (whole and picked < 2):
                    continue
                if picked >= MAX_SENTENCES_PER_SECTION:
                    break
                picked += 1
                result.claims.append(Claim(text=sentence, citations=[chunk.doc_id]))
                if section == "chong_chi_dinh" and any(_contraindicates(sentence, c, patient) for c in stated):
                    result.contraindicated = True
    return result
