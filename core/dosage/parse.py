"""Parse a "Liều lượng và cách dùng" section into a DosageTree.

Two shapes of input, one reader:
- the fixture's labelled Markdown: `*Uống – Trẻ em:*` opens a paragraph (a fresh context), list items
  `- Trẻ 4–6 tuổi: 240 mg/lần.` are bands, each line closes the band of the line before;
- flattened PDF-extracted paragraphs: lead-ins inside running text ("Trẻ em: Đau, sốt: Uống: Trẻ em 3 - 6 tháng
  tuổi: 60 mg; …") open contexts.

The context is a stack of lead-ins. A lead-in of a kind already on the stack replaces it and everything opened
after it ("Đặt trực tràng:" after "Uống: …bands…" keeps "Trẻ em › Đau, sốt" and drops the oral bands); a kind not
on the stack nests. Section lead-ins ("Liều lượng:") and patient-condition lead-ins ("Suy thận:") start over.
Clauses are cut at ';' and at sentence ends; a clause without a band of its own continues the band of the line it
is in (the ceiling sentence after a band: "Tối đa 30 mg/kg/ngày").

Never by guess: a flattened table, and the lines under a band lead-in whose range cannot be read, go to
`unplaced`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Literal

from core.dosage.bands import hepatic_grade, read_band
from core.dosage.lines import (
    absence,
    dose_quantities,
    excludes,
    looks_like_table,
    maxima,
    restricts_form,
    rule,
)
from core.dosage.model import Band, Bound, Context, DosageTree, LineKind, RegimenLine, Unplaced
from core.text import fold
from core.vocabulary import BOOK_ADULT, BOOK_CHILD, INJECTION_ROUTES, NEONATE, route_patterns

EntryKind = Literal["section", "special", "route", "indication", "population", "band", "phase"]

_ROUTES = route_patterns("book")
_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
_LABEL = re.compile(r"^\s*\*(?!\*)([^*\n]{2,80}?):?\*\s*:?\s*")
_BULLET = re.compile(r"^\s*(?:[-•+–]|\d+[.)])\s+")
_SECTION = re.compile(r"^(cach dung|lieu luong|lieu dung|lieu luong va cach dung|lieu dung va cach dung|"
                      r"thoi gian dung thuoc)$")
_RENAL = re.compile(r"\b(suy than|suy giam chuc nang than|tham phan|tham tach|loc mau|chay than|chuc nang than)\b")
_HEPATIC = re.compile(r"\b(suy gan|suy giam chuc nang gan|benh gan)\b")
_ELDERLY = re.compile(r"\b(nguoi cao tuoi|nguoi gia)\b")
_MONITORING_LEADIN = re.compile(r"^(theo doi|tan suat|kiem tra|xet nghiem|giam sat)\b")
"""A lead-in about monitoring the treatment ("Theo dõi INR và điều chỉnh liều", "Tần suất kiểm tra sinh học")."""
_NAMES_A_GROUP = re.compile(r"\b(tre|so sinh|nguoi lon|nguoi cao tuoi|nguoi gia|phu nu|benh nhan|nguoi benh)\b")
_NOTE_START = re.compile(r"^(lieu|neu|o |voi |doi voi|trong|khi|de |sau(?! (?:nhoi mau|dot quy)\b)|truoc|cach |bat dau|thoi gian|tu ngay|ngay dau|\(|clcr$|egfr$)")
_FORM_OF_DRUG = re.compile(r"\b(duoc )?(dung|bao che|su dung) duoi dang\b")
"""A lead-in naming the form the drug is given in ("Pantoprazol được dùng dưới dạng muối natri:"), not its purpose:
read as an indication it was offered as one ("which indication?") beside the real ones."""
_SALT_EQUIVALENCE = re.compile(r"^[\d.,\s]+(mg|g|microgam|mcg)\b[^.;:]{0,60}\btuong duong\b")
"""A line opening with an amount that is "equivalent to" another ("11,28 mg pantoprazol natri tương đương với 10 mg
pantoprazol"): how the salt converts, not a dose."""
_SEVERITY = re.compile(r"^(nhiem khuan|nhiem trung|benh|the|muc do|truong hop)?\s*(nhe|vua|nang|nhe, vua|nhe va vua)\b")
_BAND_LIKE = re.compile(r"\d")
_WORD = re.compile(r"\w+")
_POPULATION_INLINE = re.compile(r"^(o |cho |voi |doi voi )?(tre em|tre nho|tre|nguoi lon|nguoi cao tuoi)\b")
_TRAILING_BAND = re.compile(r"\b(cho|o|doi voi|voi) (tre|nguoi|benh nhan|so sinh)[^;.]*")
_SAME_AS_ROUTE = re.compile(r"\bnhu (?:(?:lieu|khi) )?(?:dung )?(?:duong|dang) (?:uong|tiem|truyen|dat)\b")
_INNER_LEADIN = re.compile(r"(?:^|[.,)]\s+)([^:;.,()]{3,60}):\s")
_ELIDED = re.compile(r"^(\(|\d|duoi|tren|tu |>|<|≥|≤|hoac)")
_POPULATION_THEN_INDICATION = re.compile(r"^(Người lớn|Người cao tuổi|Trẻ em|Trẻ nhỏ)\s+([A-ZĐÀ-Ỹ][^\d]{2,})$")
"""A population lead-in glued to a capitalised indication lead-in ("Người lớn Giảm đau/giảm sốt")."""
_LEADIN_PURPOSE = re.compile(r"(?<!\w)để\s+([^\d:;,.]{3,60})$", re.I)
_PURPOSE_SENTENCE = re.compile(
    r"liều(?: (?:dùng|uống|tiêm|khuyến cáo|thông thường|thường dùng|hay dùng))*\s+(?:để |trong |cho |khi |với )?"
    r"(?P<purpose>[^\d:;,.]{3,60}?)\s+là\s+(?=\d)", re.I)
"""A sentence that names its own purpose: "Liều khuyến cáo giảm sốt là 200 - 400 mg", "Liều thông thường trong đau
bụng trong thời kỳ kinh nguyệt là 200 mg"."""
_PURPOSE_OPENER = re.compile(
    r"(?P<purpose>(?:trong |để )?(?:dự phòng|phòng ngừa|phòng|điều trị)\s+(?P<what>[^\d:;,.()]{3,90}?)),\s+"
    r"(?=(?:người lớn |trẻ em )?(?:uống|tiêm|truyền|đặt|dùng|liều)\b)", re.I)
"""A sentence that opens with the indication its dose is for, without a colon: "Dự phòng loét đường tiêu hóa do
thuốc chống viêm không steroid, uống ngày một lần 20 mg." Left unread, it ran on inside the line before it (the
benign-ulcer line then carried the NSAID-prophylaxis dose: another indication's dose in the selected band). Only
a purpose word (dự phòng / phòng / điều trị) followed by a comma and a route or dose verb opens one: "Để lành viêm
trợt thực quản, điều trị có thể …" (a goal of the same treatment) does not."""
_NOT_A_PURPOSE = re.compile(r"^(toi da|toi thieu|duy tri|khoi dau|ban dau|bat dau|hang ngay|moi ngay|mot lan|"
                            r"moi lan|thong thuong|thuong dung|trung binh|can bang|nap|tan cong)\b|"
                            r"\b(tre|nguoi|benh nhan|so sinh|tuoi|thang|kg|clcr|egfr)\b")
_LIMIT_LABEL = re.compile(r"^lieu (gioi han|toi da|toi thieu)\b")
"""The label of a ceiling ("Liều giới hạn kê đơn thông thường cho người lớn: 300 mg"), quoted with its value."""
_LONG_TERM = re.compile(
    r"(?P<phase>(?:Khi|Nếu)\s+[^\d:;.]{3,120}?\b(?:điều trị|dùng) (?:lâu dài|dài hạn|duy trì)\b[^\d:;.,]*),\s+", re.I)
"""A sentence that opens with the phase of treatment its lines are for ("Khi người bệnh đã ổn định với liều uống … và
cần điều trị lâu dài, có thể tiêm bắp sâu haloperidol decanoat. Liều ban đầu …"): the depot dose after it is that
phase's, not the acute dose's of the lead-in before it."""
# "10–20 ml/phút dùng 100–200 mg/ngày" under "Giảm liều theo độ thanh thải creatinin:": a clearance in ml/min is a
# renal band in its own unit, whatever word names it.
_BY_CLEARANCE = re.compile(r"\b(thanh thai creatinin|clcr|egfr|loc cau than)\b")
_BAND_CUE = re.compile(r"\b(tre|so sinh|nguoi|benh nhan|clcr|egfr|thanh thai|can nang)\b|\d\s*ml\s*/\s*(?:phut|min)\b")
_RESPECTIVELY = re.compile(r"\b(lan luot|tuong ung|theo thu tu)\b")
_COMPARISON = re.compile(r"\b(nang|nhe|nhieu tuoi|it tuoi|lon|nho|be) hon\b")
_DISCOURSE = re.compile(r"^\s*((tuy nhien|ngoai ra|trai lai|mat khac|do [^,\d]{1,40}|vi [^,\d]{1,40}),\s*)+")
_INJECTION_LEADIN = re.compile(r"^(tiem|thuoc tiem|duong tiem|dang tiem|dang thuoc tiem)$")
_INJECTION_WORD = re.compile(r"\b(tiem|thuoc tiem)\b")
MAX_LEADIN_WORDS = 30
MAX_HEADING_WORDS = 12
_HEADING_VERB = re.compile(r"(?<!\w)(là|có thể|phải|nên|không|được|dùng|uống|tiêm|cần|thường|nếu|khi|vì|để)(?!\w)")
"""Words of a sentence that says something (a note), not of a heading naming a disease (compared with diacritics:
"vì" is not the "vi" of "hành vi")."""
NEONATE_MONTHS = Bound(0.0, 1.0)
_PHASE = re.compile(r"^(?:tu |trong )?(?:(?:nhung|cac) )?(?:ngay|tuan)(?: (?:dau|dau tien|thu (?:nhat|hai|ba|tu|nam|\d+)|"
                    r"sau|sau do|tiep theo|ke tiep|con lai))?(?: tro di| tro ve sau)?$")
"""A day or week of the treatment as a lead-in ("Từ ngày thứ hai:", "Ngày đầu:", "Những ngày sau:"): when in the course
the line's dose is given, for the same patients and indication as the lines before it — never an indication of its
own (read as one, the machine asked "which indication: Tiêu chảy cấp; Từ ngày thứ hai?")."""
MAX_ROUTE_WORDS = 10
MAX_POPULATION_WORDS = 7


@dataclass
class _Entry:
    kind: EntryKind
    label: str
    """As written (for the context path)."""
    routes: tuple[str, ...] = ()
    population: Literal["adult", "pediatric"] | None = None
    neonate: bool = False
    band: Band | None = None
    readable: bool = True
    renal: bool = False
    hepatic: bool = False
    severity: bool = False
    used: bool = False
    """A line was placed under it (an indication lead-in right after an unused one nests instead of replacing)."""
    phase_sentence: bool = False
    """An indication a sentence opened with the phase of treatment (`_LONG_TERM`), not a lead-in of the book's own:
    the next purpose lead-in ("Điều trị buồn nôn và nôn …:") is not under it (see `_clause`)."""
    heading: bool = False
    """A band named by a list's heading ("Trào ngược … ở trẻ từ 1 tuổi, 1 lần/ngày, trong 4–8 tuần:"): it holds for
    every bullet under it and narrows each bullet's own band (see `_open_band`)."""


def _band_dims(band: Band) -> set[str]:
    return {n for n in ("age_months", "weight_kg", "renal_ml_min", "hepatic", "gestation_weeks")
            if getattr(band, n) is not None}


_ELDERLY_LEADIN = re.compile(r"\b(nguoi cao tuoi|nguoi gia|nguoi lon tuoi)\b")


@dataclass
class _Parser:
    text: str
    noise: tuple[str, ...]
    tree: DosageTree = field(init=False)
    stack: list[_Entry] = field(default_factory=list)
    unplaceable: str = ""
    """Why the clause being read cannot be placed ('' = it can)."""
    leadin_line: bool = False
    """The clause being emitted opens with a lead-in of its own ("Thời gian điều trị: …")."""
    injection_routes: tuple[str, ...] = ()
    """What "Tiêm:" / "Thuốc tiêm:" means in this section (see `injection_routes`)."""
    children_before: _Entry | None = None
    """The children's population lead-in the indication just replaced had open (see `_open_band`)."""

    def __post_init__(self) -> None:
        self.tree = DosageTree(text=self.text)
        self.injection_routes = injection_routes(self.text)

    # ------------------------------------------------------------------------------------------ structure

    def run(self) -> DosageTree:
        for start, end in _lines(self.text):
            self._line(start, end)
        return self.tree

    def _line(self, start: int, end: int) -> None:
        raw = self.text[start:end]
        if not raw.strip() or _COMMENT.match(raw):
            return
        bullet_line = _BULLET.match(raw) is not None
        trailing = []
        for entry in reversed(self.stack):
            if entry.kind != "band":
                break
            trailing.append(entry)
        heading = next((e for e in trailing if e.heading), None)
        self._pop_kinds({"band"})
        if heading is not None and bullet_line:
            # The list heading's band goes on under its bullets ("- Trẻ 5–10 kg: 5 mg/lần." under "… ở trẻ từ 1
            # tuổi …:"): an 8-month-old of 7 kg is in no band of that list (#18 held-out H50 got the 5 mg line).
            self.stack.append(heading)
        label = _LABEL.match(raw)
        if label:
            # A labelled paragraph is a fresh context: "*Đặt trực tràng – Trẻ em:*" says everything it is for.
            self.stack = []
            self._labelled(label.group(1))
            start += label.end()
        else:
            bullet = _BULLET.match(raw)
            if bullet:
                start += bullet.end()
        for c_start, c_end in _clauses(self.text, start, end):
            self._clause(c_start, c_end)

    def _labelled(self, label: str) -> None:
        folded = fold(label)
        if _SECTION.match(folded):
            return
        parts = [p.strip() for p in re.split(r"\s+[–—-]\s+", label) if p.strip()]
        for part in parts:
            self._leadin(part)

    def _clause(self, start: int, end: int) -> None:
        top = self.stack[-1] if self.stack else None
        if top is not None and top.kind == "band" and not top.label and self.text[:start].rstrip().endswith("."):
            # A band a sentence states in its own words ("Đối với người … cân nặng dưới 50 kg, liều …") is that
            # sentence's: the next sentence, with no band of its own, is not for those patients only. (A band
            # lead-in with a colon, "Trẻ 3 - 6 tháng: … . Tối đa …", does carry on to the ceiling sentence.)
            self.stack.pop()
        pos = start
        body_start: int | None = None
        had_band = False
        pending_note: str | None = None
        before: set[int] = set()
        while True:
            m = _leadin_at(self.text, pos, end)
            if m is None:
                break
            phrase_start, phrase_end, next_pos = m
            phrase = self.text[phrase_start:phrase_end]
            kind = self._leadin(phrase)
            if kind is None:
                break  # not a lead-in: the body starts here
            last = self._last("indication")
            if kind == "note" and body_start is None and last is not None and _CO_MEDICATION_LEADIN.match(fold(phrase)):
                # "Tăng cholesterol máu gia đình đồng hợp tử: …. Khi dùng cùng amiodaron, verapamil hoặc diltiazem:
                # không quá 10 mg/ngày": a cap for patients on those drugs, whatever the indication — not the line
                # before's (a 72-year-old on amiodarone was shown it as the familial disease's, beside the usual
                # 20–40 mg; #18 held-out H171, flagged).
                self._pop_from(last)
            if kind == "note" and body_start is None and last is not None and last.phase_sentence \
                    and _TREATMENT_START.match(fold(phrase)):
                # "… có thể tiêm bắp sâu haloperidol decanoat. Liều ban đầu …. Điều trị buồn nôn và nôn do các nguyên
                # nhân: 1 - 2 mg tiêm bắp": another purpose, not the depot injection's — the phase a sentence opened
                # ends at it (under it, the antiemetic dose read as a long-term antipsychotic line). It is that
                # purpose's indication: left a note, "chống nôn sau mổ" found no line of its own (#17 held-out H164).
                self._pop_from(last)
                self._indication(self._strip_noise(phrase), fold(phrase))
                pos = next_pos
                continue
            if pending_note is not None and kind != "note":
                # A lead-in followed by more lead-ins is not quoted with the line. A long one opens a context
                # ("Nhiễm vi khuẩn nhạy cảm ở tai, mũi, họng…: Người lớn: …"): an indication; a note-like one
                # ("Liều được tính theo cân nặng như sau:") is just dropped from the line.
                if not _NOTE_START.match(fold(pending_note)):
                    self._indication_before(pending_note, before)
                elif kind == "band":
                    self._close_severity(before)
                body_start = phrase_start if kind == "band" else None
                pending_note = None
            if kind == "note" and body_start is None:
                pending_note, before = phrase, {id(e) for e in self.stack}
            if kind in ("band", "note") and body_start is None:
                body_start = phrase_start  # the line quotes its band lead-in ("Trẻ em 3 - 6 tháng tuổi: 60 mg")
            had_band = had_band or kind == "band"
            pos = next_pos
        if body_start is None:
            body_start = pos
        if body_start == pos and self._trailing_leadin(pos, end):
            return
        if body_start == pos and self._heading(pos, end):
            # "Bệnh loạn thần và các rối loạn hành vi kết hợp. Người lớn: …": a dose-less noun phrase closed by a
            # full stop and followed by a population or route lead-in heads the lines after it, as "…:" would; its
            # lines are that indication's, not doses for every patient (a Tourette patient's, say).
            self._indication(self.text[pos:end].strip(" ."), fold(self.text[pos:end]))
            return
        line_text = self.text[body_start:end].strip()
        if not line_text or not re.search(r"\w", self.text[pos:end]):
            return
        lstart = body_start + (len(self.text[body_start:end]) - len(self.text[body_start:end].lstrip()))
        lend = lstart + len(line_text)
        self.unplaceable = ""
        purpose = _PURPOSE_SENTENCE.match(self.text, pos, end) if body_start == pos else None
        if purpose is None and body_start == pos and dose_quantities(fold(self.text[pos:end])):
            opener = _PURPOSE_OPENER.match(self.text, pos, end)
            purpose = opener if opener and not _NOT_A_PURPOSE.search(fold(opener.group("what"))) else None
        phase = _LONG_TERM.match(self.text, pos, end) if body_start == pos and purpose is None else None
        if phase is not None:
            self._indication(phase.group("phase").strip(), fold(phase.group("phase")))
            opened = self.stack[-1]
            opened.phase_sentence = True
            named = self._named_routes(self.text[phase.end():end])
            current = next((e.routes for e in reversed(self.stack[:-1]) if e.routes), ())
            if named and set(named) < set(current):
                # "… có thể tiêm bắp sâu haloperidol decanoat" under "Thuốc tiêm:" (IV and IM): the depot lines are
                # the route the sentence names, not every injection's.
                opened.routes = named
        if purpose and not _NOT_A_PURPOSE.search(fold(purpose.group("purpose"))):
            # The sentence names the purpose of its own dose: a line of that indication, not the continuation of
            # the line before (the antipyretic dose after the analgesic one, under one "Người lớn:").
            self._indication(purpose.group("purpose").strip(), fold(purpose.group("purpose")))
        if not had_band and not excludes(self.text[pos:end]):
            self._body_band(self.text[pos:end], pos)
        self.leadin_line = lstart < pos or bool(purpose) or phase is not None  # own lead-in: never a continuation
        self._emit(lstart, lend, self.text[pos:end])

    def _heading(self, start: int, end: int) -> bool:
        """The clause is an indication heading written as a sentence (see `_clause`)."""
        phrase = self.text[start:end].strip()
        folded = fold(phrase)
        if not phrase.endswith(".") or re.search(r"[\d:;,()]", phrase) or not phrase[:1].isupper():
            return False
        if _NOTE_START.match(folded) or not 2 <= len(_WORD.findall(folded)) <= MAX_HEADING_WORDS:
            return False
        if _HEADING_VERB.search(phrase.lower()) or _population(folded)[0] is not None or read_band(phrase).dimensions:
            return False
        nxt = _LEADIN.match(self.text, end, min(len(self.text), end + 80))
        if nxt is None:
            return False
        after = fold(nxt.group(1))
        return _population(after)[0] is not None and len(_WORD.findall(after)) <= MAX_POPULATION_WORDS

    def _close_severity(self, before: set[int]) -> None:
        """"Liều theo tuổi: Trẻ em dưới 1 tuổi: …" after "Nhiễm khuẩn nặng: …": the note heads bands of its own;
        the severity lead-in before it does not carry over to them."""
        severity = next((e for e in self.stack if id(e) in before and e.kind == "indication" and e.severity
                         and e.used), None)
        if severity is not None:
            self.stack = [e for e in self.stack if e is not severity]

    def _indication_before(self, phrase: str, before: set[int]) -> None:
        """Insert an indication below the entries opened after it in this clause (they were read first)."""
        later = [e for e in self.stack if id(e) not in before]
        self.stack = [e for e in self.stack if id(e) in before]
        self._indication(self._strip_noise(phrase), fold(phrase))
        self.stack.extend(later)

    # ------------------------------------------------------------------------------------------- lead-ins

    def _strip_noise(self, phrase: str) -> str:
        """A running page header glued to a lead-in ("Ibuprofen Trẻ 4 - 7 tuổi", "1486 Warfarin từ …")."""
        words = phrase.split()
        while words and (fold(words[0]) in self.noise or re.fullmatch(r"\d{3,4}", words[0])) and len(words) > 1:
            words = words[1:]
        return " ".join(words)

    def _trailing_leadin(self, pos: int, end: int) -> bool:
        """A clause that is only "Bệnh do Giardia, liều theo tuổi, uống … trong 3 ngày:" heads the lines after it
        (the next bullets). Its first clause says whose lines they are; left unread, they stayed under the indication
        before it (Giardia's age bands read as amoebic dysentery's)."""
        clause = self.text[pos:end].strip()
        if not clause.endswith(":") or ":" in clause[:-1] or "," not in clause:
            return False
        head = clause[:-1].split(",", 1)[0].strip()
        folded = fold(head)
        if not _WORD.findall(folded) or dose_quantities(folded) or _NOTE_START.match(folded):
            return False
        kind = self._leadin(head)
        if kind == "band" and self.stack and self.stack[-1].kind == "band":
            self.stack[-1].heading = True
        return kind in ("indication", "band", "population", "route")

    def _leadin(self, phrase: str) -> str | None:
        """Classify a lead-in and update the stack; the kind, 'note' (quoted with its line), or None (not one)."""
        phrase = self._strip_noise(phrase)
        folded = fold(phrase)
        words = len(_WORD.findall(folded))
        if not words or words > MAX_LEADIN_WORDS or dose_quantities(folded):
            return None
        if _SECTION.match(folded):
            self.stack = []
            return "section"
        if _PHASE.match(folded):
            # The phase ends the bands of the first day's lines (the day-2 line is for every band of them) and
            # any phase before it; the indication and population stay.
            self._pop_kinds({"band", "phase"})
            self.stack.append(_Entry("phase", phrase))
            return "phase"
        split = _INDICATION_FOR_GROUP.match(phrase)
        if split is not None and _DISEASE_HEAD.match(fold(split.group("what"))) \
                and read_band(split.group("who")).dimensions:
            # "Viêm họng do liên cầu ở trẻ từ 2 tuổi:": an indication AND the patients it is dosed for, read as two
            # (the indication, then its band) — read as a band only, its strep-throat dose was shown to a child
            # asked about otitis as if it were every child's.
            self._indication(split.group("what").strip(), fold(split.group("what")))
            return self._leadin(split.group("who"))
        band = read_band(phrase)
        population, neonate = _population(folded)
        if band.dimensions and band.ambiguous:
            self._open_band(phrase, Band(), population, neonate, readable=False)
            return "band"
        if band.dimensions:
            if _RENAL.search(folded) and not re.search(r"\bbinh thuong\b", folded) and not self._has("special"):
                self._open("special", _Entry("special", phrase, renal=True))
            self._open_band(phrase, band.band, population, neonate)
            return "band"
        if _RENAL.search(folded) and not re.search(r"\bbinh thuong\b", folded):
            self.stack = [_Entry("special", phrase, renal=True)]
            return "special"
        if _BY_CLEARANCE.search(folded) and not re.search(r"\bbinh thuong\b", folded):
            # "Suy thận: Giảm liều theo độ thanh thải creatinin: 10–20 ml/phút …": how the renal lines are adjusted,
            # not an indication (as one, a renal patient who named the disease lost every renal line).
            if any(e.kind == "special" and e.renal for e in self.stack):
                return "note"
            self.stack = [_Entry("special", phrase, renal=True)]
            return "special"
        if _HEPATIC.search(folded) and words <= MAX_POPULATION_WORDS + 3:
            grade = hepatic_grade(folded)
            self.stack = [_Entry("special", phrase, hepatic=True, band=Band(hepatic=grade))]
            return "special"
        if neonate and words <= MAX_POPULATION_WORDS:
            # "Sơ sinh:" under "Trẻ em" is a band of children (the first month), not a new population.
            self._open_band(phrase, Band(age_months=NEONATE_MONTHS), "pediatric", True)
            return "band"
        glued = _POPULATION_THEN_INDICATION.match(phrase)
        if population and glued and words <= MAX_POPULATION_WORDS:
            # "Người lớn Giảm đau/giảm sốt:" — a population and the indication under it in one lead-in (the PDF
            # lost the line break between them). Read as two: the next indication ("Ức chế kết tập tiểu cầu:")
            # then replaces this one instead of nesting under it.
            self._open("population", _Entry("population", glued.group(1), population=population))
            self._indication(glued.group(2), fold(glued.group(2)))
            return "indication"
        if population and words <= MAX_POPULATION_WORDS and not folded.startswith("lieu"):
            self._open("population", _Entry("population", phrase, population=population, neonate=neonate))
            return "population"
        if _BAND_LIKE.search(folded) and re.search(r"\b(tuoi|thang|kg|tuan|ngay|clcr)\b", folded):
            # Looks like a band but the range cannot be read: its lines are reported, never placed by guess.
            self._open_band(phrase, Band(), population, neonate, readable=False)
            return "band"
        if _LIMIT_LABEL.match(folded):
            # "Liều giới hạn thông thường tiêm bắp cho người lớn: 100 mg/ngày." names a ceiling, it heads nothing:
            # read as a route heading, it closed "Thuốc tiêm › Dùng trong loạn thần cấp" and became the lead-in of
            # the depot-injection lines after it.
            return "note"
        if _SAME_AS_ROUTE.search(folded):
            # "*Truyền tĩnh mạch – Trẻ em:* Liều như đường uống: 6–12 mg/kg/ngày …": a reference to another route's
            # doses, under the route and population already open. Read as a route heading, it became an oral line of
            # no population and a child's per-kg IV dose was shown to an adult (#18 held-out H63/H65).
            return "note"
        routes = [r for r, p in _ROUTES if p.search(folded)] or (
            list(self.injection_routes) if _INJECTION_LEADIN.match(folded) else [])
        if routes and words <= MAX_ROUTE_WORDS and (not _NOTE_START.match(folded) or folded.startswith("lieu")):
            purpose = _LEADIN_PURPOSE.search(phrase)
            if purpose is None:
                self._open("route", _Entry("route", phrase, routes=tuple(routes)))
                return "route"
            # "Liều uống thông thường để giảm đau:" — a route and the purpose its lines are for, read as two: the
            # purpose is an indication (the next purpose, "Liều khuyến cáo giảm sốt là …", replaces it).
            self._open("route", _Entry("route", phrase[:purpose.start()].strip(), routes=tuple(routes)))
            self.stack.append(_Entry("indication", phrase[purpose.start():].strip()))
            return "route"
        if _NOTE_START.match(folded) or (words > 9 and not _disease_name(phrase)) or _FORM_OF_DRUG.search(folded):
            return "note"
        if self._has("special") and _COURSE.match(folded):
            # "Suy thận: Liều duy nhất … không cần điều chỉnh. Điều trị nhiều liều: … nếu ClCr từ 50 ml/phút trở xuống
            # thì dùng 50% liều": a course of treatment under the renal lead-in, not a new indication — read as one,
            # it closed "Suy thận" and the 50% line was no renal patient's (#18 held-out H136).
            return "note"
        self._indication(phrase, folded)
        return "indication"

    def _indication(self, phrase: str, folded: str) -> None:
        entry = _Entry("indication", phrase, severity=bool(_SEVERITY.match(folded)))
        if _MONITORING_LEADIN.match(folded) and not _NAMES_A_GROUP.search(folded) and self._stack_population():
            # "Trẻ em: …. Theo dõi INR và điều chỉnh liều: …. Tần suất kiểm tra sinh học: …": a heading about how the
            # treatment is monitored, naming no group, is the whole monograph's, not the block of population lines
            # before it. Left under "Trẻ em", an adult's INR target and test schedule read as a child's only.
            self.stack = []
        special = self._last("special")
        if special is not None and special.used and not (_RENAL.search(folded) or _HEPATIC.search(folded)):
            # "Người bệnh thẩm phân máu: …. Viêm bàng quang không biến chứng: …": a new indication after the
            # renal/hepatic lines is not for those patients only; the special context ends.
            self.stack = []
        top = self.stack[-1] if self.stack else None
        if top is not None and top.kind == "indication" and not top.used:
            self.stack.append(entry)  # "Bệnh Lyme: Viêm tim nhẹ:" nests
            return
        if entry.severity:
            last = self._last("indication")
            if last is not None and last.severity:
                self._pop_from(last)
            self.stack.append(entry)
            return
        first = next((e for e in self.stack if e.kind == "indication"), None)
        if first is None and top is not None and top.kind == "population" and top.used and _ELDERLY_LEADIN.search(
                fold(top.label)):
            # "Người lớn: …. Trẻ em: …. Người cao tuổi: 0,5 - 2 mg/ngày. Hội chứng Tourette: …": the elderly lead-in
            # closes a block of population lines; the book never nests an indication under it. Left on the stack, the
            # next indications (and their injection doses) would be read as the elderly's only.
            self._pop_from(top)
            top = self.stack[-1] if self.stack else None
        if first is not None:
            at = self.stack.index(first)
            children = [e for e in self.stack[at + 1:] if e.kind == "population" and e.label and e.used
                        and e.population == "pediatric"]
            self._pop_from(first)
            self.children_before = children[-1] if children else None
        elif top is not None and top.kind == "band" and top.used:
            self._pop_kinds({"band"})  # a band whose lines are done; one opened just before nests the indication
        self.stack.append(entry)

    def _open_band(self, phrase: str, band: Band, population: Literal["adult", "pediatric"] | None,
                   neonate: bool, *, readable: bool = True) -> None:
        children, self.children_before = self.children_before, None
        if children is not None and population is None and self._stack_population() is None \
                and band.age_months is not None and band.weight_kg is None and band.renal_ml_min is None \
                and self.stack and self.stack[-1].kind == "indication" and not self.stack[-1].used:
            # "Zona: Người lớn, …. Trẻ em: 2 tuổi …: …. Thủy đậu: Trên 2 tuổi: 20 mg/kg …": the children's block goes
            # on under the next indication — an age band naming no population, right after it, is still a child's
            # (an adult, read as 18 years, is not in "trên 2 tuổi" of the children's lines).
            self.stack.append(_Entry("population", children.label, population="pediatric"))
        top = self.stack[-1] if self.stack else None
        elided = (population is None and top is not None and top.kind == "band" and top.band is not None
                  and _ELIDED.match(fold(phrase)) is not None)
        if elided and top is not None and top.band is not None:
            # "Trẻ 3 tháng - 1 tuổi: …; 1 - 5 tuổi: …": the population (and any other dimension) carries on.
            band = top.band.merged(band)
            neonate = neonate or top.neonate
            population = top.population
        heading = top if top is not None and top.kind == "band" and top.heading and top.band is not None else None
        if heading is not None and heading.band is not None and not (_band_dims(heading.band) & _band_dims(band)):
            band = heading.band.merged(band)  # "ở trẻ từ 1 tuổi" and "Trẻ 5–10 kg": both hold
        if population is not None and self._stack_population() not in (None, population):
            self._pop_from(self._last("population"))
        self._pop_kinds({"band"})
        last = self.stack[-1] if self.stack else None
        if neonate and not elided and last is not None and last.kind == "indication" and last.used \
                and self._stack_population() == "pediatric":
            # "*Tiêm tĩnh mạch – Trẻ em:* …. Viêm màng não: 100 mg/kg/ngày, …. Trẻ sơ sinh: không vượt quá 50
            # mg/kg/ngày …": the newborns' lead-in after an indication's own line is a band of the children's block,
            # not of that indication. Nested under it, a newborn asked no indication was shown the meningitis
            # 100 mg/kg/ngày beside the cap (#18 held-out H63).
            self._pop_from(last)
        if heading is not None:
            self.stack.append(heading)
        if population is not None and self._stack_population() is None and not elided:
            # "Người lớn, Clcr 50 - 79 ml/phút: …; Clcr 30 - 49 ml/phút: …": the population a band names carries
            # on to the bands after it (a population entry with no label of its own).
            self.stack.append(_Entry("population", "", population=population))
        self.stack.append(_Entry("band", phrase, population=population, neonate=neonate, band=band,
                                 readable=readable))

    def _open(self, kind: EntryKind, entry: _Entry) -> None:
        existing = self._last(kind)
        kept: list[_Entry] = []
        last_indication = self._last("indication")
        if kind == "route" and entry.label and existing is None and last_indication is not None \
                and last_indication.used:
            # "Hội chứng Tourette: …lines…. Thuốc tiêm: …": a route heading after an indication whose lines are done
            # opens a block of its own (a route right after a fresh indication, "Đau, sốt: Uống:", nests in it).
            self._pop_from(last_indication)
        if existing is not None:
            if kind in ("population", "route"):
                # "Viêm tai giữa: Trẻ em: …", "Dự phòng trong phẫu thuật: Tiêm: …" — an indication just opened above
                # the old population (route) is the new one's, not the old one's: it is kept, below the new entry.
                at = self.stack.index(existing)
                kept = [e for e in self.stack[at + 1:] if e.kind == "indication" and not e.used]
            self._pop_from(existing)
        elif kind != "band":
            self._pop_kinds({"band"})
        self.stack.extend(kept)
        self.stack.append(entry)

    def _pop_from(self, entry: _Entry | None) -> None:
        if entry is None:
            return
        for i, e in enumerate(self.stack):
            if e is entry:
                del self.stack[i:]
                return

    def _pop_kinds(self, kinds: set[str]) -> None:
        while self.stack and self.stack[-1].kind in kinds:
            self.stack.pop()

    def _last(self, kind: str) -> _Entry | None:
        return next((e for e in reversed(self.stack) if e.kind == kind), None)

    def _has(self, kind: str) -> bool:
        return self._last(kind) is not None

    def _stack_population(self) -> str | None:
        return next((e.population for e in reversed(self.stack) if e.population), None)

    def _complement(self, comparison: re.Match[str], start: int) -> Band | None:
        """"Trẻ cân nặng dưới 25 kg: …; trẻ nặng hơn: …": the comparison names the rest of the one-sided band of the
        clause just before it (heavier than under 25 kg → 25 kg and over). Only then: the band before is one
        dimension, open on the side the comparison points to, and nothing but the separator lies between them."""
        previous = self.tree.lines[-1] if self.tree.lines else None
        if previous is None or re.search(r"\w", self.text[previous.end:start]) or previous.kind != "regimen":
            return None
        word = comparison.group(1)
        dimension = {"nang": "weight_kg", "nhe": "weight_kg", "nhieu tuoi": "age_months", "it tuoi": "age_months",
                     "lon": "age_months", "nho": "age_months", "be": "age_months"}[word]
        heavier = word in ("nang", "nhieu tuoi", "lon")
        band = previous.band
        stated = {d: getattr(band, d) for d in ("age_months", "weight_kg", "renal_ml_min", "gestation_weeks")
                  if getattr(band, d) is not None}
        if list(stated) != [dimension] or band.hepatic is not None:
            return None
        bound: Bound = stated[dimension]
        if heavier and bound.low == 0.0 and bound.high != math.inf:
            new = Bound(bound.high, math.inf, low_open=not bound.high_open, high_open=False)
        elif not heavier and bound.high == math.inf and bound.low > 0.0:
            new = Bound(0.0, bound.low, high_open=not bound.low_open)
        else:
            return None
        if dimension == "weight_kg":
            return replace(previous.context.band, weight_kg=new)
        return replace(previous.context.band, age_months=new)

    def _body_band(self, body: str, start: int = 0) -> None:
        """A clause with no band lead-in may state its band in its opening words ("Trẻ 3 tháng - 12 tuổi dùng
        tối đa …", "Các liều cho trẻ từ 3 tháng - 18 tuổi …", "Nếu uống, ở trẻ em, Clcr < 10 ml/phút, …") or after
        its dose ("0,09 mg/kg/ngày, cho trẻ từ 11 tuổi - 18 tuổi"). A clause that names its patients by a band it
        does not state ("trẻ nặng hơn …") or by several bands is marked unplaceable."""
        folded = fold(body)
        opening = _opening(body)
        # "Tuy nhiên, do nguy cơ độc tính, trẻ cân nặng trên 25 kg …": the patients come after the discourse phrases.
        head = " ".join(_DISCOURSE.sub("", opening).split()[:7])
        self.unplaceable = ""
        if _BAND_CUE.search(head) and _COMPARISON.search(opening) and not read_band(opening).dimensions:
            complement = self._complement(_COMPARISON.search(opening), start)  # type: ignore[arg-type]
            if complement is None:
                self.unplaceable = "a band named by comparison, not stated"
                return
            self._pop_kinds({"band"})
            self.stack.append(_Entry("band", "", band=complement))
            return
        band = read_band(opening) if _BAND_CUE.search(head) else None
        phrase = opening
        if band is None or not band.dimensions:
            trailing = _TRAILING_BAND.search(folded[len(opening):]) if opening != folded else None
            band = read_band(trailing.group(0)) if trailing else band
            phrase = trailing.group(0) if trailing else phrase
        if band is None or not band.dimensions:
            return
        if band.ambiguous:
            union = read_band(phrase, union=True)
            if len(dose_quantities(folded)) - len(maxima(body)) != 1 or _RESPECTIVELY.search(folded) \
                    or union.ambiguous:
                self.unplaceable = "several bands in one line"
                return
            # "0,20 mg/kg/ngày … đối với trẻ < 12 tháng tuổi, 12 tháng tuổi - 10 tuổi và 11 tuổi - 18 tuổi": one dose
            # for every band listed, which join up: the line is for all of them (bands.read_band, union=True).
            band = union
        # The band is stated in the line itself: nothing to add to the path; a population named there is opened
        # by _inline_context, so it carries on to the next line too.
        self._pop_kinds({"band"})
        self.stack.append(_Entry("band", "", neonate=bool(NEONATE.search(opening)), band=band.band))

    # ----------------------------------------------------------------------------------------------- lines

    def _emit(self, start: int, end: int, body: str) -> None:
        text = self.text[start:end]
        for e in self.stack:
            e.used = True
        if looks_like_table(text):
            self.tree.unplaced.append(Unplaced(text, start, end, "flattened table (numbers without their labels)"))
            return
        if self.unplaceable:
            self.tree.unplaced.append(Unplaced(text, start, end, self.unplaceable))
            return
        inner = _INNER_LEADIN.search(body)
        if inner and (read_band(inner.group(1)).dimensions or _population(fold(inner.group(1)))[0]):
            # "…: Người dưới 40 kg: 45 mg/kg/ngày" left inside a line: whose dose it is was not read.
            self.tree.unplaced.append(Unplaced(text, start, end, f"lead-in inside a line: «{inner.group(1)}»"))
            return
        band_entry = self._last("band")
        if band_entry is not None and not band_entry.readable:
            self.tree.unplaced.append(Unplaced(text, start, end, f"band not read: «{band_entry.label}»"))
            return
        self._inline_context(body)
        context = self._context(text)
        own = read_band(_opening(body))
        quantities = dose_quantities(text)
        kind: LineKind = "regimen" if (quantities or _ADJUSTMENT.search(fold(text))) \
            and not _SALT_EQUIVALENCE.match(fold(body).strip()) else "note"
        if quantities and all(_CONCENTRATION.search(q.unit) for q in quantities) and not _ADJUSTMENT.search(fold(text)):
            # "Dung dịch để truyền thường được pha để có nồng độ khoảng 5 mg/ml": a strength to dilute to, no dose — a
            # note, so the sentence after it ("Ở người béo phì, liều phải tính theo cân nặng lý tưởng") is not glued
            # to it as one dose line and dropped with the general doses (#17 held-out H133).
            kind = "note"
        grade = hepatic_grade(fold(text)) if context.hepatic else None
        if grade not in (None, "any"):
            # "Chống chỉ định khi suy gan nặng" under "Suy gan nhẹ và vừa:" is about the severe grade.
            context = replace(context, band=replace(context.band, hepatic=grade))
        if excludes(text):
            # An exclusion names whom it excludes ("cho trẻ dưới 2 tuổi"); one that names nobody excludes nobody.
            band = context.band.merged(own.band) if own.dimensions else context.band
            named, _ = _population(fold(text))
            if not band.empty or own.dimensions or named is not None:
                # "Không khuyến cáo tiêm bắp … cho trẻ em": the population and the route it names are its own,
                # whatever lead-in it sits under; it excludes those patients on that route only.
                kind = "exclusion"
                routes = self._named_routes(text) or context.routes
                context = replace(context, band=band, routes=routes,
                                  population=named or context.population)
        elif restricts_form(text) and (whole := read_band(text)).dimensions and not whole.ambiguous:
            # "Không dùng viên 875 mg khi độ thanh thải creatinin dưới 30 ml/phút" after the "dưới 10 ml/phút" line: a
            # form forbidden to a band of its own, stated in the sentence — a note for that band (the 875 mg is the
            # tablet's strength, not a dose), never a clause of the line before: glued to it, a patient of ClCr 20
            # was not told (#18 held-out H134).
            kind = "note"
            own_band = {f.name: getattr(whole.band, f.name) for f in fields(whole.band)
                        if getattr(whole.band, f.name) is not None}
            context = replace(context, band=replace(context.band, **own_band))
        if context.band.renal_ml_min is None and kind != "exclusion" and _RENAL_IF.search(fold(text)) and \
                (own_renal := read_band(text)).band.renal_ml_min is not None and not own_renal.ambiguous:
            # "… sau đó nếu độ thanh thải creatinin từ 50 ml/phút trở xuống thì dùng 50% liều thường dùng": the renal
            # band the sentence states for itself — a patient of ClCr 40 was not shown it (#18 held-out H136).
            context = replace(context, renal=True, band=replace(context.band, renal_ml_min=own_renal.band.renal_ml_min))
        head = " ".join(fold(body).split()[:4])
        opening_routes = tuple(r for r, p in _ROUTES if p.search(head) and r != "inhaled")
        if len(opening_routes) == 1 and opening_routes[0] in context.routes and len(context.routes) > 1 \
                and re.match(r"^(neu |khi )?(uong|dat|tiem|truyen)", fold(body)):
            # "Uống, đặt trực tràng: … Uống 300 mg …": the line that opens with one of its context's routes is that
            # route's (the context, and the indication under it, stay open for the next line).
            context = replace(context, routes=opening_routes)
        elif len(context.routes) > 1 and kind == "regimen":
            # "Thuốc tiêm: … Để kiểm soát nhanh loạn thần cấp, haloperidol lactat có thể tiêm tĩnh mạch, liều 0,5 -
            # 50 mg": a line under a several-route lead-in that names one of them before its dose is that route's,
            # wherever the route word sits — else an intramuscular question would be quoted the intravenous dose.
            stated = tuple(r for r, p in _ROUTES if r in context.routes and r != "inhaled"
                           and p.search(_opening(text)))
            if not stated:
                # "Điều trị buồn nôn và nôn …: Liều thông thường: 1 - 2 mg tiêm bắp": the one route named after the
                # dose, when the line names only one of its context's.
                stated = tuple(r for r, p in _ROUTES if r in context.routes and r != "inhaled" and p.search(fold(text)))
            if len(stated) == 1:
                context = replace(context, routes=stated)
        if kind == "regimen" and not context.routes:
            anywhere = tuple(r for r, p in _ROUTES if p.search(fold(text))
                             and (r != "inhaled" or re.search(r"khí dung|hít|phun mù", text, re.I)))
            if len(anywhere) == 1:
                context = replace(context, routes=anywhere)
        if kind == "note" and not context.routes:
            # "Trẻ nhỏ dùng bình xịt qua buồng đệm có mặt nạ": a general note naming a route's device or route word is
            # that route's note. Left route-less it was every route's, and a syrup question was shown the inhaler's
            # spacer instruction beside the oral doses, as if it were how the syrup is taken.
            noted = _note_routes(text)
            if noted:
                context = replace(context, routes=noted)
        if kind == "regimen":
            dosed = _dosed_routes(text)
            if len(dosed) > 1 and not set(dosed) <= set(context.routes):
                # "Độ thanh thải creatinin 5–29 ml/phút: uống 250–500 mg/lần, mỗi 18 giờ, hoặc truyền tĩnh mạch
                # 200–400 mg/lần, mỗi 18–24 giờ": a dose for each route it names — the line is each route's. Read as
                # the oral line only, a renal patient's infusion question got the usual 400 mg every 8–12 hours
                # (#18, dev set H34).
                context = replace(context, routes=tuple(dict.fromkeys((*context.routes, *dosed))))
        previous = self.tree.lines[-1] if self.tree.lines else None
        if previous is not None and self.leadin_line:
            context = _subcase_of(previous, text, context)
        if previous is not None and not self.leadin_line and _continues(self.text, previous, start, context, kind):
            # The same patients' next clause (the ceiling after a dose: "…: 20 mg/kg …; sau đó … tối đa 30 mg/kg/
            # ngày") is one line: quoting a dose without its own ceiling would leave out the maximum.
            assert previous is not None
            start = previous.start
            text = self.text[start:end]
            context = replace(context, routes=tuple(dict.fromkeys((*previous.routes, *context.routes))))
            kind = "regimen" if "regimen" in (kind, previous.kind) else kind
            self.tree.lines.pop()
        line = RegimenLine(text=text, start=start, end=end, context=context, kind=kind,
                           maxima=maxima(text), rule=rule(text) if kind == "regimen" else None,
                           absence=kind == "exclusion" and absence(text))
        alternatives = _either_bands(text, context.band) if kind == "exclusion" else []
        if alternatives:
            # "Không khuyến cáo cho trẻ dưới 6 tuổi hoặc trẻ có eGFR dưới 30 ml/phút": whom it excludes is either
            # band, not the patients in both at once. A band holds patients in all of its dimensions, so read as one
            # band it excluded only a child under 6 with eGFR under 30 — and a 4-year-old with no eGFR stated was
            # shown the 6–16-year-olds' mg/kg dose. One exclusion line (the same span) per alternative.
            for band in alternatives:
                self.tree.lines.append(replace(line, context=replace(context, band=band), either=True))
            return
        self.tree.lines.append(line)

    def _named_routes(self, text: str) -> tuple[str, ...]:
        folded = fold(text)
        named = tuple(r for r, p in _ROUTES if p.search(folded) and r != "inhaled")
        if not named and _INJECTION_WORD.search(folded):
            named = self.injection_routes
        return named

    def _inline_context(self, body: str) -> None:
        """A route or population named at the very start of a line opens a context that carries on ("Nếu uống, ở
        trẻ em, Clcr < 10 …. Người lớn, Clcr 10 - 50 …")."""
        folded = fold(body)
        head = " ".join(folded.split()[:4])
        routes = tuple(r for r, p in _ROUTES if p.search(head) and r != "inhaled")
        current = next((e.routes for e in reversed(self.stack) if e.routes), ())
        if len(routes) == 1 and routes[0] not in current and re.match(r"^(neu |khi )?(uong|dat|tiem|truyen)", folded):
            band = self.stack.pop() if self.stack and self.stack[-1].kind == "band" else None
            self._open("route", _Entry("route", "", routes=routes))
            if band is not None:
                self.stack.append(band)
        inline = _POPULATION_INLINE.match(re.sub(r"^(neu|khi) [^,]{0,12},\s*", "", folded))
        if inline:
            population, neonate = _population(inline.group(0))
            if population is not None and population != self._stack_population():
                band = self.stack.pop() if self.stack and self.stack[-1].kind == "band" else None
                self._open("population", _Entry("population", "", population=population, neonate=neonate))
                if band is not None:
                    self.stack.append(band)

    def _context(self, text: str) -> Context:
        routes: tuple[str, ...] = next((e.routes for e in reversed(self.stack) if e.routes), ())
        population: Literal["adult", "pediatric"] | None = None
        neonate = False
        band = Band()
        renal = hepatic = False
        indications: list[str] = []
        path: list[str] = []
        for e in self.stack:
            if e.label and e.kind != "band" and not (path and e.label in path[-1]):
                path.append(e.label)  # "Liều uống … để giảm đau" then its purpose "giảm đau": said once
            if e.population:
                population, neonate = e.population, e.neonate
            if e.band is not None:
                band = band.merged(e.band)
            renal = renal or e.renal
            hepatic = hepatic or e.hepatic
            if e.kind == "indication":
                indications.append(e.label)
        if band.age_months is not None and population is None and band.age_months.high <= 18 * 12:
            population = "pediatric"
        if band.gestation_weeks is not None:
            population, neonate = "pediatric", True
        return Context(routes=routes, indication=tuple(indications), population=population, neonate=neonate,
                       renal=renal or band.renal_ml_min is not None, hepatic=hepatic, band=band, path=tuple(path))


_INDICATION_FOR_GROUP = re.compile(r"^(?P<what>.{4,80}?)\s+(?:ở|o)\s+(?P<who>(?:trẻ|tre|người|nguoi|bệnh nhân|benh nhan)\b.*)$")
_DISEASE_HEAD = re.compile(r"^(viem|nhiem|benh|hoi chung|ly|loet|soi|zona|thuy dau|herpes|lau|giang mai)\b")
"""The lead-in's first words name a disease ("Viêm họng do liên cầu …", "Nhiễm HSV …"), not a dose or a group."""


_DIMENSIONS = ("age_months", "weight_kg", "renal_ml_min", "gestation_weeks")


def _either_bands(text: str, band: Band) -> list[Band]:
    """An exclusion naming bands of different dimensions joined by "hoặc": each alternative's band (the context's
    other dimensions kept), or [] when it is not such a line (one dimension, or alternatives that do not read)."""
    stated = [d for d in _DIMENSIONS if getattr(band, d) is not None]
    parts = re.split(r"\bhoac\b", fold(text))
    if len(stated) < 2 or len(parts) < 2:
        return []
    alternatives: list[Band] = []
    covered: set[str] = set()
    for part in parts:
        reading = read_band(part)
        own = [d for d in _DIMENSIONS if getattr(reading.band, d) is not None]
        if reading.ambiguous or len(own) != 1:
            return []
        others = {d: None for d in stated if d != own[0]}
        alternatives.append(replace(band, **others))
        covered.add(own[0])
    return alternatives if covered == set(stated) and len(covered) == len(alternatives) else []


# Words whose fold collides with another word ("khi dung" is also "khi dùng", "boi" also "bởi"): the route only as
# written. "buồng đệm" (a spacer) is the inhaler's.
_NOTE_AS_WRITTEN = {"inhaled": re.compile(r"khí dung|hít|phun mù|xịt|buồng đệm", re.IGNORECASE),
                    "topical": re.compile(r"\bbôi\b|dùng ngoài|ngoài da|thuốc mỡ", re.IGNORECASE)}


def _note_routes(text: str) -> tuple[str, ...]:
    """The routes other than oral a note names by a route word or the device of one (an inhaler's spacer)."""
    folded = fold(text)
    named = []
    for route, pattern in _ROUTES:
        written = _NOTE_AS_WRITTEN.get(route)
        if (written.search(text) if written is not None else pattern.search(folded)):
            named.append(route)
    # A note naming the oral route too ("đường uống chỉ dùng khi không dùng được dạng hít") is about choosing
    # between them: every route's. One naming the oral route alone stays as it was (how any dose is taken).
    return () if "oral" in named else tuple(named)


def _disease_name(phrase: str) -> bool:
    """A long lead-in that only names a condition ("Tình trạng tăng tiết acid bệnh lý trong hội chứng Zollinger
    Ellison:"): no verb, number or clause punctuation. It heads its own lines as an indication; read as a note it
    left them under the indication before it (the ulcer's), so an ulcer question got the Zollinger-Ellison dose."""
    folded = fold(phrase)
    return not re.search(r"[\d;()]", phrase) and not _HEADING_VERB.search(phrase.lower()) \
        and _population(folded)[0] is None and not _TREATMENT_START.match(folded)


_CO_MEDICATION_LEADIN = re.compile(r"^(?:khi|neu|o nguoi|nguoi) (?:dang )?(?:dung|uong|phoi hop)(?: (?:cung|chung|kem))?(?: voi)? "
                                   r"(?!(?:lieu|thuoc nay|dai ngay|lau dai|keo dai)\b)[a-z]")
"""(Folded.) A lead-in naming the drugs taken with this one ("Khi dùng cùng amiodaron, verapamil …:")."""
_TREATMENT_START = re.compile(r"^(dieu tri|du phong|phong ngua|loai bo|tiet tru)\b")
"""A long lead-in that opens with what is done ("Điều trị nhiễm Herpes simplex tiên phát …:") is the purpose of its
own line, quoted with it; its siblings ("Loại bỏ tái phát …:") are other purposes, not lines under it."""


_SUBCASE_LEADIN = re.compile(r"^(?:neu|truong hop|o nguoi|khi) [^:]{0,60}\b(suy giam mien dich|uc che mien dich|"
                             r"hap thu kem)\b[^:]{0,40}:")
"""A lead-in naming a state of the patient ("Nếu suy giảm miễn dịch nặng hoặc hấp thu kém:"), not a disease."""
_OWN_PURPOSE = re.compile(r"^(?!\()((?:[^:;.\d()]|\([^():;]{0,80}\)){3,160}?):\s")


def _subcase_of(previous: RegimenLine, text: str, context: Context) -> Context:
    """"Điều trị nhiễm Herpes simplex tiên phát …: 200 mg …. Nếu suy giảm miễn dịch nặng hoặc hấp thu kém: 400 mg …":
    a line whose lead-in names a state of the patient, right after a dose line that opens with its own purpose, is
    that purpose's line for those patients — not an indication of its own. Read as one, an immunocompromised adult
    asking for primary HSV never saw it. The purpose joins the line's path and indications (whom it is for stays its
    own lead-in, read by core.dosage.immune)."""
    if previous.kind != "regimen" or not _SUBCASE_LEADIN.match(fold(text)):
        return context
    if (previous.context.path, previous.context.population, previous.context.band) != \
            (context.path, context.population, context.band):
        return context
    purpose = _OWN_PURPOSE.match(previous.text)
    if purpose is None or not _TREATMENT_START.match(fold(purpose.group(1))):
        return context
    label = purpose.group(1).strip()
    return replace(context, indication=(*context.indication, label), path=(*context.path, label))


def _continues(text: str, previous: RegimenLine, start: int, context: Context, kind: str) -> bool:
    """The clause at `start` continues the dose line `previous`: same source line, same patients, not an
    exclusion. Notes stay one clause each (a sentence about children after one about tablets is its own line)."""
    if kind == "exclusion" or previous.kind != "regimen" or "\n" in text[previous.end:start]:
        return False
    if re.search(r"\w", text[previous.end:start]):
        return False  # a lead-in sits between them: its clause is another context
    a, b = previous.context, context
    same = (a.path, a.population, a.band, a.indication, a.renal, a.hepatic, a.neonate) == \
        (b.path, b.population, b.band, b.indication, b.renal, b.hepatic, b.neonate)
    return same and (not a.routes or not b.routes or a.routes == b.routes)


_COURSE = re.compile(r"^(?:dieu tri|dung|khi dung)?\s*(?:nhieu lieu|mot lieu|lieu duy nhat|lieu nap|lieu duy tri|"
                     r"dai ngay|ngan ngay|keo dai)\b")
"""(Folded.) A lead-in naming a course of treatment ("Điều trị nhiều liều", "Liều duy nhất")."""
_RENAL_IF = re.compile(r"\b(?:neu|khi|o nguoi co|voi)\s+(?:do thanh thai creatinin|clcr|egfr|muc loc cau than)\b")
"""(Folded.) A renal band stated as the sentence's own condition ("nếu độ thanh thải creatinin từ 50 ml/phút trở
xuống thì …")."""
_CONCENTRATION = re.compile(r"/\s*(?:\d+\s*)?(?:ml|l|lit|lít)$|%$")
"""The unit of a strength (mg/ml, mg/5 ml, %), not of a dose."""


def _opening(body: str) -> str:
    """The words of a line before its first dose: where a line states whom it is for."""
    folded = fold(body)
    first_dose = min((folded.find(q.text) for q in dose_quantities(folded) if q.text in folded), default=-1)
    return folded if first_dose < 0 else folded[:first_dose]


_ADJUSTMENT = re.compile(r"\b(cach nhau \d|moi \d+ gio|giam liều|giam lieu|gian (rong )?khoang cach|"
                         r"khong can (phai )?dieu chinh|\d+ ?% lieu)")


def _dosed_routes(text: str) -> tuple[str, ...]:
    """The routes a line names each followed closely by a dose of its own ("uống 250–500 mg/lần … hoặc truyền tĩnh
    mạch 200–400 mg/lần")."""
    folded = fold(text)
    found: list[str] = []
    for route, pattern in _ROUTES:
        if route == "inhaled":
            continue
        for m in pattern.finditer(folded):
            if dose_quantities(folded[m.end():m.end() + 25]):
                found.append(route)
                break
    return tuple(found)


def injection_routes(section_text: str) -> tuple[str, ...]:
    """What a bare "Tiêm:" / "Thuốc tiêm:" lead-in means in this section: the injection routes the section names
    anywhere ("có thể dùng uống hoặc tiêm bắp hoặc tiêm tĩnh mạch chậm" → im, iv); every injection route when it
    names none (the book gives an injection dose without saying which: the line is quoted with its "Tiêm" path)."""
    folded = fold(section_text)
    named = tuple(r for r, p in _ROUTES if r in INJECTION_ROUTES and p.search(folded))
    return named or INJECTION_ROUTES


def _population(folded: str) -> tuple[Literal["adult", "pediatric"] | None, bool]:
    neonate = bool(NEONATE.search(folded))
    child = bool(BOOK_CHILD.search(folded) or neonate or re.search(r"\btre\b", folded))
    if child and (BOOK_ADULT.search(folded) or _ELDERLY.search(folded)):
        return None, False  # "Người lớn và trẻ cân nặng trên 50 kg": both, decided by the band
    if child:
        return "pediatric", neonate
    if BOOK_ADULT.search(folded) or _ELDERLY.search(folded):
        return "adult", False
    return None, False


def _lines(text: str) -> Iterator[tuple[int, int]]:
    pos = 0
    for line in text.split("\n"):
        yield pos, pos + len(line)
        pos += len(line) + 1


# A clause ends at ';', at a sentence end (". " then a capital, digit or bracket) and before ", trẻ em:" (the
# child's dose run into an adult line: "Người lớn: 2 g/ngày chia 2 lần, trẻ em: 50 mg/kg/ngày").
_CLAUSE_END = re.compile(r";\s+|\.\s+(?=[A-ZĐÀ-ỸÁ-Ỹ\d(<>≥≤]|eGFR)|,\s+(?=(?:trẻ em|người lớn)[^:,;.]{0,30}:)", re.I)
_LOWER_SENTENCE_START = re.compile(r"(eGFR|mGFR|eClcr)\b")
"""Sentences that start in lower case: the renal measures ("… tối đa 2 000 mg/ngày. eGFR 30–44 …")."""


def _clauses(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    pos = start
    for m in _CLAUSE_END.finditer(text, start, end):
        sep = text[m.start():m.end()]
        nxt = text[m.end():m.end() + 1]
        if sep.startswith(".") and not (nxt.isupper() or nxt in "(<>≥≤" or nxt.isdigit()
                                        or _LOWER_SENTENCE_START.match(text, m.end())):
            continue
        if sep.startswith(".") and re.search(r"\b[A-Z]$", text[max(start, m.start() - 2):m.start()]):
            continue  # "H. pylori"
        before = text[start:m.start()]
        if sep.startswith(";") and before.count("(") > before.count(")"):
            # "Khí dung (bình xịt định liều …; dung dịch qua máy phun khí dung) là đường dùng ưu tiên": a ";" inside
            # brackets separates the bracket's items, not clauses — cut there, each half was quoted as a line.
            continue
        clause_end = m.start() + (1 if sep[0] in ".;" else 0)
        if text[pos:clause_end].strip():
            yield pos, clause_end
        pos = m.end()
    if text[pos:end].strip():
        yield pos, end


_LEADIN = re.compile(r"\s*([^:;.]{1,140}?)\s*:\s*")


def _leadin_at(text: str, pos: int, end: int) -> tuple[int, int, int] | None:
    """A 'phrase:' at `pos` (before any dose): (phrase start, phrase end, position after the colon)."""
    m = _LEADIN.match(text, pos, end)
    if m is None or m.end() >= end and not text[m.end(1):end].strip(": "):
        return None
    return m.start(1), m.end(1), m.end()


def parse_dosage(section_text: str, *, drug_names: Sequence[str] = ()) -> DosageTree:
    """The dosage tree of one section. `drug_names` (the monograph's title words) are dropped when a running page
    header has glued them to a lead-in. Cached: one turn reads the same section for the route question, the
    answer and its verification (treat the tree as read-only)."""
    noise = tuple(sorted({fold(w) for name in drug_names for w in re.findall(r"[^\W\d_]+", name) if len(w) > 2}))
    return _parse(section_text, noise)


@lru_cache(maxsize=256)
def _parse(section_text: str, noise: tuple[str, ...]) -> DosageTree:
    return _Parser(section_text, noise).run()


def placement(section_text: str, *, drug_names: Sequence[str] = ()) -> tuple[int, int]:
    """(lines placed in the tree, lines seen) for one dosage section — the load report's measure."""
    return parse_dosage(section_text, drug_names=drug_names).placement()


def with_context(line: RegimenLine, **changes: object) -> RegimenLine:
    return replace(line, context=replace(line.context, **changes))  # type: ignore[arg-type]
