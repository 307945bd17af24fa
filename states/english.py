"""Questions typed in English about a formulary drug: understood where the words are unmistakable, the reply
still in Vietnamese; otherwise a clear request to ask in Vietnamese (never "what about this drug?", #18 item 7).

Only ASCII text whose words are mostly English counts: Vietnamese typed without diacritics ("lieu paracetamol cho
tre em") shares almost no words with this list.
"""

from __future__ import annotations

import re

ENGLISH_ONLY = "english_only"
"""The clarify reason of an English question the rules cannot place: the reply asks for Vietnamese."""
ENGLISH_ONLY_TEXT = ("Tôi chỉ hiểu câu hỏi bằng tiếng Việt (I can only answer questions in Vietnamese). Bạn vui "
                     "lòng hỏi lại bằng tiếng Việt, ví dụ: \"Liều paracetamol cho người lớn?\" hoặc \"Tác dụng phụ "
                     "của ibuprofen?\"")

_WORDS = (
    "a about adult adults after all an and any are as baby be before breastfeeding can child children dosage dose "
    "doses does drug drugs effect effects for give given how i in infant infants interact interaction "
    "interactions is it kid kids kg lbs many me medicine much my of old on or overdose per pregnancy pregnant safe "
    "should side take taking tell the to together use used what when which while with woman women year years yo "
    "old my son daughter he she his her weighs weight months month contraindications contraindicated "
    "contraindication precautions warnings storage store indications indication treat treats nursing mg "
    "lactation elderly patient patients kidney liver renal hepatic failure disease daily maximum max")
_ENGLISH = frozenset(_WORDS.split())

_SECTIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("qua_lieu_xu_tri", re.compile(r"\boverdos")),
    ("tac_dung_khong_mong_muon", re.compile(r"\bside effects?\b|\badverse\b")),
    ("chong_chi_dinh", re.compile(r"\bcontraindicat|\bwho (should not|shouldn't|cannot|can't) (take|use)\b")),
    ("tuong_tac_thuoc", re.compile(r"\binteract|\btogether\b|\bwith\b.*\b(take|taken|use|used)\b|"
                                   r"\b(take|taken|use|used)\b.*\bwith\b")),
    ("thoi_ky_mang_thai", re.compile(r"\bpregnan")),
    ("thoi_ky_cho_con_bu", re.compile(r"\bbreast ?feed|\blactat|\bnursing\b")),
    ("lieu_luong_cach_dung", re.compile(r"\bdos(e|es|age|ing)\b|\bhow (much|many)\b|\bmg\b")),
    ("than_trong", re.compile(r"\bprecaution|\bwarning|\bcaution")),
    ("do_on_dinh_bao_quan", re.compile(r"\bstor(e|age)\b")),
    ("chi_dinh", re.compile(r"\bused for\b|\bindicat|\bwhat is .* for\b|\btreats?\b|\bwhat is\b")),
)
_ADULT = re.compile(r"\b(adults?|grown ?ups?|elderly|woman|women|men|man)\b")
_CHILD = re.compile(r"\b(child|children|kids?|infants?|babies|baby|toddlers?|son|daughter|newborns?)\b")
_AGE = re.compile(r"\b(\d+(?:\.\d+)?)\s*(?:-| )?(years?|yrs?|y/?o|months?|mos?)\b(?:\s*-?\s*old)?")


def looks_english(folded: str, text: str, ignore: tuple[str, ...] = ()) -> bool:
    """An ASCII turn whose words (drug names aside) are mostly English."""
    if not text.isascii():
        return False
    words = [w for w in re.findall(r"[a-z]+", folded) if w not in ignore]
    hits = sum(w in _ENGLISH for w in words)
    return hits >= 2 and hits / max(len(words), 1) >= 0.6


def english_section(folded: str) -> str | None:
    for key, pattern in _SECTIONS:
        if pattern.search(folded):
            return key
    return None


def english_patient(folded: str) -> dict[str, object]:
    """Population and age stated in English ("for adults", "my 5 year old")."""
    out: dict[str, object] = {}
    if re.search(r"\bpregnan", folded):
        out.update(pregnant=True, population="adult")
    if re.search(r"\bbreast ?feed|\blactat|\bnursing\b", folded):
        out.update(breastfeeding=True, population="adult")
    m = _AGE.search(folded)
    if m:
        n = float(m.group(1))
        months = n if m.group(2).startswith("mo") else n * 12
        if 0 <= months <= 120 * 12:
            out["age_months"] = months
            out["age_text"] = (f"{m.group(1)} tháng tuổi" if m.group(2).startswith("mo") else f"{m.group(1)} tuổi")
            out["population"] = "adult" if months >= 18 * 12 else "pediatric"
            return out
    adult, child = bool(_ADULT.search(folded)), bool(_CHILD.search(folded))
    if adult != child:
        out["population"] = "adult" if adult else "pediatric"
    return out
