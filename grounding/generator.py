"""Generator and entailment-verifier protocols."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core.budget import RequestBudget
from core.corpus import Chunk
from grounding.answer import Answer, EntailmentResult, GenerationRequest


class AnswerGenerator(Protocol):
    name: str
    calls_llm: bool

    def generate(self, request: GenerationRequest, budget: RequestBudget) -> Answer:
        """Claims with citations from the request's evidence only. Raises AnswerGenerationUnavailable."""
        ...

    def repair(
        self, request: GenerationRequest, answer: Answer, omissions: Sequence[str], budget: RequestBudget
    ) -> Answer:
        """The answer completed with the grounded omissions the verifier reported."""
        ...


class EntailmentVerifier(Protocol):
    name: str
    calls_llm: bool

    def verify(self, answer: Answer, evidence: Sequence[Chunk], budget: RequestBudget) -> EntailmentResult:
        ...
