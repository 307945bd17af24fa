"""The limits that bound every turn and conversation: one object, held by the spec.

`build_spec` puts one `Limits` in `MachineSpec.limits`; the guard labels, the fingerprint, the review export, the
per-turn budget and the clarify-streak guard all read that object, so the fingerprint a pharmacist signs is what
runs, by construction.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    max_consecutive_clarify: int = 4
    max_wall_clock_ms: int = 40_000
    max_llm_calls: int = 8

    def items(self) -> tuple[tuple[str, int], ...]:
        """(environment variable, value), in the order the review export and the fingerprint list them."""
        return (
            ("MAX_CONSECUTIVE_CLARIFY", self.max_consecutive_clarify),
            ("MAX_WALL_CLOCK_MS", self.max_wall_clock_ms),
            ("MAX_LLM_CALLS_PER_TURN", self.max_llm_calls),
        )

    def __iter__(self) -> Iterator[tuple[str, int]]:
        return iter(self.items())
