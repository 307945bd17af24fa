"""Deterministic scope checks that run before any conversational clarify."""

from __future__ import annotations

import re

from core.text import fold

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
    r"con ngua|vat nuoi|thu y|cun|hamster|ca canh|dog|cat|pet|puppy|kitten|veterinary)\b"
)


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


def looks_non_human(text: str) -> bool:
    """True when the turn is about an animal patient."""
    text = _NICKNAME.sub(lambda m: m.group(1), text)
    if _ANIMAL_WORDS.search(text):
        return True
    # Ambiguity is resolved toward abstaining: a false positive only declines; a false negative could dose an animal.
    return text.isascii() and bool(_FOLDED_ANIMAL.search(fold(text)))
