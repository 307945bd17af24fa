"""A citation in a reply: one formulary block, with its drug, section, page and the quote shown."""

from __future__ import annotations

from pydantic import BaseModel, Field

from grounding.calculator import Derivation


class Citation(BaseModel):
    doc_id: str
    drug_id: str
    drug_name: str = ""
    section_key: str
    section_title: str = ""
    quote: str
    page: int | None = None
    derivation: Derivation | None = None
    """When the reply computed an amount from a line of this block: the derivation it was verified by."""
    calculation_lines: list[str] = Field(default_factory=list)
    """…and the arithmetic as shown (stored with the citation, so a reloaded chat shows it again)."""
