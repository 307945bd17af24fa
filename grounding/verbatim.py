"""Retrieval-only mode (ANSWER_PROVIDER=disabled): every quotable evidence block, verbatim, citing itself.

This is the reference system's legacy mode: no generation, so nothing can be misquoted. Quarantined blocks
are still never quoted (the machine flags them for the PDF before generation anyway).
"""

from __future__ import annotations

from collections.abc import Sequence

from core.budget import RequestBudget
from grounding.answer import Answer, Claim, GenerationRequest
from grounding.extractive import quotable


class VerbatimGenerator:
    name = "verbatim"
    calls_llm = False

    def generate(self, request: GenerationRequest, budget: RequestBudget) -> Answer:
        claims = [Claim(text=c.text.strip(), citations=[c.doc_id]) for c in quotable(request.evidence)
                  if c.text.strip()]
        return Answer(claims=claims, generator=self.name, insufficient=not claims)

    def repair(
        self, request: GenerationRequest, answer: Answer, omissions: Sequence[str], budget: RequestBudget
    ) -> Answer:
        # Every block is already quoted whole: there is nothing left to add.
        return answer
