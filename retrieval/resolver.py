"""Deterministic drug-name resolver (rapidfuzz) over the formulary's own names.

It bounds the candidate set before any model runs: an LLM understander may only choose among these.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from retrieval.corpus import DrugNames


class Candidate(BaseModel):
    drug_id: str
    matched: str
    """The formulary name that matched (INN, alias or brand)."""
    span: str
    """The text of the turn that matched."""
    score: float
    """0–100; exact (folded) matches score 100."""


class ResolverResult(BaseModel):
    candidates: list[Candidate] = Field(default_factory=list)
    """Ranked best first, one per drug id, in the order the turn names them when scores tie."""
    unknown: list[str] = Field(default_factory=list)
    """Names that look like drug names but resolve to nothing above the acceptance threshold."""

    @property
    def drug_ids(self) -> list[str]:
        return [c.drug_id for c in self.candidates]


class DrugResolver:
    """TODO(issue 3): implemented by the understanding work."""

    def __init__(self, names: Sequence[DrugNames]) -> None:
        self.names = list(names)

    def resolve(self, text: str) -> ResolverResult:
        raise NotImplementedError
