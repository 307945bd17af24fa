"""What a benchmark group reports: distributions, scalar figures, comparisons and targets (pydantic, as JSON).

A target is stated next to its measured figure with met / not met; it never raises and never fails a run.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, Field

Status = Literal["ok", "partial", "skipped", "failed", "timed_out"]


class Distribution(BaseModel):
    """Latency (or any sample) distribution; percentiles by linear interpolation between order statistics."""

    unit: str = "ms"
    n: int
    p50: float
    p95: float
    p99: float
    mean: float
    min: float
    max: float

    @classmethod
    def of(cls, samples: Sequence[float], unit: str = "ms") -> Distribution:
        if not samples:
            raise ValueError("a distribution needs at least one sample")
        ordered = sorted(samples)
        return cls(unit=unit, n=len(ordered), p50=percentile(ordered, 50), p95=percentile(ordered, 95),
                   p99=percentile(ordered, 99), mean=sum(ordered) / len(ordered), min=ordered[0], max=ordered[-1])


def percentile(ordered: Sequence[float], p: float) -> float:
    """The p-th percentile of already sorted samples (the "linear" method numpy uses by default)."""
    if len(ordered) == 1:
        return float(ordered[0])
    rank = (len(ordered) - 1) * p / 100.0
    lo, hi = math.floor(rank), math.ceil(rank)
    return float(ordered[lo] + (ordered[hi] - ordered[lo]) * (rank - lo))


class Comparison(BaseModel):
    """Two figures measured side by side in one process, and their ratio (baseline / subject)."""

    what: str
    subject: str
    subject_value: float
    baseline: str
    baseline_value: float
    unit: str = "ms"
    ratio: float
    ratio_meaning: str = ""


def compare(what: str, subject: str, subject_value: float, baseline: str, baseline_value: float, *,
            unit: str = "ms", meaning: str = "") -> Comparison:
    ratio = baseline_value / subject_value if subject_value > 0 else math.inf
    return Comparison(what=what, subject=subject, subject_value=subject_value, baseline=baseline,
                      baseline_value=baseline_value, unit=unit, ratio=ratio,
                      ratio_meaning=meaning or f"{baseline} / {subject}")


class Target(BaseModel):
    issue: int
    what: str
    target: str
    """As the issue states it, e.g. "p50 ≤ 0.5 ms"."""
    measured: str
    value: float | None = None
    met: bool | None = None
    """None when it could not be measured in this run (the reason is in the group's notes)."""


def at_most(issue: int, what: str, value: float | None, limit: float, unit: str = "ms", *,
            label: str = "", fmt: str = "{:.3g}") -> Target:
    shown = "not measured" if value is None else f"{fmt.format(value)} {unit}".strip()
    return Target(issue=issue, what=what, target=f"{label}≤ {fmt.format(limit)} {unit}".strip(), measured=shown,
                  value=value, met=None if value is None else value <= limit)


def at_least(issue: int, what: str, value: float | None, limit: float, unit: str = "", *,
             label: str = "", fmt: str = "{:.3g}") -> Target:
    shown = "not measured" if value is None else f"{fmt.format(value)} {unit}".strip()
    return Target(issue=issue, what=what, target=f"{label}≥ {fmt.format(limit)} {unit}".strip(), measured=shown,
                  value=value, met=None if value is None else value >= limit)


def exactly(issue: int, what: str, value: float | None, expected: float, unit: str = "") -> Target:
    shown = "not measured" if value is None else f"{value:g} {unit}".strip()
    return Target(issue=issue, what=what, target=f"= {expected:g} {unit}".strip(), measured=shown, value=value,
                  met=None if value is None else value == expected)


class GroupResult(BaseModel):
    group: str
    title: str = ""
    status: Status = "ok"
    started_at: str = ""
    duration_s: float = 0.0
    setup: dict[str, str] = Field(default_factory=dict)
    """How the group was measured (sample sizes, corpus, database), shown under its heading."""
    figures: dict[str, Distribution] = Field(default_factory=dict)
    values: dict[str, float | int | str] = Field(default_factory=dict)
    comparisons: list[Comparison] = Field(default_factory=list)
    targets: list[Target] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    error: str | None = None


class Results(BaseModel):
    environment: dict[str, object] = Field(default_factory=dict)
    run: dict[str, object] = Field(default_factory=dict)
    groups: dict[str, GroupResult] = Field(default_factory=dict)
