"""The understanding protocol shared by the rules, Claude and hybrid understanders."""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel, Field

from core.budget import RequestBudget
from retrieval.resolver import ResolverResult
from states.frame import Pending, QueryFrame


class UnderstandingRequest(BaseModel):
    text: str
    history: list[str] = Field(default_factory=list)
    """Last 12 history lines, oldest first."""
    prior_frame: QueryFrame | None = None
    pending: Pending | None = None
    candidates: ResolverResult
    """The resolver's candidates bound the drug ids any understander may return."""


class Understanding(BaseModel):
    frame: QueryFrame
    provider_output: dict[str, Any] | None = None
    """What an LLM returned (recorded in the trace for exact replay); None for rules."""
    notes: list[str] = Field(default_factory=list)
    """What the understander corrected or noticed (e.g. dropped out-of-candidate ids), copied to the trace."""


class Understander(Protocol):
    name: str

    def understand(self, request: UnderstandingRequest, budget: RequestBudget) -> Understanding:
        """Extract a frame. Raises AnswerGenerationUnavailable (or a subclass) when it cannot."""
        ...
