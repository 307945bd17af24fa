"""Evidence text as quotable units: lines, then sentences, with Markdown emphasis and comments removed."""

from __future__ import annotations

import re
from functools import lru_cache

_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_EMPHASIS = re.compile(r"(?<![^\W_])\*{1,2}|\*{1,2}(?![^\W_])")
"""Markdown emphasis marks — not an asterisk inside a word ("HLA-B*1502", an allele name the book writes so; #18
held-out H50 was shown "HLA-B1502")."""
_SPACES = re.compile(r"\s+")
_BULLET = re.compile(r"^\s*[-•+]\s+")
# A sentence ends at . ! ? followed by space and a capital, a bullet or a label; decimals ("0.5") never split.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[*\-•(\"“]?[A-ZÀ-ỸĐ0-9])")


@lru_cache(maxsize=16_384)
def clean(text: str) -> str:
    """A quoted line as a reader sees it: no Markdown emphasis, no list bullet, no HTML comment.

    Cached (a pure function of a string): the same evidence lines are cleaned for every claim that cites them."""
    text = _COMMENT.sub("", text)
    text = _BULLET.sub("", text)
    text = _EMPHASIS.sub("", text)
    return _SPACES.sub(" ", text).strip()


def lines(text: str) -> list[str]:
    """Non-empty lines, cleaned; comment-only lines (page markers) dropped."""
    out = []
    for raw in _COMMENT.sub("", text).splitlines():
        line = clean(raw)
        if line:
            out.append(line)
    return out


def split_sentences(line: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(line) if s.strip()]


def sentences(text: str) -> list[str]:
    """Every sentence of a block, in order (a list item or subheading line counts as one)."""
    return [s for line in lines(text) for s in split_sentences(line)]
