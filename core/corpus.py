"""The corpus model: monograph → sections → chunks.

A chunk's `doc_id` is `"{drug_id}__{section_key}__{n}"`; `n` counts chunks within the section from 0 in
book order. `has_quarantined_content` marks a block (usually a table) that failed extraction: such a
chunk forces VERIFY_PDF and is never generated over (ADR 0006 of the reference system).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Chunk(BaseModel):
    model_config = ConfigDict(frozen=True)

    doc_id: str
    drug_id: str
    section_key: str
    text: str
    page: int | None = None
    has_quarantined_content: bool = False
    drug_title: str = ""
    """The monograph title as printed (for citations), e.g. "PARACETAMOL (Acetaminophen)"."""
    continues: bool = False
    """This chunk continues the previous chunk's paragraph (a long flattened paragraph cut at a sentence): the
    dosage tree joins them with a space, so a band's continuation sentence stays in its band. Stored in the index
    payload of both adapters (the payload is the chunk's fields); an index built before it reads False."""

    @property
    def doc_prefix(self) -> str:
        return f"{self.drug_id}__{self.section_key}"


class Section(BaseModel):
    key: str
    heading: str
    text: str
    page: int | None = None


class Monograph(BaseModel):
    drug_id: str
    title: str
    """Title as printed, e.g. "ACID ACETYLSALICYLIC (Aspirin)"."""
    name: str
    """Display name, e.g. "Acid acetylsalicylic"."""
    aliases: list[str] = Field(default_factory=list)
    """Other names: the parenthesised common name, INN spellings."""
    brands: list[str] = Field(default_factory=list)
    """Brand names from `ten_thuong_mai`."""
    classes: list[str] = Field(default_factory=list)
    """Drug-class phrases from `loai_thuoc` (interaction sections name drugs by class too)."""
    sections: list[Section] = Field(default_factory=list)
    source: str = ""
    synthetic: bool = False
    """True for the fixture formulary: replies then say it is test data, never guidance."""


class DrugNames(BaseModel):
    """What the resolver needs to know of one drug."""

    model_config = ConfigDict(frozen=True)

    drug_id: str
    name: str
    aliases: tuple[str, ...] = ()
    brands: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()

    def all_names(self) -> tuple[str, ...]:
        return (self.name, self.drug_id.replace("_", " "), *self.aliases, *self.brands)


class ScoredChunk(BaseModel):
    model_config = ConfigDict(frozen=True)

    chunk: Chunk
    score: float
    source: Literal["keyword", "dense", "hybrid"] = "keyword"
    """Which search scored it: keyword (BM25) score, dense cosine similarity, or reciprocal-rank fusion."""
