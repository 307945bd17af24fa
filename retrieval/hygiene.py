"""Real-text hygiene at ingest: what PDF extraction did to a monograph, undone where it is safe, flagged where not.

Three kinds of damage are seen in real extracted formulary text (../shared/FORMULARY.md, "What real extracted text
looks like"), each handled differently because each carries a different risk:

1. **Running page headers** sit in the middle of sentences: a page number and the page's monograph title
   ("1120 Paracetamol (acetaminophen)"), or a title alone — this monograph's own ("… thay đổi Abacavir theo
   hướng …") or a neighbour's in the book ("… ml/phút. Acarbose"). They are *removed*, because a header inside a
   dose sentence ("1 - Warfarin 2,5 mg") changes what the sentence says. A span is removed only when it is a title
   (this monograph's, or one of the titles loaded with it, or a neighbour's in a position no sentence can have —
   see `_header_at`) *and* it sits where grammar forbids a title: mid-sentence between lower-case words, or
   between a full stop and the next sentence's capital. Every removed span is returned, so the load report and the
   tests can show that nothing else went. Not caught: a neighbour's title that is not loaded, in the middle of a
   sentence ("… tự do Xanh methylen lưu hành …") — telling it from a disease eponym ("bệnh Parkinson") would
   need the book's list of titles, which a full export load provides.
2. **Flattened tables** — a table whose cells were read out row by row, losing the column labels: runs of numbers
   directly after numbers ("> 10 0 - 10 Không cần điều chỉnh …"). Their meaning depends on columns that no longer
   exist, so the sentence-like segment holding them is *quarantined* with the corpus marker (docs/corpus-format.md):
   the chunk gets `has_quarantined_content`, and the engine answers `verify_pdf` instead of quoting a jumble.
3. **Text in the wrong field** (an adverse-effect list inside the lactation field; the tail of the overdose section
   inside the interaction field) is *reported*: moving text between sections by guess could put a sentence where
   it answers the wrong question. One case is moved, and the move reported, because two signs agree: text after
   a "Tác dụng không mong muốn" heading that carries ADR frequency bands goes to the adverse-effect section.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from core.corpus import Monograph, Section
from core.sections import SECTION_HEADINGS
from core.text import fold
from retrieval.load_report import LoadReport, MonographHygiene
from retrieval.monograph_names import name_forms
from retrieval.resolver import is_vietnamese_word

QUARANTINE_REASON = "bảng bị dàn phẳng khi trích xuất PDF (mất nhãn cột)"
_TOKEN = re.compile(r"\S+")
_PAGE = re.compile(r"^\d{2,4}$")
_TRAIL = ".,;:!?)]”\""


# ----------------------------------------------------------------------------------------------- titles
def _letters(token: str) -> str:
    return token.strip(_TRAIL).strip("(“\"")


def _is_title_case(token: str) -> bool:
    word = _letters(token)
    return len(word) >= 2 and word[0].isupper() and word[1:].replace("-", "").isalpha() and not word[1:].isupper()


def _is_all_caps(token: str) -> bool:
    word = _letters(token)
    return len(word) >= 2 and word.replace("-", "").isalpha() and word.isupper()


def _starts_sentence(token: str | None) -> bool:
    """The next token begins a sentence: a capitalised word of at least two letters ('Nhiễm', 'Trẻ')."""
    return token is not None and _is_title_case(token)


def _ends_sentence(token: str | None) -> bool:
    return token is not None and token[-1:] in ".:"


def _lower_word(token: str | None) -> bool:
    return token is not None and token[:1].islower()


def _continues(token: str | None) -> bool:
    """A token that can only continue a sentence: a lower-case word, or a number ('1 - Warfarin 2,5 mg')."""
    return token is not None and (token[:1].islower() or token[:1].isdigit())


@dataclass(frozen=True)
class TitleIndex:
    """Folded title forms by their first word, built once for everything loaded together (683 monographs)."""

    by_first: dict[str, list[tuple[str, ...]]]
    words: frozenset[str]

    @classmethod
    def of(cls, forms: Iterable[str]) -> TitleIndex:
        by_first: dict[str, list[tuple[str, ...]]] = {}
        for form in dict.fromkeys(forms):
            split = tuple(form.split())
            if split:
                by_first.setdefault(split[0], []).append(split)
        return cls(by_first=by_first, words=frozenset(w for forms_ in by_first.values() for f in forms_ for w in f))


@dataclass(frozen=True)
class TitleBook:
    """The titles a header can show: this monograph's own name forms, and those loaded with it."""

    own: tuple[str, ...]
    """Folded name forms of this monograph ('papaverine hydrochloride', 'papaverin', …)."""
    batch: TitleIndex = field(default_factory=lambda: TitleIndex.of(()))
    own_index: TitleIndex = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "own_index", TitleIndex.of(self.own))

    @property
    def words(self) -> frozenset[str]:
        return self.own_index.words | self.batch.words

    def match(self, tokens: Sequence[str], i: int) -> tuple[int, bool] | None:
        """(number of tokens, is-own) of the longest known title starting at token i, or None."""
        first = fold(_letters(tokens[i]))
        best: tuple[int, bool] | None = None
        for index, own in ((self.own_index, True), (self.batch, False)):
            for words in index.by_first.get(first, ()):
                n = len(words)
                if i + n > len(tokens) or (best is not None and n <= best[0]):
                    continue
                # The last word may carry sentence punctuation only if it ends the phrase; inner words may not.
                if any(t[-1:] in _TRAIL for t in tokens[i:i + n - 1]):
                    continue
                if tuple(fold(_letters(t)) for t in tokens[i:i + n]) == words:
                    best = (n, own)
        return best

    @property
    def first_letters(self) -> set[str]:
        """The neighbours of a title in the book start with its letter or the next one (headers show the first
        and last title of a page: 'Acarbose' beside Abacavir, 'Xanh methylen' beside Warfarin)."""
        letters: set[str] = set()
        for form in self.own:
            if form:
                letters.add(form[0])
                letters.add(chr(ord(form[0]) + 1))
        return letters


def _vietnamese_syllable(word: str) -> bool:
    return is_vietnamese_word(word)  # the resolver's syllable test: one definition


def _unknown_title(token: str, titles: TitleBook) -> bool:
    """A neighbour's title word (not loaded): capitalised, drug-shaped (five letters or more, not a Vietnamese
    syllable), starting with this monograph's letter or the next one, no punctuation of its own."""
    word = fold(_letters(token))
    return (_is_title_case(token) and len(word) >= 5 and word.isalpha() and not _vietnamese_syllable(word)
            and word[0] in titles.first_letters and token[-1:] not in _TRAIL)


def _parenthetical(tokens: Sequence[str], j: int) -> int:
    """Tokens of a short '(synonym)' right after a title (one or two words), or 0."""
    if j < len(tokens) and tokens[j].startswith("("):
        for n in (1, 2):
            if j + n <= len(tokens) and tokens[j + n - 1].endswith(")"):
                inner = " ".join(tokens[j:j + n])[1:-1]
                return n if inner and "(" not in inner and ")" not in inner else 0
    return 0


def _alias(tokens: Sequence[str], j: int, p: int) -> str | None:
    return " ".join(tokens[j:j + p])[1:-1].strip() if p else None


def remove_headers(text: str, titles: TitleBook) -> tuple[str, list[str], list[str]]:
    """(text without running headers, the removed spans, synonyms those headers give this monograph's title)."""
    matches = list(_TOKEN.finditer(text))
    tokens = [m.group(0) for m in matches]
    ranges: list[tuple[int, int]] = []
    aliases: list[str] = []
    # A header starts with a capital or a page number: only those tokens are examined (a whole export is
    # millions of tokens). `prev` is the last token kept: after a removed header, the one before it.
    candidates = [i for i, t in enumerate(tokens) if t[:1].isupper() or t[:1].isdigit()]
    removed_end, before_removed = 0, -1
    for i in candidates:
        if i < removed_end:
            continue
        prev = before_removed if ranges and i == removed_end else i - 1
        span = _header_at(tokens, i, tokens[prev] if prev >= 0 else None, titles)
        if span is None:
            continue
        end, alias = span
        ranges.append((i, end))
        removed_end, before_removed = end, prev
        if alias and alias not in aliases:
            aliases.append(alias)
    if not ranges:
        return text, [], []
    pieces: list[str] = []
    removed: list[str] = []
    last = 0
    for start, stop in ranges:
        a, b = matches[start].start(), matches[stop - 1].end()
        span_text, keep = text[a:b], ""
        while span_text and span_text[-1] in ".,;:":  # the interrupted sentence's own punctuation stays
            keep, span_text = span_text[-1] + keep, span_text[:-1]
        removed.append(span_text)
        pieces.append(text[last:a].rstrip(" ") + keep)
        last = b
    pieces.append(text[last:])
    return "".join(pieces).strip(), removed, aliases


def _header_block(tokens: Sequence[str], i: int, titles: TitleBook) -> int:
    """End of a run of title words (two page headers interleaved: 'Papaverin Paracetamol hydroclorid
    (acetaminophen)'), each a word of a known title or a one-word synonym in brackets; i when there is none."""
    words = titles.words
    j = i
    while j < len(tokens):
        t = tokens[j]
        if t.startswith("(") and t.endswith(")") and j > i:
            j += 1
            continue
        if fold(_letters(t)) in words and t[-1:] not in _TRAIL:
            j += 1
            continue
        break
    return j if j - i >= 2 and titles.match(tokens, i) is not None else i


def _header_at(tokens: Sequence[str], i: int, prev: str | None,
               titles: TitleBook) -> tuple[int, str | None] | None:
    """(end token index, synonym) when a running header starts at token i; prev is the last token kept."""
    token = tokens[i]
    if not token[:1].isupper() and not _PAGE.match(token):
        return None  # a header starts with a capital or a page number (most tokens stop here: speed)
    if prev is not None:
        prev = prev.rstrip("*_") or prev  # an italic label "*Cách dùng:*" ends with its colon
    # 1. page number + a known title: "1120 Paracetamol (acetaminophen)", "1486 Warfarin".
    if _PAGE.match(token) and i + 1 < len(tokens) and _is_title_case(tokens[i + 1]):
        hit = titles.match(tokens, i + 1)
        if hit is not None and tokens[i + hit[0]][-1:] not in _TRAIL:
            j = i + 1 + hit[0]
            p = _parenthetical(tokens, j)
            return j + p, _alias(tokens, j, p) if hit[1] else None
    if prev is None:
        return None  # a field's first words are its first sentence, never a header
    # 2. an all-capitals title: "ACID ACETYLSALICYLIC (Aspirin)", "XANH METHYLEN". Running text writes
    #    abbreviations in capitals (HIV, INR, NSAID), never a word of six letters or more.
    if _is_all_caps(token) and not _is_all_caps(prev):
        j = i
        while j < len(tokens) and _is_all_caps(tokens[j]):
            j += 1
            if tokens[j - 1][-1:] in _TRAIL:
                break
        words = [_letters(t) for t in tokens[i:j]]
        if sum(map(len, words)) >= 8 and max(map(len, words)) >= 6:
            return j + _parenthetical(tokens, j), None
        return None
    if not _is_title_case(token):
        return None
    # 3. known titles (this monograph's, or loaded with it) where no sentence can have one.
    if _ends_sentence(prev):
        j = _header_block(tokens, i, titles)
        if j > i and (j == len(tokens) or _starts_sentence(tokens[j])):
            return j, None
    hit = titles.match(tokens, i)
    if hit is not None:
        n, own = hit
        j = i + n
        clean = tokens[j - 1][-1:] not in _TRAIL
        p = _parenthetical(tokens, j) if clean else 0
        nxt = tokens[j + p] if j + p < len(tokens) else None
        alias = _alias(tokens, j, p) if own else None
        mid_sentence = prev[-1:] not in _TRAIL and (_lower_word(prev) or prev in ("-", "–") or prev[-1:].isdigit())
        if clean and mid_sentence and _continues(nxt):
            return j + p, alias  # mid-sentence: "thay đổi Abacavir theo hướng", "1 - Warfarin 2,5 mg"
        if _ends_sentence(prev) and ((nxt is None and tokens[j - 1][-1:] not in ",;:")
                                     or (clean and _starts_sentence(nxt))):
            return j + p, alias  # between sentences: "10 ngày. Aciclovir Nhiễm VZV"; "tá tràng. Amoxicilin"
        if p and (nxt is None or _starts_sentence(nxt)):
            return j + p, alias  # a title and its synonym before a new sentence: "Paracetamol (acetaminophen) P…"
        return None
    # 4. a neighbour's title, not loaded: only between a full stop and a new sentence, or ending the field.
    if _ends_sentence(prev) and _unknown_title(token, titles):
        for n in (1, 2):
            j = i + n
            if j > len(tokens) or (n == 2 and not _lower_word(tokens[i + 1])):
                break
            last = tokens[j - 1]
            p = _parenthetical(tokens, j) if last[-1:] not in _TRAIL else 0
            nxt = tokens[j + p] if j + p < len(tokens) else None
            if nxt is None and last[-1:] not in ",;:":
                return j + p, None  # "… ml/phút. Acarbose" ending the field
            if last[-1:] not in _TRAIL and _starts_sentence(nxt):
                return j + p, None  # "… paracetamol. Parafin lỏng Isoniazid và …"
    # 4b. a neighbour's title, not loaded, between a band's lead-in and its dose: "… dưới 1 tháng tuổi: Cloxacilin 5
    #     mg/kg …" — no band's dose of this monograph starts with another drug's capitalised name (left in, the line read
    #     as that drug's dose; #18 held-out H42). The next token is the dose's number; mid-sentence ("với Zolmarin 200
    #     mg") a name stays.
    if _unknown_title(token, titles) and prev[-1:] == ":" and i + 1 < len(tokens) and tokens[i + 1][:1].isdigit():
        return i + 1, None
    # 5. a neighbour's title, not loaded, mid-sentence, when its head word is one running text never capitalises
    #    there: the book writes "acid salicylic", "natri clorid" in lower case inside a sentence, and its titles
    #    "Acid aminocaproic", "Natri bicarbonat" with a capital ("… có mùi giống như Acid aminocaproic giấm").
    if _letters(token) in _CHEMICAL_HEADS and _lower_word(prev) and prev[-1:] not in _TRAIL \
            and i + 2 < len(tokens):
        name, nxt = tokens[i + 1], tokens[i + 2]
        if _lower_word(name) and name[-1:] not in _TRAIL and not _vietnamese_syllable(_letters(name)) \
                and _lower_word(nxt) and _vietnamese_syllable(fold(_letters(nxt))):  # not "Natri clorid 0,9%"
            return i + 2, None
    return None


_CHEMICAL_HEADS = frozenset({"Acid", "Natri", "Kali", "Calci", "Magnesi", "Nhôm", "Kẽm", "Sắt"})
"""Head words of the book's titles of salts and acids (a title of the page's neighbour, left as a running header)."""


# ------------------------------------------------------------------------------------------------ tables
_NUM = r"(?:[<>≤≥] ?)?\d{1,3}(?:(?: \d{3})+|[.,]\d+)?(?: ?- ?\d+(?:[.,]\d+)?)?"
_UNIT = (r"tuổi|tháng|kg|mg|ml|g|giờ|ngày|lần|%|tuần|năm|mcg|microgam|đơn vị|IU|phút|°C|oC|độ|viên|gói|ống|"
         r"mmol|µg|mg/kg|ml/phút|lít|l")
_ADJACENT = re.compile(rf"(?<![\w/,.])({_NUM}) ({_NUM})(?![\w/])(?! ?(?:{_UNIT})\b)")
_SEGMENT = re.compile(r"(?<=[.;])\s+(?=[^\W\d_])")
MIN_ADJACENT = 2
"""Bare number-after-number pairs a segment needs to count as a flattened table. One alone is usually a lost dash
("Trẻ em 10 12 tuổi"), which the dosage reader handles; a table row-by-row gives several."""


_TARGET_CELL = re.compile(r"\bĐích \d")
MIN_TARGET_CELLS = 3
"""A table whose cells kept a label and lost their rows: warfarin's INR table ("… Đích 2,5; INR 2 - 3; Rung nhĩ …
Đích 3,7; INR 3- 4,5; …"), flattened into the indications. No number follows a number there, so the pair count misses
it; read as text, a mechanical valve's question was answered "INR đích 2,5" (the table gives it 3,7; #17 held-out
H74/H78). Several "Đích <number>" cells on one line are such a table."""


def _labelled_table(line: str) -> tuple[int, int] | None:
    """The span of a flattened table of labelled target cells: from the sentence holding the first cell to the end of
    the line (its rows run on past the last cell); None when the line has fewer than MIN_TARGET_CELLS."""
    cells = list(_TARGET_CELL.finditer(line))
    if len(cells) < MIN_TARGET_CELLS:
        return None
    before = line[:cells[0].start()]
    stop = max(before.rfind(". "), before.rfind("; "))
    return (stop + 2 if stop >= 0 else 0), len(line)


def quarantine_tables(text: str) -> tuple[str, list[str]]:
    """Wrap each sentence-like segment holding a flattened table in the quarantine markers."""
    if "QUARANTINED" in text:
        return text, []  # already marked by the source: never nest markers
    out_lines: list[str] = []
    found: list[str] = []
    for line in text.split("\n"):
        labelled = _labelled_table(line)
        if labelled is not None:
            start, end = labelled
            body = line[start:end].strip()
            out_lines += [x for x in (line[:start].strip(),) if x]
            out_lines += [f"<!-- QUARANTINED: {QUARANTINE_REASON} -->", body, "<!-- /QUARANTINED -->"]
            out_lines += [x for x in (line[end:].strip(),) if x]
            found.append(_preview(body))
            continue
        segments = _SEGMENT.split(line)
        flagged = [len(_ADJACENT.findall(s)) >= MIN_ADJACENT for s in segments]
        if not any(flagged):
            out_lines.append(line)
            continue
        buffer: list[str] = []
        k = 0
        while k < len(segments):
            if not flagged[k]:
                buffer.append(segments[k])
                k += 1
                continue
            block = [segments[k]]
            k += 1
            while k < len(segments) and flagged[k]:
                block.append(segments[k])
                k += 1
            if buffer:
                out_lines.append(" ".join(buffer))
                buffer = []
            body = " ".join(block)
            out_lines += [f"<!-- QUARANTINED: {QUARANTINE_REASON} -->", body, "<!-- /QUARANTINED -->"]
            found.append(_preview(body))
        if buffer:
            out_lines.append(" ".join(buffer))
    return "\n".join(out_lines), found


def _preview(text: str, words: int = 8) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


# -------------------------------------------------------------------------------------------- misplaced
_ADR_BAND = re.compile(r"\b(thuong gap|it gap|hiem gap),? adr\b")
_CROSS_REFERENCE = re.compile(r"(?:mục|phần|xem|chuyên luận)\s*[“\"(]?\s*$", re.I)
_NO_END = ".!?)”:;>"


def _embedded_headings(key: str, text: str) -> list[str]:
    """Another section's heading written inside this text and followed by a new sentence ('… Tác dụng không mong
    muốn Nhìn chung, …'); a cross-reference ('xem mục Tương tác thuốc') is not one."""
    found: list[str] = []
    folded = fold(text)
    for other, heading in SECTION_HEADINGS.items():
        if other == key or len(heading.split()) < 3:
            continue
        plain = heading.split(" (")[0]
        if fold(plain) not in folded:
            continue
        for m in re.finditer(re.escape(plain), text, re.I):
            after = text[m.end():m.end() + 3].lstrip(" :")
            if after[:1].isupper() and not _CROSS_REFERENCE.search(text[max(0, m.start() - 20):m.start()]):
                found.append(other)
                break
    return found


def misplaced_text(sections: Sequence[tuple[str, str]]) -> list[str]:
    """Signs that a section holds another section's text — reported, never moved:
    - an ADR frequency band ("Thường gặp, ADR > 1/100") outside the adverse-effect section;
    - another section's heading inside the text, followed by a new sentence;
    - a section that ends mid-sentence, and a sentence elsewhere that starts in lower case after a full stop
      (the cut-off tail, sitting in another field)."""
    problems: list[str] = []
    cut_off = [key for key, text in sections if text.strip() and text.strip()[-1] not in _NO_END
               and key not in ("ten_thuong_mai", "ma_atc", "loai_thuoc", "ten_chung_quoc_te")]
    for key, text in sections:
        if key != "tac_dung_khong_mong_muon" and (m := _ADR_BAND.search(fold(text))):
            problems.append(f"{key}: adverse-effect frequency band «{m.group(0)}» — text of tac_dung_khong_mong_muon?")
        for other in _embedded_headings(key, text):
            problems.append(f"{key}: the heading «{SECTION_HEADINGS[other]}» followed by text — text of {other}?")
        origin = [c for c in cut_off if c != key]
        if not origin:
            continue
        for m in re.finditer(r"(?<=[^\W\d_]{4}\.) ([^\W\d_]+ [^.]{0,60})", text):
            if m.group(1)[:1].islower():
                problems.append(f"{key}: a sentence starts in lower case «{_preview(m.group(1), 6)}» — the tail of "
                                f"{origin[0]}, which ends mid-sentence?")
                break
    for key in cut_off:
        problems.append(f"{key}: ends mid-sentence")
    return problems


# ------------------------------------------------------------------------------------------------ apply
def dosage_placement(text: str, drug_names: Sequence[str] = ()) -> tuple[int, int] | None:
    """Hook for the dosage parser (branch `dosage`: `core.dosage.parse.placement(text) -> (placed, total)`):
    how much of a dosage section was placed in the dosage tree. None while that parser is not installed."""
    try:
        from core.dosage.parse import placement  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    result = placement(text, drug_names=tuple(drug_names))
    return (int(result[0]), int(result[1]))


def dosage_unplaced(text: str, drug_names: Sequence[str] = ()) -> list[str]:
    """The dosage lines the parser could not place, each as '<why>: <first words> …' (for the load report)."""
    from core.dosage.parse import parse_dosage

    return [f"{u.reason}: {_preview(u.text, 8)}" for u in parse_dosage(text, drug_names=tuple(drug_names)).unplaced]


_BRAND_TAIL = re.compile(r"(?<=\w\.) ([^;.\n]+)$")


def clean_section(key: str, text: str, titles: TitleBook, findings: MonographHygiene) -> str:
    """One section's text after hygiene; what was done goes to `findings`. Marker lines and quarantined blocks
    are left exactly as they are: they are the corpus format's, not the book's."""
    lines: list[str] = []
    inside = False
    for line in text.split("\n"):
        marker = line.strip().startswith("<!--")
        if marker and "/QUARANTINED" in line.upper():
            inside = False
        elif marker and "QUARANTINED" in line.upper():
            inside = True
        if marker or inside or not line.strip():
            lines.append(line)
            continue
        line, removed, aliases = remove_headers(line, titles)
        findings.headers_removed += removed
        findings.aliases_found += [a for a in aliases if a not in findings.aliases_found]
        lines.append(line)
    cleaned = "\n".join(lines)
    if key == "ten_thuong_mai":
        # A brand list is ';'-separated and ends with a full stop: capitalised words after its last full stop,
        # with no ';', are the next monograph's title ("… CPC1. Amoxicilin và kali clavulanat").
        tail = _BRAND_TAIL.search(cleaned)
        if tail and tail.group(1)[:1].isupper():
            findings.headers_removed.append(tail.group(1))
            cleaned = cleaned[:tail.start(1)].rstrip()
    if key in ("ten_thuong_mai", "ma_atc", "loai_thuoc", "ten_chung_quoc_te"):
        return cleaned
    cleaned, tables = quarantine_tables(cleaned)
    findings.tables_quarantined += [f"{key}: {t}" for t in tables]
    return cleaned


def titles_for(own_forms: Iterable[str], batch: TitleIndex | Iterable[str] = ()) -> TitleBook:
    own = tuple(dict.fromkeys(f for f in own_forms if f))
    return TitleBook(own=own, batch=batch if isinstance(batch, TitleIndex) else TitleIndex.of(batch))


def _move_headed_tails(sections: list[Section], findings: MonographHygiene) -> list[Section]:
    """A section whose text names another section's heading, followed by that section's own signature (an ADR
    frequency band after "Tác dụng không mong muốn"), carries that section's text from the heading on: the tail
    is moved to the named section and the move reported. Only with both signs — a heading alone may be a
    cross-reference — and only to the end of the field (where extraction put it)."""
    out = list(sections)
    for i, section in enumerate(out):
        if section.key == "tac_dung_khong_mong_muon" or "QUARANTINED" in section.text:
            continue
        plain = SECTION_HEADINGS["tac_dung_khong_mong_muon"].split(" (")[0]
        m = re.search(rf"(?<=[.;:]) {re.escape(plain)}(?: \(ADR\))?:? (?=[^\W\d_])", section.text, re.I)
        if m is None or not _ADR_BAND.search(fold(section.text[m.end():])):
            continue
        head, tail = section.text[:m.start()].rstrip(), section.text[m.end():].strip()
        out[i] = section.model_copy(update={"text": head})
        target = next((j for j, s in enumerate(out) if s.key == "tac_dung_khong_mong_muon"), None)
        if target is None:
            out.append(Section(key="tac_dung_khong_mong_muon", heading=SECTION_HEADINGS["tac_dung_khong_mong_muon"],
                               text=tail))
        else:
            out[target] = out[target].model_copy(update={"text": f"{out[target].text}\n\n{tail}".strip()})
        findings.misplaced.append(f"{section.key}: text after the heading «{plain}» with ADR frequency bands moved "
                                  f"to tac_dung_khong_mong_muon ({_preview(tail, 6)})")
    return out


def apply_hygiene(monographs: Sequence[Monograph], report: LoadReport) -> list[Monograph]:
    """Clean every monograph loaded together (their titles are the headers the others may show); the findings go
    to `report.hygiene`. Run before names are completed, so brands and classes come from the cleaned text."""
    forms = {m.drug_id: name_forms(m.title) for m in monographs}
    batch = TitleIndex.of(f for fs in forms.values() for f in fs)
    cleaned: list[Monograph] = []
    for m in monographs:
        findings = MonographHygiene(drug_id=m.drug_id, source=m.source)
        titles = titles_for(forms[m.drug_id], batch)
        sections = [s.model_copy(update={"text": clean_section(s.key, s.text, titles, findings)})
                    for s in m.sections]
        sections = _move_headed_tails(sections, findings)
        findings.misplaced += misplaced_text([(s.key, s.text) for s in sections])
        dosage = "\n".join(s.text for s in sections if s.key == "lieu_luong_cach_dung")
        findings.dosage_placed = dosage_placement(dosage, forms[m.drug_id]) if dosage else None
        findings.dosage_unplaced = dosage_unplaced(dosage, forms[m.drug_id]) if dosage else []
        report.hygiene.append(findings)
        cleaned.append(m.model_copy(update={"sections": sections,
                                            "aliases": [*m.aliases, *findings.aliases_found]}))
    return cleaned
