"""The deterministic evidence decision. Never a model's self-reported confidence (ADR 0007/0008)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from core.corpus import Chunk


class Decision(StrEnum):
    ANSWERABLE = "answerable"
    VERIFY_PDF = "verify_pdf"
    ABSTAIN = "abstain"


def decide(evidence: Sequence[Chunk]) -> Decision:
    """No provenance → ABSTAIN; any quarantined chunk → VERIFY_PDF; else ANSWERABLE."""
    if not evidence or any(not c.doc_id or not c.drug_id for c in evidence):
        return Decision.ABSTAIN
    if any(c.has_quarantined_content for c in evidence):
        return Decision.VERIFY_PDF
    return Decision.ANSWERABLE
