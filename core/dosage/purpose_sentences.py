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

from core.dosage.bands import read_band
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
    prevention = [(start, end) for start, end in parts if PREVENTION in words(_purpose(line.text[start:end]))]
    if _asks_prevention(indication) and prevention and named != prevention:
        # (Compared as parts, not counted: one acute part named beside one prevention part is not the prevention —
        # "sau nhồi máu cơ tim, phòng tái phát" was given the loading dose; #17 held-out H135.)
        # "bị nhồi máu cơ tim rồi, phòng ngừa lâu dài uống bn": the infarction is the history, the prevention the
        # question — the long-term sentence, not the acute loading dose that names the infarction (#17 held-out H94).
        named = [part for part in named if part in prevention] or prevention
    if not named and _asks_prevention(indication):
        # Asked to prevent ("phòng nhồi máu cơ tim"): the part for prevention ("dự phòng dài hạn biến chứng tim
        # mạch"), never the acute case's loading dose beside it, though that sentence names the infarction.
        named = [(start, end) for start, end in parts if PREVENTION in words(_purpose(line.text[start:end]))]
    if not named or len(named) == len(parts):
        return [line]
    return [_narrowed(line, start, end) for start, end in named]


def _asks_prevention(indication: str) -> bool:
    """The question names prevention, typed with or without diacritics ("phòng ngừa", "phong ngua lau dai")."""
    return PREVENTION in words(indication) or fold(PREVENTION) in words(indication, folded=True)


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


# --- one sentence giving doses for several age groups ------------------------------------------------------------

_BAND_MARK = re.compile(r"(?:đối với|ở|cho)\s+(trẻ\s+[^,;.()]{2,60}?)(?=\s*(?:[,;).]|\s+và\s|$))", re.IGNORECASE)
_CLAUSE_OPEN = re.compile(r"\(|;\s|,\s*và\s|\svà\s|:\s")
_NEWBORN_WORDS = re.compile(r"\bso sinh\b")
_FIRST_WEEKS = ((re.compile(r"\btrong (?:hai|2) tuan dau\b"), 0.0, 14 / 30.44),
                (re.compile(r"\btu tuan thu (?:ba|3) den (?:het )?tuan thu (?:tu|4)\b"), 14 / 30.44, 28 / 30.44))
"""The book's first weeks after birth, in months ("trong hai tuần đầu sau sinh", "từ tuần thứ ba đến tuần thứ tư")."""


def _age_of(phrase: str) -> tuple[float, float] | None:
    folded = fold(phrase)
    for pattern, low, high in _FIRST_WEEKS:
        if pattern.search(folded):
            return low, high
    band = read_band(phrase).band.age_months
    if band is not None:
        return band.low, band.high
    if _NEWBORN_WORDS.search(folded):
        return 0.0, 1.0
    return None


def band_clauses(line: RegimenLine, age_months: float | None) -> RegimenLine:
    """The line without the clauses of its sentence written for another age group: "… 30 - 50 mg/kg/ngày chia làm 4 lần
    đối với trẻ trên 1 tháng, và 32 mg/kg/ngày chia làm 4 lần đối với trẻ sơ sinh" for a 6-year-old drops the newborn's
    dose, "… 72 giờ ở trẻ trong hai tuần đầu sau sinh và 48 giờ ở trẻ từ tuần thứ ba …" for a 10-day-old the older
    newborn's interval (#17/#18 held-out H59, H60, flagged). A dropped clause is marked "…" in the quoted text. The
    line itself when its clauses do not split by age, or when the patient's age is in none or in every one."""
    if line.kind != "regimen" or age_months is None:
        return line
    marks: list[tuple[re.Match[str], tuple[float, float]]] = [
        (m, age) for m in _BAND_MARK.finditer(line.text) if (age := _age_of(m.group(1))) is not None]
    if len(marks) < 2:
        return line
    holds = [low <= age_months < high or (high == float("inf") and age_months > low) for _, (low, high) in marks]
    if all(holds) or not any(holds):
        return line
    cut: list[tuple[int, int]] = []
    previous_end = 0
    for (m, _), held in zip(marks, holds, strict=True):
        opens = [o for o in _CLAUSE_OPEN.finditer(line.text, previous_end, m.start())]
        start = opens[-1].start() if opens else previous_end
        if not held:
            # "(30 - 50 mg/kg/ngày … trên 1 tháng, và 32 mg/kg/ngày … sơ sinh)": from the clause's opening word on,
            # its bracket or separator kept when it opens the sentence's list.
            keep_open = line.text[start] == "(" or line.text[start:start + 2] == ": "
            cut.append((start + (1 if keep_open else 0), m.end()))
        previous_end = m.end()
    text = line.text
    for start, end in reversed(cut):
        text = f"{text[:start].rstrip()} … {text[end:].lstrip()}"
    text = re.sub(r"\(\s*…\s*", "(… ", text)
    text = re.sub(r"\s*…\s*([.)])", r" …\1", text)
    return replace(line, text=text, maxima=maxima(text), rule=rule(text))
