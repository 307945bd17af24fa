"""Vietnamese text folding: lower case, no diacritics, đ → d, collapsed spaces."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=65_536)
def fold(text: str) -> str:
    """'Thời kỳ mang thai' → 'thoi ky mang thai'. Used for headings, names and keyword matching.

    Cached: the same evidence texts and drug names are folded many times per turn (measured: a third of an
    offline turn's CPU before the cache)."""
    text = text.replace("đ", "d").replace("Đ", "D")
    decomposed = unicodedata.normalize("NFD", text)
    stripped = "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn")
    return _SPACES.sub(" ", stripped.lower()).strip()


@lru_cache(maxsize=65_536)
def normalize(text: str) -> str:
    """NFC-normalise (mixed NFD/NFC input from OCR and keyboards) and collapse whitespace.

    Cached as `fold` is: a pure function of the text, called ~40 times per offline turn on the same evidence."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text)).strip()


# Chat abbreviations in typed questions ("ko nên", "đc không", "bn mg"): expanded before phrase rules run.
_ABBREVIATIONS = {"ko": "khong", "k": "khong", "hok": "khong", "hong": "khong", "dc": "duoc", "đc": "duoc",
                  "bn": "bao nhieu", "ng": "nguoi", "j": "gi", "ntn": "nhu the nao", "sd": "su dung"}
_WORD = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=4096)
def fold_query(text: str) -> str:
    """`fold`, then common chat abbreviations expanded: for matching the phrasing of a question.

    Cached as `fold` is: the section router, the slots and the follow-up readers ask it of the same turn about
    three times per turn."""
    return _WORD.sub(lambda m: _ABBREVIATIONS.get(m.group(0), m.group(0)), fold(text))


def states_phrase(text: str, phrase: str) -> bool:
    """The folded phrase occurs in the folded text as whole words ("sot" in "ha sot.", not in "sotalol")."""
    folded = fold(phrase)
    return bool(folded) and _phrase_pattern(folded).search(fold(text)) is not None


_DASH = re.compile(r"\s*[-–—]\s*")


def undashed(text: str) -> str:
    """Dashes between words as one space: the book's "blốc nhĩ - thất", "dạ dày – tá tràng" as users type them."""
    return _DASH.sub(" ", text)


@lru_cache(maxsize=4096)
def _phrase_pattern(folded: str) -> re.Pattern[str]:
    # Compiled once per phrase: the patterns of many phrases overflow `re`'s own cache of 512. Between two words a
    # space also matches a dash ("bloc nhi that" in the book's "blốc nhĩ - thất": how users type the book's phrase).
    words = [re.escape(w) for w in folded.split(" ")]
    return re.compile(r"(?<![a-z0-9])" + r"(?:\s*[-–—]\s*|\s+)".join(words) + r"(?![a-z0-9])")


@lru_cache(maxsize=8192)
def bounded(phrase: str, edge: str = "alnum") -> re.Pattern[str]:
    """`phrase` (taken literally) as a whole-word pattern, compiled once. `edge`: "alnum" — not inside a run of
    folded letters or digits, `(?<![a-z0-9])…(?![a-z0-9])`; "word" — `\\b…\\b`; "unicode" — `(?<!\\w)…(?!\\w)`.

    The matchers build these patterns from book phrases, names and condition variants — thousands of them, more than
    `re`'s own cache of 512 holds, so each turn compiled hundreds again (#22: about 3% of an offline turn)."""
    body = re.escape(phrase)
    if edge == "word":
        return re.compile(rf"\b{body}\b")
    if edge == "unicode":
        return re.compile(rf"(?<!\w){body}(?!\w)")
    return re.compile(rf"(?<![a-z0-9]){body}(?![a-z0-9])")


@lru_cache(maxsize=16_384)
def compiled(source: str) -> re.Pattern[str]:
    """`source` compiled once. For patterns a matcher builds from names, phrases and vocabulary at run time
    (`rf"\\b{name}\\b"`): there are more than a thousand of them, `re`'s own cache holds 512, and past it every turn
    compiled hundreds again (#22's turn p50 went from 2.6 to 3.7 ms as the vocabulary grew; about a tenth of a turn
    was `re` compiling)."""
    return re.compile(source)
