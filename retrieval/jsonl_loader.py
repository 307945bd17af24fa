"""Loader for the project's JSON Lines corpus format: one monograph per line (docs/corpus-format.md).

Each line is validated on its own: a malformed line is reported (file, line, problem) and skipped, the
rest of the file still loads. Names (drug id, aliases, brands, classes) follow the same rules as the
Markdown loader, so either format yields the same monograph.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from core.corpus import Monograph, Section
from core.errors import CorpusError, CorpusFormatError
from core.sections import SECTION_HEADINGS
from retrieval.headings import match_heading
from retrieval.hygiene import apply_hygiene
from retrieval.load_report import LoadIssue, LoadReport
from retrieval.monograph_names import DRUG_ID, clean_title, complete_names, display_name, drug_id_from_title


class JsonSection(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: str | None = None
    heading: str | None = None
    text: str = ""
    page: int | None = Field(default=None, ge=0)
    quarantined_blocks: list[str] = Field(default_factory=list)
    """Text of blocks that failed extraction; each becomes a quarantined chunk after `text`."""

    @model_validator(mode="after")
    def _key_or_heading(self) -> JsonSection:
        if not self.key and not self.heading:
            raise ValueError("a section needs a 'key' or a 'heading'")
        if self.key and self.key not in SECTION_HEADINGS:
            raise ValueError(f"unknown section key {self.key!r}")
        return self


class JsonMonograph(BaseModel):
    model_config = ConfigDict(extra="forbid")

    drug_id: str | None = None
    title: str = Field(min_length=1)
    name: str | None = None
    aliases: list[str] = Field(default_factory=list)
    brands: list[str] = Field(default_factory=list)
    classes: list[str] = Field(default_factory=list)
    synthetic: bool = False
    sections: list[JsonSection] = Field(min_length=1)

    @model_validator(mode="after")
    def _valid_id(self) -> JsonMonograph:
        if self.drug_id is not None and not DRUG_ID.match(self.drug_id):
            raise ValueError(f"drug_id {self.drug_id!r} is not lower-case ASCII snake_case")
        return self


def _section_text(s: JsonSection) -> str:
    # Quarantined blocks travel as the same markers the Markdown loader keeps, so chunking is shared.
    parts = [s.text.strip()] if s.text.strip() else []
    parts += [f"<!-- QUARANTINED -->\n{block.strip()}\n<!-- /QUARANTINED -->" for block in s.quarantined_blocks]
    return "\n\n".join(parts)


def _problem(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    msg = str(first["msg"]).removeprefix("Value error, ")
    return f"{where}: {msg}" if where else msg


def parse_jsonl_line(line: str, source: str, lineno: int, report: LoadReport, *, complete: bool = True) -> Monograph:
    """One line → one monograph; raise CorpusFormatError when the line is malformed. With `complete=False` the
    derived names (aliases, brands, classes) are left for the caller to complete after hygiene."""
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        raise CorpusFormatError(source, lineno, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(raw, dict):
        raise CorpusFormatError(source, lineno, "expected one JSON object per line")
    try:
        doc = JsonMonograph.model_validate(raw)
    except ValidationError as exc:
        raise CorpusFormatError(source, lineno, _problem(exc)) from None
    title = clean_title(doc.title)
    drug_id = doc.drug_id or drug_id_from_title(title)
    if not drug_id:
        raise CorpusFormatError(source, lineno, f"title {title!r} has no name to derive a drug id from")
    sections: list[Section] = []
    for s in doc.sections:
        key = s.key or match_heading(s.heading or "")
        text = _section_text(s)
        if key is None:
            if not sections:
                raise CorpusFormatError(source, lineno, f"first section heading {s.heading!r} names no known section")
            report.unknown_headings.append(LoadIssue(
                file=source, line=lineno,
                problem=f"unknown heading {s.heading!r}; kept as text of {sections[-1].key}"))
            prev = sections[-1]
            sections[-1] = prev.model_copy(update={"text": f"{prev.text}\n\n{s.heading}\n{text}".strip()})
            continue
        sections.append(Section(key=key, heading=s.heading or SECTION_HEADINGS[key], text=text, page=s.page))
    monograph = Monograph(drug_id=drug_id, title=title, name=doc.name or display_name(title),
                          aliases=doc.aliases, brands=doc.brands, classes=doc.classes, sections=sections,
                          source=source, synthetic=doc.synthetic)
    return complete_names(monograph) if complete else monograph


def load_jsonl(path: Path) -> tuple[list[Monograph], LoadReport]:
    report = LoadReport()
    monographs: list[Monograph] = []
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CorpusError(f"{path}: cannot read ({exc.strerror or exc})") from None
    for lineno, raw in enumerate(data.splitlines(), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            report.add_error(CorpusFormatError(str(path), lineno, "not UTF-8 text"))
            continue
        if not line.strip():
            continue
        try:
            monograph = parse_jsonl_line(line, str(path), lineno, report, complete=False)
        except CorpusFormatError as exc:
            report.add_error(exc)
            continue
        monographs.append(monograph)
        report.monographs += 1
        report.sections += len(monograph.sections)
    # Hygiene over the whole file (its titles are the headers its records may show), then names.
    return [complete_names(m) for m in apply_hygiene(monographs, report)], report
