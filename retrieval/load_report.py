"""What loading a corpus found: counts, and every problem named by file, line and what is wrong."""

from __future__ import annotations

from pydantic import BaseModel, Field

from core.errors import CorpusFormatError


class LoadIssue(BaseModel):
    file: str
    line: int | None = None
    problem: str

    @classmethod
    def from_error(cls, exc: CorpusFormatError) -> LoadIssue:
        return cls(file=exc.path, line=exc.line, problem=exc.problem)

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.problem}"


class MonographHygiene(BaseModel):
    """What real-text hygiene (retrieval.hygiene) did to one monograph."""

    drug_id: str
    source: str = ""
    headers_removed: list[str] = Field(default_factory=list)
    """Each running page header removed, as it was written ("1120 Paracetamol (acetaminophen)")."""
    tables_quarantined: list[str] = Field(default_factory=list)
    """'<section key>: <first words> …' per flattened table quarantined (answers over it say: check the PDF)."""
    misplaced: list[str] = Field(default_factory=list)
    """Text that looks like another section's: reported, never moved."""
    aliases_found: list[str] = Field(default_factory=list)
    """Synonyms of this monograph's title read from its own removed headers ("acetaminophen")."""
    dosage_placed: tuple[int, int] | None = None
    """(placed, total) lines of the dosage section placed in the dosage tree; None when no dosage parser is
    installed (hook: retrieval.hygiene.dosage_placement)."""
    dosage_unplaced: list[str] = Field(default_factory=list)
    """'<why>: <first words> …' per dosage line the parser could not place (never shown as a band's dose)."""

    @property
    def changed(self) -> bool:
        return bool(self.headers_removed or self.tables_quarantined or self.misplaced)

    def summary(self) -> str:
        placed = (f", dosage lines placed {self.dosage_placed[0]}/{self.dosage_placed[1]}"
                  if self.dosage_placed else "")
        return (f"{self.drug_id}: {len(self.headers_removed)} page headers removed, "
                f"{len(self.tables_quarantined)} flattened tables quarantined, "
                f"{len(self.misplaced)} misplaced-text notes{placed}")


class LoadReport(BaseModel):
    monographs: int = 0
    sections: int = 0
    chunks: int = 0
    quarantined_blocks: int = 0
    unknown_headings: list[LoadIssue] = Field(default_factory=list)
    """Headings that name no known section: kept, attached to the previous section, listed here."""
    errors: list[LoadIssue] = Field(default_factory=list)
    """Malformed lines or files: skipped (the rest of the corpus still loads), listed here."""
    hygiene: list[MonographHygiene] = Field(default_factory=list)
    """Per monograph, what real-text hygiene removed, quarantined and reported."""

    def add_error(self, exc: CorpusFormatError) -> None:
        self.errors.append(LoadIssue.from_error(exc))

    def merge(self, other: LoadReport) -> None:
        self.monographs += other.monographs
        self.sections += other.sections
        self.chunks += other.chunks
        self.quarantined_blocks += other.quarantined_blocks
        self.unknown_headings.extend(other.unknown_headings)
        self.errors.extend(other.errors)
        self.hygiene.extend(other.hygiene)
