"""In-process counters rendered as Prometheus text (turns by outcome/reason, guard trips, LLM calls, latency)."""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.context import TurnContext
    from engine.reply import Reply

_BUCKETS_MS = (5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 20000, 40000, 60000)
_LIMITED = frozenset({"clarify_loop_exhausted", "budget_exhausted"})


class Metrics:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.turns: Counter[tuple[str, str]] = Counter()
        self.guard_trips: Counter[str] = Counter()
        self.llm_calls: Counter[tuple[str, str]] = Counter()
        self._latency_hits = [0] * (len(_BUCKETS_MS) + 1)
        """Turns per latency band: index i counts `_BUCKETS_MS[i-1] < ms <= _BUCKETS_MS[i]` (the last, beyond the
        largest bucket). A turn costs one increment; `latency_buckets` sums the bands into Prometheus's cumulative
        `le` counts when read."""
        self.latency_sum_ms = 0.0
        self.latency_count = 0
        self.store_write_failures = 0
        self.store_read_failures = 0
        self.store_conflicts = 0

    def observe_turn(self, reply: Reply, ctx: TurnContext) -> None:
        trace = ctx.trace
        ms = trace.duration_ms
        band = bisect_left(_BUCKETS_MS, ms)  # the first bucket with ms <= le (Prometheus buckets are inclusive)
        with self._lock:
            self.turns[(reply.outcome, reply.reason)] += 1
            if reply.reason in _LIMITED:
                self.guard_trips[reply.reason] += 1
            for call in trace.llm_calls:
                self.llm_calls[(call.call_site, "ok" if call.ok else "error")] += 1
            if not ctx.memory_loaded:
                self.store_read_failures += 1
            self.latency_sum_ms += ms
            self.latency_count += 1
            self._latency_hits[band] += 1

    @property
    def latency_buckets(self) -> dict[int, int]:
        """Turns with latency ≤ each bucket (cumulative, as rendered)."""
        out: dict[int, int] = {}
        total = 0
        for b, hits in zip(_BUCKETS_MS, self._latency_hits, strict=False):
            total += hits
            out[b] = total
        return out

    def render(self) -> str:
        with self._lock:
            lines = ["# TYPE formulary_turns_total counter"]
            for (outcome, reason), n in sorted(self.turns.items()):
                lines.append(f'formulary_turns_total{{outcome="{outcome}",reason="{reason}"}} {n}')
            lines.append("# TYPE formulary_guard_trips_total counter")
            for guard, n in sorted(self.guard_trips.items()):
                lines.append(f'formulary_guard_trips_total{{guard="{guard}"}} {n}')
            lines.append("# TYPE formulary_llm_calls_total counter")
            for (site, status), n in sorted(self.llm_calls.items()):
                lines.append(f'formulary_llm_calls_total{{site="{site}",status="{status}"}} {n}')
            lines.append("# TYPE formulary_turn_latency_ms histogram")
            for b, n in self.latency_buckets.items():
                lines.append(f'formulary_turn_latency_ms_bucket{{le="{b}"}} {n}')
            lines.append(f'formulary_turn_latency_ms_bucket{{le="+Inf"}} {self.latency_count}')
            lines.append(f"formulary_turn_latency_ms_sum {self.latency_sum_ms:.3f}")
            lines.append(f"formulary_turn_latency_ms_count {self.latency_count}")
            lines.append("# TYPE formulary_store_failures_total counter")
            lines.append(f'formulary_store_failures_total{{op="write"}} {self.store_write_failures}')
            lines.append(f'formulary_store_failures_total{{op="read"}} {self.store_read_failures}')
            lines.append(f'formulary_store_failures_total{{op="conflict"}} {self.store_conflicts}')
            return "\n".join(lines) + "\n"
