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


class LoadReport(BaseModel):
    monographs: int = 0
    sections: int = 0
    chunks: int = 0
    quarantined_blocks: int = 0
    unknown_headings: list[LoadIssue] = Field(default_factory=list)
    """Headings that name no known section: kept, attached to the previous section, listed here."""
    errors: list[LoadIssue] = Field(default_factory=list)
    """Malformed lines or files: skipped (the rest of the corpus still loads), listed here."""

    def add_error(self, exc: CorpusFormatError) -> None:
        self.errors.append(LoadIssue.from_error(exc))

    def merge(self, other: LoadReport) -> None:
        self.monographs += other.monographs
        self.sections += other.sections
        self.chunks += other.chunks
        self.quarantined_blocks += other.quarantined_blocks
        self.unknown_headings.extend(other.unknown_headings)
        self.errors.extend(other.errors)
