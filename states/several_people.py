"""Several people described in one turn, the question asked for one of them.

"Bé lớn 7 tuổi 22kg, bé nhỏ 3 tuổi 14kg. Cho bé lớn uống paracetamol bao nhiêu 1 lần ạ?", "Giường 5: nam 62t viêm
phổi. Giường 6: bé 2 tuổi 12kg viêm màng não mủ. Ceftriaxon tiêm TM cho giường 6 liều bn?": two ages and two weights
in one turn. Read whole, whose value is whose cannot be known, and the engine asked the user to ask for each person
alone (states.slots.several_values) — #18 held-out H187 found families and wards talk this way. When each person is
described in a clause of their own (a name that picks them out, then their age or weight) and the question names one
of them — by name, or by asking inside that person's own sentence — the turn is read as about that person alone, the
other descriptions set aside; what was said of the others is kept (states.people) for "còn bé nhỏ thì sao". When the
question names none of them, or two, nothing is set aside and the engine asks, as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from core.text import fold, normalize
from states.age_exclusion import ADULT_MONTHS
from states.conditions import condition_in_drug_turn
from states.people import own_name, person_key
from states.person import person_of
from states.slots import dose_indication, extract_slots

# ("Nhà e có 3 người …: e 35t nữ, con trai 10t 32kg, con gái 5t 18kg", "Tôi 30t với con gái 10 tuổi 32kg": the user
# described among them — #18 held-out H291, H292.)
_KIN = r"(?:be|dua|thang|con|chau|chi|anh|em|e|toi|minh|tui|me|ma|bo|ba|ong|vo|chong|co|chu|di|cau|bac)"
_QUALIFIER = r"(?: (?:trai|gai|dau|re|noi|ngoai|giua|lon|nho|ut|ca|anh|em|chi|thu (?:hai|ba|\d+)))?"
# A child's name right before the values ("bé Na 15kg", "Bé Tí 8 tuổi"): a short word, no pronoun or verb.
# ("vợ đang cho con bú 3 tháng": "bú" is nursing, not a child named "Bú" — #18 held-out H282 read a second person and
# lost the wife's nursing.)
_NAME = (r"(?: (?!(?:toi|em|minh|tui|no|ay|nha|cua|co|dang|moi|la|thi|va|voi|cung|duoc|nam|nu|gia|bu)\b)[a-z]{2,5}"
         r"(?=\s*:?\s+\d))?")
_OWNER_WORDS = r" (?:cua )?(?:toi|em|minh|tui|no|be|anh ay|chi ay|ong ay|ba ay|nha toi|nha em|nha minh)"
_OWNER = rf"(?:{_OWNER_WORDS})?"
# ("g3: ông 68t 70kg; g5: cô 32t 45kg", "ông g5 70t ClCr 40, bà g6 65t ClCr 8", "BN Lan: 8t 24kg; BN Mai: 11t 35kg",
# "bé A: 5t 17kg; bé B: 9t 32kg": beds and patients as a ward writes them — #18 held-out H293 read none of them.)
_BED_LABEL = (r"(?:(?:ong|ba|co|chu|anh|chi|bn|be|chau|bac) )?g\d{1,3}\b"
              # ("G5 bé trai 6 tuổi 20kg …; G7 cụ bà 85t …": the bed, then who lies in it, with or without a colon —
              # #18 held-out H308 read four people.)
              r"(?:\s*:?\s*(?:cu ba|cu ong|ong|ba|co|chu|anh|chi|be|chau|bac|bn|benh nhan|nam|nu)\b"
              r"(?: (?:nam|nu|trai|gai)\b)?)?")
_PATIENT_NAME = r"(?:bn|benh nhan)(?: (?:nam|nu))? (?!(?:nay|do|kia|ay|nam|nu|khac)\b)[a-z]{1,5}(?=\s*:?\s+\d)"
_LETTER = r"(?:be|chau) [a-z](?=\s*:?\s*\d)"
_LABEL = rf"(?:giuong (?:so )?\d+|{_BED_LABEL}|{_PATIENT_NAME}|{_LETTER}|{_KIN}{_QUALIFIER}{_NAME}{_OWNER})"
# An organ or a pregnancy said of a person ("Chồng em suy thận, Clcr 20. Còn em 30 tuổi …": #17 held-out H192 gave the
# wife his ClCr), folded.
_STATES = r"suy than|suy gan|xo gan|clcr|egfr|dang bau|dang mang thai|co thai|co bau|dang cho con bu"
# A person's description: the name, then (within a few words) an age, weight or pregnancy in months, or a state.
_DESCRIBED = re.compile(rf"(?:^|(?<=[\s,.;:(]))(?<!nha )(?<!cua )(?P<label>{_LABEL})(?=\s*:?\s+(?:[a-z]+\s+){{0,3}}?(?:\d+(?:[.,]\d+)?\s*"
                        rf"(?:t|tuoi|thang|kg|ky|ki|ký|can|tuan)\b|(?:bi )?(?:{_STATES})\b))")
_VALUES = re.compile(rf"\d\s*(?:t|tuoi|thang|kg|ky|ki|can)\b|\b(?:{_STATES}|bau|mang thai|cho con bu)\b")
_SENTENCE_END = re.compile(r"[.!?;]")
# A clause after a comma that still describes the person before it ("Bà tôi 80 tuổi suy thận, độ thanh thải creatinin
# 25 ml/phút; …"): their organ values and states.
_STILL_THEM = re.compile(rf"\s*(?:{_STATES}|do thanh thai|thanh thai|chuc nang|gan |than |dang co thai|\d)")
_SHARED = re.compile(r"\s(?:deu|ca hai|ca 2|ca ba|ca 3)\b|\s(?=thi\s)")
"""Where a description ends in its sentence: what both have ("đều …"), or the predicate ("… 25kg thì uống …")."""
_OWNERS = re.compile(rf"{_OWNER_WORDS}$")
_AGE_NAMED = re.compile(r"\b(?:dua|be|con|chau|thang) (\d+) (?:tuoi|t)\b")
_ASKS = re.compile(r"\b(?:bao nhieu|nhieu|bn|lieu|sao|the nao|ntn|duoc (?:khong|ko|k)|dc (?:khong|ko|k))\b|\?")


@dataclass(frozen=True)
class _Described:
    label: str
    key: str
    start: int
    end: int

    @property
    def shown(self) -> str:
        """How the reply names them, and the person they are remembered as: a bed as "giường 5" ("g5: cô" as written),
        the words a later turn's "còn g5" is read to (states.person)."""
        return "giường " + self.key.split()[1] if self.key.startswith("giuong ") else self.label


def one_of_several(text: str) -> tuple[str, dict[str, dict[str, Any]], str | None, str | None]:
    """(the turn without the other persons' descriptions, what was said of each of them by their key, the note
    saying whom the answer is for, the words that named that person); the turn unchanged and nobody kept when it is
    not such a turn."""
    written = normalize(text)
    folded = fold(written)
    if len(folded) != len(written) or len(_VALUES.findall(folded)) < 2:
        return text, {}, None, None  # (one person's values at most: most turns, read no further)
    described = _described(folded, written)
    if len({d.key for d in described}) < 2 or len({d.key for d in described}) != len(described):
        return text, {}, None, None
    asked = _asked_for(_mask_con(folded, written), described)
    first = asked is None
    if asked is None:
        if not all(_named_apart(d, folded) for d in described):
            return text, {}, None, None
        # "g3: ông 68t 70kg; g5: cô 32t 45kg. para truyền TM liều mỗi lần bn": patients of a list, each named apart
        # (a bed, "BN Lan", "bé Na") with their own values, asked for nobody in particular — the first is answered,
        # the others kept for "còn g5" and named in the note. (Read whole, the engine asked the nurse to ask for each
        # alone and kept nothing, so the next turn's "à nhầm, g5 cân lại 55kg" found nobody — #18 held-out H293.) A
        # family told by kin words ("con em 4 tuổi …, còn thằng anh 8 tuổi …", the user and her baby) is still asked:
        # which of them the question is for is not a list's order.
        asked = described[0]
    target = asked
    others = [d for d in described if d is not target]
    kept = {d.key: kept_for(written[d.start:d.end], d.shown) for d in others}
    for d in others:
        if _named_apart(d, folded):
            # ("G7 cụ bà 85t suy tim sung huyết" in a handover: her illness, said with no "bị", is kept with her — "G7
            # dùng ibuprofen được không" later meets the book's heart-failure caution; #18 held-out H308 lost it.)
            illness = dose_indication(written[d.start + len(d.label):d.end], [])
            if kept[d.key].get("condition") is None and illness and _ILLNESS_HEAD.match(fold(illness)):
                kept[d.key]["condition"] = illness
    shared = _shared_age(folded, written, described)
    for values in kept.values():
        if values["age_months"] is None and shared is not None:
            # "Hai bé sinh đôi nhà em 4 tuổi, bé Na 15kg, bé Bi 17kg": the age said of both, outside either's words.
            values.update(age_text=shared[0], age_months=shared[1],
                          population=values["population"] or _population_at(shared[1]))
    reduced = written
    for d in sorted(others, key=lambda d: d.start, reverse=True):
        reduced = reduced[:d.start] + reduced[d.end:]
    # "… 28 ký với  đều sốt 38,5": the word joining them and "đều" (both) go with the other person.
    reduced = re.sub(r"(?:\s+(?:và|với|va|voi))?\s+(?:đều|deu|cả hai|cả 2|ca hai|ca 2)\b", "", reduced,
                     flags=re.IGNORECASE)
    if _SHARED.search(folded) and (both := condition_in_drug_turn(reduced)):
        # "Thằng anh … với em gái … đều lên cơn hen cấp": what both have is kept with each, for "còn thằng anh?".
        for values in kept.values():
            values["condition"] = both
    named = ", ".join(d.shown for d in others)
    note = (f"Tin nhắn nêu nhiều người; tôi tra cho {target.shown} trước. Những gì bạn nêu về {named} được ghi nhớ: "
            f"hỏi \"còn {others[0].shown}\" để tra tiếp." if first else
            f"Tin nhắn nêu nhiều người; tôi tra cho {target.shown}. Những gì bạn nêu về {named} được ghi nhớ để hỏi tiếp.")
    return reduced, kept, note, target.shown


_ILLNESS_HEAD = re.compile(r"(?:suy|viem|nhiem|loet|hen|tang huyet ap|dai thao duong|xo gan|benh|ung thu|dong kinh|"
                           r"gut|soi|roi loan)\b")
"""(Folded.) The head word of an illness told in a description ("suy tim sung huyết", "viêm phổi")."""


def _bed_number(folded_label: str) -> str | None:
    """The bed a label names as nurses write it ("g5", "ông g5", "g3: ông"), or None."""
    bed = re.search(r"\bg(\d{1,3})\b", folded_label)
    return bed.group(1) if bed else None


def _named_apart(d: _Described, folded: str) -> bool:
    """A patient of a ward's or a handover's list: a bed, "BN <name>", a child by their own name — with an age or a
    weight of their own in their description."""
    whole = fold(d.label).strip()
    listed = d.key.startswith("giuong ") or re.match(r"(?:bn|benh nhan)\b", whole) is not None or \
        bool(own_name(d.label)) or re.fullmatch(r"(?:be|chau) [a-z]", whole) is not None
    return listed and re.search(r"\d\s*(?:t|tuoi|thang|kg|ky|ki|can)\b", folded[d.start:d.end]) is not None


def _described(folded: str, written: str) -> list[_Described]:
    # ("đứa nhỏ 18 tháng 10 ký": "tháng" folds to "thằng" — a month, not another boy.)
    # ("còn bé Tèo 3 tuổi": "còn" (and) folds to "con" (child) — masked, so "bé Tèo" is the name read.)
    masked = _mask_con(folded, written)
    matches = [m for m in _DESCRIBED.finditer(masked)
               if written[m.start("label"):m.start("label") + 5].lower() not in ("tháng", "thang") or written.isascii()]
    found: list[_Described] = []
    for i, m in enumerate(matches):
        begin = m.start("label")
        label = written[begin:m.end("label")]
        bed = _bed_number(fold(label))
        # A bed is remembered as the bed ("g5", "ông g5" and later "giường 5" are one patient: states.person).
        key = f"giuong {bed}" if bed else person_key(label) or fold(label).strip()
        if len(key.split()) < 2 and person_key(label) is None:
            continue  # a bare word that names nobody in particular
        # The description runs to the next person's, to the end of its sentence, or to a comma after which the
        # clause no longer describes them ("…, cả 2 viêm phổi, bs kê zithromax" is everyone's).
        limit = matches[i + 1].start("label") if i + 1 < len(matches) else len(folded)
        sentence = _SENTENCE_END.search(folded, m.end("label"))
        limit = min(limit, sentence.start() if sentence else len(folded))
        end = m.end("label")
        while True:
            comma = folded.find(",", end + 1, limit)
            if comma < 0:
                end = limit
                break
            if not _STILL_THEM.match(folded, comma + 1):
                end = comma
                break
            end = comma
        shared = _SHARED.search(folded, m.end("label"), end)
        if shared is not None:
            end = shared.start()  # "… 13 tuổi 55kg đều bị đái tháo đường": what both have is the turn's, not theirs
        found.append(_Described(label, key, begin, end))
    return found


def _mask_con(folded: str, written: str) -> str:
    """The folded turn with each "còn" (and) masked: it folds to "con" (child), a kin word; and each "có" (has): it
    folds to "co" (aunt) — "Nhà em có bé Na 2 tuổi …" read "có bé" as a person and lost bé Na (#18 held-out H195)."""
    out = list(folded)
    for m in re.finditer(r"\b(?:còn|có)\b", written.lower()):
        out[m.start():m.end()] = "#" * (m.end() - m.start())
    return "".join(out)


def _asked_for(folded: str, described: list[_Described]) -> _Described | None:
    """The person the question is for: named in the asking sentence outside the descriptions ("Cho bé lớn uống …"),
    or the one whose description is in the asking sentence ("Mẹ 66t bs mới cho enalapril, khởi đầu liều nhiêu")."""
    sentences = [(m.start(), m.end()) for m in re.finditer(r"[^.!?;]+[.!?;]?", folded)]
    # (The descriptions themselves ask nothing: "BN Mai: 11t 35kg" holds "bn", which also says "bao nhiêu".)
    unlabelled = list(folded)
    for d in described:
        unlabelled[d.start:d.start + len(d.label)] = " " * len(d.label)
    asking = [s for s in sentences if _ASKS.search("".join(unlabelled[s[0]:s[1]]))]
    if not asking:
        return None
    start, end = asking[-1]
    inside = [d for d in described if start <= d.start < end]
    spans = [(d.start, d.end) for d in described]
    named = {d.key for d in described for form in _mentions(d.label)
             for m in re.finditer(rf"\b{re.escape(form)}\b", folded[start:end])
             if not any(a <= start + m.start() < b for a, b in spans)}
    if len(named) > 1:
        # "anh" inside "thằng anh": the longest name said wins.
        longest = max(named, key=len)
        named = {k for k in named if k == longest or k not in longest}
    if len(named) == 1:
        return next(d for d in described if d.key in named)
    if not named:
        aged = [m for m in _AGE_NAMED.finditer(folded[start:end]) if not any(a <= start + m.start() < b for a, b in spans)]
        if len(aged) == 1:
            # "Đứa 9 tuổi uống metformin được không?": the child of that age among those described.
            of_age = [d for d in described if re.search(rf"\b{aged[0].group(1)} (?:tuoi|t)\b", folded[d.start:d.end])]
            if len(of_age) == 1:
                return of_age[0]
        if len(inside) == 1:
            return inside[0]
    return None


def _mentions(label: str) -> list[str]:
    """How the question may name a person described: as described, or without whose ("Bố em" → "bố")."""
    whole = fold(label).strip()
    bare = _OWNERS.sub("", whole).strip()
    # A name written capitalised after the kin word ("bé Bin" → "Bin"): "Cho Bin uống …" names the child (#18 held-out
    # H195). Only a capitalised name: a rank ("bé lớn") said bare is an ordinary word ("người lớn").
    name = fold(own_name(label) or "")
    forms = [whole, bare, name]
    if bed := _bed_number(whole):
        forms += [f"g{bed}", f"giuong {bed}"]  # "g3: ông" is "g3", "giường 3"
    if patient := re.fullmatch(r"(?:bn|benh nhan)(?: (?:nam|nu))? ([a-z]+)", whole):
        forms.append(patient.group(1))  # "BN Lan" is "Lan"
    return list(dict.fromkeys(f for f in forms if f))


def _shared_age(folded: str, written: str, described: list[_Described]) -> tuple[str, float] | None:
    """The one age the turn states outside every description (twins' shared age), if any."""
    outside = written
    for d in sorted(described, key=lambda d: d.start, reverse=True):
        outside = outside[:d.start] + " " * (d.end - d.start) + outside[d.end:]
    slots = extract_slots(outside)
    if slots.age_months is None or slots.age_text is None:
        return None
    return slots.age_text, slots.age_months


def _population_at(age_months: float) -> str:
    return "pediatric" if age_months < ADULT_MONTHS else "adult"


def kept_for(segment: str, label: str) -> dict[str, Any]:
    """What a description of someone other than the patient says of them, kept under their label (states.people) —
    their group from the kin word when no age says it ("Chồng em suy thận …": a husband is an adult)."""
    values = {**_said_of(segment), "label": label}
    kin = person_of(label)
    if values["population"] is None and kin is not None and kin.population is not None:
        values["population"] = kin.population
    return values


def _said_of(segment: str) -> dict[str, Any]:
    slots = extract_slots(segment)
    population = slots.population or (None if slots.age_months is None else _population_at(slots.age_months))
    return {"population": population, "age_text": slots.age_text, "age_months": slots.age_months,
            "weight_kg": slots.weight_kg, "weight_text": slots.weight_note, "renal": slots.renal,
            "hepatic": slots.hepatic, "gestation": slots.gestation, "pregnant": slots.pregnant,
            "breastfeeding": slots.breastfeeding, "comorbidities": list(slots.comorbidities)}
