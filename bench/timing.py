"""Measuring helpers shared by the groups: a monotonic clock, timed loops, and bounded sampling."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def now_ms() -> float:
    return time.perf_counter_ns() / 1e6


def time_each(fn: Callable[[T], object], items: Sequence[T], *, warmup: int = 0) -> list[float]:
    """Milliseconds per call of `fn(item)`, one sample per item, after `warmup` untimed calls."""
    for item in items[:warmup]:
        fn(item)
    gc.collect()
    samples: list[float] = []
    for item in items:
        start = time.perf_counter_ns()
        fn(item)
        samples.append((time.perf_counter_ns() - start) / 1e6)
    return samples


def interleaved(fns: dict[str, Callable[[T], object]], items: Sequence[T]) -> dict[str, list[float]]:
    """Time several implementations on the same items, alternating per item, so drift on a shared machine
    lands on all of them alike (side by side, not one after the other)."""
    samples: dict[str, list[float]] = {name: [] for name in fns}
    gc.collect()
    for item in items:
        for name, fn in fns.items():
            start = time.perf_counter_ns()
            fn(item)
            samples[name].append((time.perf_counter_ns() - start) / 1e6)
    return samples


def cycle(items: Sequence[T], n: int) -> list[T]:
    """`n` items taken round-robin from `items` (deterministic: no sampling randomness)."""
    if not items:
        return []
    return [items[i % len(items)] for i in range(n)]


class Deadline:
    """A wall-clock budget for a loop, so a slow machine shortens the sample instead of the whole bench."""

    def __init__(self, seconds: float) -> None:
        self.ends = time.monotonic() + seconds

    def passed(self) -> bool:
        return time.monotonic() >= self.ends

    @property
    def left_s(self) -> float:
        return max(0.0, self.ends - time.monotonic())
