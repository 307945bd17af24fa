"""Citation and numeric grounding. TODO(issue 5): replaced by the grounding work."""

from __future__ import annotations

from collections.abc import Sequence

from grounding.answer import Answer, GroundingResult
from retrieval.corpus import Chunk


def verify_grounding(
    answer: Answer, evidence: Sequence[Chunk], *, candidate_drug_ids: Sequence[str] | None = None
) -> GroundingResult:
    ids = {c.doc_id for c in evidence}
    problems = [f"claim {i} cites unretrieved {d}" for i, c in enumerate(answer.claims) for d in c.citations
                if d not in ids]
    if not answer.claims:
        problems.append("answer has no claims")
    return GroundingResult(ok=not problems, problems=problems)
