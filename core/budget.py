"""The per-turn request budget: wall clock and LLM calls.

Reference system gap F-08: each provider call was bounded only by its own timeout, so a turn with the
repair path could run past 40 s (observed 40.3 s on an Isosorbid dinitrat dosage turn). Here the budget is
(1) a guard on every machine transition into a state that calls an LLM, (2) `require()` immediately
before each provider call, and (3) `remaining_ms()` as the deadline of the call in flight: the adapter
waits for a provider call no longer than the turn has left (a provider that drips one byte every few
seconds never trips a per-read timeout, so only a deadline over the whole call bounds it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from core.errors import RequestBudgetExhausted

MAX_WALL_CLOCK_MS = 40_000
MAX_LLM_CALLS_PER_TURN = 8

Clock = Callable[[], float]
"""Returns monotonic milliseconds. Injected so tests can move time."""


def monotonic_ms() -> float:
    return time.monotonic() * 1000.0


@dataclass
class LlmCall:
    call_site: str
    duration_ms: float
    ok: bool
    usage: dict[str, int] = field(default_factory=dict)
    error: str | None = None


@dataclass
class RequestBudget:
    max_wall_clock_ms: int = MAX_WALL_CLOCK_MS
    max_llm_calls: int = MAX_LLM_CALLS_PER_TURN
    clock: Clock = monotonic_ms
    started_ms: float = field(default=0.0)
    calls: list[LlmCall] = field(default_factory=list)
    reserved: int = 0

    def __post_init__(self) -> None:
        self.started_ms = self.clock()

    @property
    def elapsed_ms(self) -> float:
        return self.clock() - self.started_ms

    def remaining_ms(self) -> float:
        """Wall-clock time left in the turn (never negative): the deadline of a provider call in flight."""
        return max(0.0, self.max_wall_clock_ms - self.elapsed_ms)

    @property
    def llm_calls(self) -> int:
        return self.reserved

    def can_call(self) -> bool:
        """True while one more provider call fits in both limits (a pure read, used by guards)."""
        return self.reserved < self.max_llm_calls and self.elapsed_ms < self.max_wall_clock_ms

    def require(self, call_site: str) -> None:
        """Reserve one provider call, or raise before the call is sent."""
        if self.reserved >= self.max_llm_calls:
            err = RequestBudgetExhausted(
                f"LLM call budget spent: {self.reserved} of {self.max_llm_calls} calls used; {call_site} not sent"
            )
            err.call_site = call_site
            raise err
        if self.elapsed_ms >= self.max_wall_clock_ms:
            err = RequestBudgetExhausted(
                f"wall-clock budget spent: {self.elapsed_ms:.0f} of {self.max_wall_clock_ms} ms; {call_site} not sent"
            )
            err.call_site = call_site
            raise err
        self.reserved += 1

    def record(self, call: LlmCall) -> None:
        self.calls.append(call)
