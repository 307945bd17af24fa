"""A citation in a reply: one formulary block, with its drug, section, page and the quote shown."""

from __future__ import annotations

from pydantic import BaseModel


class Citation(BaseModel):
    doc_id: str
    drug_id: str
    drug_name: str = ""
    section_key: str
    section_title: str = ""
    quote: str
    page: int | None = None
