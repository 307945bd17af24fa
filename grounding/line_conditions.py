"""The conditions one contraindication line states, split so each can be checked against the patient.

A line of "Chống chỉ định" is a list of separate contraindications ("Suy gan nặng, suy thận nặng; 3 tháng cuối thai
kỳ."): each item, cut at ";" and at ", " outside brackets, stands alone. One item may state several conditions that
must ALL hold for it to be a contraindication:

- a co-medication or another condition before "ở người bệnh …": "Phối hợp với colchicin ở người bệnh suy gan hoặc
  suy thận" is about a patient who takes colchicine AND has liver or kidney disease;
- a conjunction: "suy gan nặng kèm suy thận" needs both;
- a cause: "tiêu chảy do vi khuẩn xâm nhập" needs the diarrhoea AND its cause;
- a qualifier after a child group: "Trẻ sơ sinh thiếu tháng nghi ngờ viêm ruột hoại tử" is about a preterm newborn
  WITH suspected necrotising enterocolitis, not every preterm newborn.

Spans are returned as written (diacritics kept), so the caller can match the user's words with their diacritics.
"""

from __future__ import annotations

import re
import unicodedata

from core.text import fold

_CONJUNCTION = re.compile(r"\s+kem(?: theo)?\s+")
# "<disease> do <cause>": "tiêu chảy do vi khuẩn xâm nhập" is diarrhoea OF that cause, not every diarrhoea (a child
# with loose stools was refused loperamid's dose by it). The cause is a second condition of the item.
_CAUSE = re.compile(r"^(?P<main>.+?)\s+do\s+(?=\S)")
# "<main> ở người bệnh <group>": the main part is a second condition of the same item.
_QUALIFIED_GROUP = re.compile(r"^(?P<main>.+?)\s+o\s+(?=(?:nguoi benh|nguoi|benh nhan|tre|phu nu)\b)")
# A child group and its band, as the book opens a child's line: "Trẻ sơ sinh thiếu tháng", "trẻ em dưới 2 tuổi".
_CHILD_HEAD = re.compile(
    r"\b(?:tre (?:em|nho|so sinh|de non|sinh non|nhu nhi)|tre|so sinh|nhu nhi)"
    r"(?: (?:thieu thang|du thang|de non|sinh non|non thang))?"
    r"(?: (?:duoi|tren|tu|den|nho hon|lon hon|<|>|≤|≥) ?\d[\d ,.\-–]*(?:tuoi|thang|ngay|tuan|kg)(?: tuoi)?)?")
# What may follow a child group without qualifying it: a reason ("vì nguy cơ hội chứng Reye"), a purpose, an
# exception ("trừ khi …"), an emphasis ("đặc biệt …"), another list item ("và", "hoặc"), a hedge ("có thể").
_NOT_A_QUALIFIER = re.compile(r"^(?:vi|do|de|tru|ngoai tru|tru khi|dac biet|nhat la|neu|khi|la|va|hoac|hay|co the|"
                              r"vi nguy co|trong|thi)\b")


def _aligned(text: str) -> tuple[str, str] | None:
    """(the text NFC, its fold) when folding kept every character's place (so folded spans slice the text)."""
    written = re.sub(r"\s+", " ", unicodedata.normalize("NFC", text)).strip()
    folded = fold(written)
    return (written, folded) if len(written) == len(folded) else None


# A clause that only explains or limits the item before it ("…, vì nguy cơ hội chứng Reye, trừ khi … Kawasaki").
_CONTINUES = re.compile(r"^(?:vi|do|tru|ngoai tru|tru khi|dac biet|nhat la|ke ca|bao gom|nhu|neu|khi|tuc la)\b")


def items(sentence: str) -> list[str]:
    """The separate contraindications of one line: cut at ";" and at ", " outside brackets; a clause giving the
    reason or the exceptions of the one before stays with it."""
    cut: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(sentence):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif depth == 0 and (ch == ";" or (ch == "," and sentence[i + 1:i + 2] == " ")):
            cut.append(sentence[start:i + 1])
            start = i + 1
    cut.append(sentence[start:])
    out: list[str] = []
    for piece in cut:
        if out and not out[-1].endswith(";") and _CONTINUES.match(fold(piece)):
            out[-1] += piece
        else:
            out.append(piece)
    return [p.strip(" .;,") for p in out if p.strip(" .;,")]


def conjuncts(item: str) -> list[str]:
    """The conditions one item states, each of which must hold: ["Phối hợp với colchicin", "người bệnh suy gan
    hoặc suy thận"], ["suy gan nặng", "suy thận"]; [item] when it states one."""
    aligned = _aligned(item)
    if aligned is None:
        return [item]
    written, folded = aligned
    cuts = [(m.start(), m.end()) for m in _CONJUNCTION.finditer(folded)]
    if not cuts:
        group = _QUALIFIED_GROUP.match(folded)
        if group:
            cuts = [(group.end("main"), group.end())]
    if not cuts:
        cause = _CAUSE.match(folded)
        # As written "do" (by, because of), never "đỏ" (red: "ban đỏ") or "độ" that fold to it.
        if cause and written[cause.end("main"):cause.end()].strip() == "do":
            cuts = [(cause.end("main"), cause.end("main"))]
    if not cuts:
        return [item]
    parts, start = [], 0
    for begin, end in cuts:
        parts.append(written[start:begin])
        start = end
    parts.append(written[start:])
    return [p.strip(" ,") for p in parts if p.strip(" ,")]


def child_qualifier(sentence: str) -> str | None:
    """What a child group in the sentence is qualified by ("đang có chảy máu như …", "nghi ngờ viêm ruột hoại tử",
    "tăng bilirubin huyết"), as written; None when the group stands alone ("Trẻ em dưới 16 tuổi, vì nguy cơ …")."""
    aligned = _aligned(sentence)
    if aligned is None:
        return None
    written, folded = aligned
    head = _CHILD_HEAD.search(folded)
    if head is None:
        return None
    rest = folded[head.end():]
    stripped = rest.lstrip()
    if not stripped or stripped[0] in ",.;:()" or _NOT_A_QUALIFIER.match(stripped):
        return None
    begin = head.end() + len(rest) - len(stripped)
    return written[begin:].strip(" .") or None
