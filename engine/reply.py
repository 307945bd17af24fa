"""What a turn returns to its caller (HTTP body, CLI, in-process)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from grounding.calculator import Derivation
from states.citation import Citation
from states.step import ProviderOutput

__all__ = ["Citation", "GuardEvaluation", "LlmCallRecord", "Outcome", "ProviderOutput", "Reply", "Trace",
           "TransitionTaken"]

Outcome = Literal["answerable", "verify_pdf", "clarify", "abstain"]


class GuardEvaluation(BaseModel):
    """One guard evaluated in one state. Frozen: the machine shares one record per (state, guard, result) among
    every turn that makes that evaluation (engine.machine), instead of building one per evaluation."""

    model_config = ConfigDict(frozen=True)

    state: str
    guard: str
    result: bool


class TransitionTaken(BaseModel):
    """One transition fired. Frozen: one shared record per spec transition (engine.machine)."""

    model_config = ConfigDict(frozen=True)

    source: str
    trigger: str
    dest: str
    row: str | None = None


class LlmCallRecord(BaseModel):
    call_site: str
    duration_ms: float
    ok: bool
    usage: dict[str, int] = Field(default_factory=dict)
    error: str | None = None


class Trace(BaseModel):
    trace_id: str = ""
    states: list[str] = Field(default_factory=list)
    transitions: list[TransitionTaken] = Field(default_factory=list)
    guards: list[GuardEvaluation] = Field(default_factory=list)
    llm_calls: list[LlmCallRecord] = Field(default_factory=list)
    provider_outputs: list[ProviderOutput] = Field(default_factory=list)
    """Recorded provider outputs (call site + output), so a stored conversation can be replayed exactly."""
    evidence: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    understood_by: str | None = None
    query: str | None = None
    derivations: list[Derivation] = Field(default_factory=list)
    """Every calculation shown this turn, as its derivation (operands with their sources, operations, results)."""
    duration_ms: float = 0.0


class CalculationShown(BaseModel):
    """The arithmetic shown under an answer: its lines and the derivation that reproduced it (chat page block)."""

    drug_id: str
    lines: list[str]
    derivation: Derivation


class Reply(BaseModel):
    conversation_id: str
    turn: int
    outcome: Outcome
    reason: str
    reply: str
    citations: list[Citation] = Field(default_factory=list)
    calculation: list[CalculationShown] | None = None
    """The dosing calculator's arithmetic, when one was computed and verified (None otherwise)."""
    quick_replies: list[str] = Field(default_factory=list)
    state: str
    trace_id: str
    persisted: bool = True
    memory_loaded: bool = True
    spec_fingerprint: str = ""
    frame: dict[str, Any] | None = None
    trace: Trace = Field(default_factory=Trace)
