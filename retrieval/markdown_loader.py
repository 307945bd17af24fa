"""Loader for monograph Markdown as converted from the formulary PDF.

Shape (see docs/corpus-format.md):

    <!-- SYNTHETIC TEST DATA … -->            optional first line: the file is synthetic test data
    # **PARACETAMOL (Acetaminophen)**         a title starts a monograph (a file may hold many)
    <!-- page: 1021 -->                       source page of what follows
    **Tên chung quốc tế:** Paracetamol.       inline field (the colon may sit outside the bold)
    ## **Chỉ định**                           section heading (or a bold-only line naming a section)
    <!-- QUARANTINED: reason --> … <!-- /QUARANTINED -->   a block that failed extraction

Headings are matched without diacritics (retrieval.headings). An unknown `##` heading is kept as text
of the previous section and reported; nothing is dropped silently. Page and quarantine markers stay in
the section text: chunking reads them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from core.corpus import Monograph, Section
from core.errors import CorpusError, CorpusFormatError
from core.sections import SECTION_HEADINGS
from core.text import normalize
from retrieval.headings import match_heading
from retrieval.hygiene import apply_hygiene
from retrieval.load_report import LoadIssue, LoadReport
from retrieval.monograph_names import clean_title, complete_names, display_name, drug_id_from_title

PAGE_MARKER = re.compile(r"^<!--\s*page:\s*(\d+)\s*-->$", re.I)
QUARANTINE_START = re.compile(r"^<!--\s*QUARANTINED\b:?\s*(.*?)\s*-->$", re.I)
QUARANTINE_END = re.compile(r"^<!--\s*/\s*QUARANTINED\s*-->$", re.I)
_COMMENT = re.compile(r"^<!--.*-->$", re.S)
_TITLE = re.compile(r"^#(?!#)\s*(.+)$")
_HEADING = re.compile(r"^#{2,6}\s*(.+)$")
# `**Tên chung quốc tế:** Paracetamol.` or `**Tên chung quốc tế**: Paracetamol.` or `**Chỉ định**`
_BOLD_FIELD = re.compile(r"^\*\*(?P<name>[^*]+?)\s*(?P<c1>:?)\s*\*\*\s*(?P<c2>:?)\s*(?P<rest>.*)$")


def _is_synthetic_marker(line: str) -> bool:
    return line.startswith("<!--") and "SYNTHETIC" in line.upper()


@dataclass
class _Section:
    key: str
    heading: str
    page: int | None
    lines: list[str] = field(default_factory=list)

    def finish(self) -> Section:
        lines = list(self.lines)
        # A trailing page marker or blank belongs to what follows, not to this section.
        while lines and (not lines[-1].strip() or PAGE_MARKER.match(lines[-1].strip())):
            lines.pop()
        while lines and not lines[0].strip():
            lines.pop(0)
        return Section(key=self.key, heading=self.heading, text="\n".join(lines), page=self.page)


@dataclass
class _Monograph:
    title: str
    line: int
    sections: list[_Section] = field(default_factory=list)
    preamble: list[str] = field(default_factory=list)

    @property
    def current(self) -> _Section | None:
        return self.sections[-1] if self.sections else None

    def used(self, key: str) -> bool:
        return any(s.key == key for s in self.sections)


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source
        self.report = LoadReport()
        self.monographs: list[Monograph] = []
        self.synthetic = False
        self.page: int | None = None
        self.mono: _Monograph | None = None
        self.quarantine_line: int | None = None
        self.stray_text_line: int | None = None

    # -- problems -------------------------------------------------------------------------------
    def error(self, line: int | None, problem: str) -> None:
        self.report.add_error(CorpusFormatError(self.source, line, problem))

    def unknown(self, line: int, problem: str) -> None:
        self.report.unknown_headings.append(LoadIssue(file=self.source, line=line, problem=problem))

    # -- structure ------------------------------------------------------------------------------
    def open_section(self, key: str, heading: str) -> _Section:
        assert self.mono is not None
        section = _Section(key=key, heading=heading, page=self.page)
        if self.mono.preamble and not self.mono.sections:
            section.lines.extend([*self.mono.preamble, ""])
            self.mono.preamble.clear()
        self.mono.sections.append(section)
        return section

    def append(self, line: str, lineno: int) -> None:
        if self.mono is None:
            if line.strip() and self.stray_text_line is None:
                self.stray_text_line = lineno
                self.error(lineno, "text before the first monograph title (# **NAME**) was ignored")
            return
        current = self.mono.current
        if current is None:
            if line.strip() and not self.mono.preamble:
                self.unknown(lineno, "text before the first section heading; kept in the first section")
            self.mono.preamble.append(line)
        else:
            current.lines.append(line)

    def close_monograph(self) -> None:
        mono, self.mono = self.mono, None
        if mono is None:
            return
        if self.quarantine_line is not None:
            self.error(self.quarantine_line, "QUARANTINED block is not closed by <!-- /QUARANTINED -->; "
                                             "closed at the end of the monograph")
            if mono.current is not None:
                mono.current.lines.append("<!-- /QUARANTINED -->")
            self.quarantine_line = None
        drug_id = drug_id_from_title(mono.title)
        if not drug_id:
            self.error(mono.line, f"title {mono.title!r} has no name to derive a drug id from")
            return
        sections = [s.finish() for s in mono.sections]
        if not sections:
            self.error(mono.line, f"monograph {mono.title!r} has no sections")
            return
        monograph = Monograph(drug_id=drug_id, title=mono.title, name=display_name(mono.title),
                              sections=sections, source=self.source, synthetic=self.synthetic)
        self.monographs.append(monograph)  # names completed after hygiene (finish)
        self.report.monographs += 1
        self.report.sections += len(sections)

    # -- lines ----------------------------------------------------------------------------------
    def feed(self, raw: str, lineno: int) -> None:
        line = normalize(raw) if raw.strip() else ""
        if self.quarantine_line is not None:
            # Inside a quarantined block nothing is interpreted: it is garbled by definition.
            self.append(raw.rstrip(), lineno)
            if QUARANTINE_END.match(line):
                self.quarantine_line = None
            return
        if lineno == 1 and _is_synthetic_marker(line):
            self.synthetic = True
            return
        if page := PAGE_MARKER.match(line):
            self.page = int(page.group(1))
            if self.mono is not None and self.mono.current is not None:
                self.mono.current.lines.append(line)
            return
        if QUARANTINE_START.match(line):
            if self.mono is None or self.mono.current is None:
                self.error(lineno, "QUARANTINED block outside any section")
            self.quarantine_line = lineno
            self.append(line, lineno)
            return
        if QUARANTINE_END.match(line):
            self.error(lineno, "<!-- /QUARANTINED --> without an opening marker")
            return
        if _COMMENT.match(line):
            return
        if title := _TITLE.match(line):
            self.close_monograph()
            self.mono = _Monograph(title=clean_title(title.group(1)), line=lineno)
            if not self.mono.title:
                self.error(lineno, "empty monograph title")
            return
        if self.mono is not None and (heading := _HEADING.match(line)):
            self.heading(heading.group(1), lineno)
            return
        if self.mono is not None and (bold := _BOLD_FIELD.match(line)) and self.bold_field(bold, lineno):
            return
        self.append(line, lineno)

    def heading(self, text: str, lineno: int) -> None:
        assert self.mono is not None
        plain = text.replace("**", "").replace("__", "").strip(" *_:")
        key = match_heading(plain)
        if key is not None:
            self.open_section(key, plain)
            return
        current = self.mono.current
        where = current.key if current else "the first section"
        self.unknown(lineno, f"unknown heading {plain!r}; kept as text of {where}")
        self.append("", lineno)
        self.append(plain, lineno)

    def bold_field(self, bold: re.Match[str], lineno: int) -> bool:
        """A bold line that names a section opens it; any other bold line is ordinary text."""
        assert self.mono is not None
        key = match_heading(bold.group("name"))
        # A bold label repeating a section already seen ("**Liều dùng:**" inside the dosage section)
        # is a sub-heading, not a new section.
        if key is None or self.mono.used(key):
            return False
        section = self.open_section(key, normalize(bold.group("name")))
        rest = bold.group("rest").strip()
        if rest:
            section.lines.append(rest)
        return True

    def finish(self) -> tuple[list[Monograph], LoadReport]:
        self.close_monograph()
        # Hygiene before names: brands and classes are read from the cleaned text.
        self.monographs = [complete_names(m) for m in apply_hygiene(self.monographs, self.report)]
        if not self.monographs and not self.report.errors:
            self.error(None, "no monograph found (expected a title line such as # **PARACETAMOL**)")
        return self.monographs, self.report


def parse_markdown(text: str, source: str = "<string>") -> tuple[list[Monograph], LoadReport]:
    """Parse one Markdown document; problems go to the report, never raise for bad content."""
    parser = _Parser(source)
    for lineno, raw in enumerate(text.splitlines(), start=1):
        parser.feed(raw, lineno)
    return parser.finish()


def load_markdown(path: Path) -> tuple[list[Monograph], LoadReport]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        report = LoadReport()
        report.add_error(CorpusFormatError(str(path), None, f"not UTF-8 text ({exc.reason})"))
        return [], report
    except OSError as exc:
        raise CorpusError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return parse_markdown(text, str(path))


__all__ = ["SECTION_HEADINGS", "load_markdown", "parse_markdown"]
