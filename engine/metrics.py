"""In-process counters rendered as Prometheus text (turns by outcome/reason, guard trips, LLM calls, latency)."""

from __future__ import annotations

import threading
from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.context import TurnContext
    from engine.reply import Reply

_BUCKETS_MS = (5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 20000, 40000, 60000)


class Metrics:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.turns: Counter[tuple[str, str]] = Counter()
        self.guard_trips: Counter[str] = Counter()
        self.llm_calls: Counter[tuple[str, str]] = Counter()
        self.latency_buckets: Counter[float] = Counter()
        self.latency_sum_ms = 0.0
        self.latency_count = 0
        self.store_write_failures = 0
        self.store_read_failures = 0
        self.store_conflicts = 0

    def observe_turn(self, reply: Reply, ctx: TurnContext) -> None:
        with self._lock:
            self.turns[(reply.outcome, reply.reason)] += 1
            if reply.reason in ("clarify_loop_exhausted", "budget_exhausted"):
                self.guard_trips[reply.reason] += 1
            for call in ctx.trace.llm_calls:
                self.llm_calls[(call.call_site, "ok" if call.ok else "error")] += 1
            if not ctx.memory_loaded:
                self.store_read_failures += 1
            ms = ctx.trace.duration_ms
            self.latency_sum_ms += ms
            self.latency_count += 1
            for b in _BUCKETS_MS:
                if ms <= b:
                    self.latency_buckets[b] += 1

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
            for b in _BUCKETS_MS:
                lines.append(f'formulary_turn_latency_ms_bucket{{le="{b}"}} {self.latency_buckets[b]}')
            lines.append(f'formulary_turn_latency_ms_bucket{{le="+Inf"}} {self.latency_count}')
            lines.append(f"formulary_turn_latency_ms_sum {self.latency_sum_ms:.3f}")
            lines.append(f"formulary_turn_latency_ms_count {self.latency_count}")
            lines.append("# TYPE formulary_store_failures_total counter")
            lines.append(f'formulary_store_failures_total{{op="write"}} {self.store_write_failures}')
            lines.append(f'formulary_store_failures_total{{op="read"}} {self.store_read_failures}')
            lines.append(f'formulary_store_failures_total{{op="conflict"}} {self.store_conflicts}')
            return "\n".join(lines) + "\n"
