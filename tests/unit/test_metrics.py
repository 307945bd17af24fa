"""/metrics: each turn counted once in its outcome and in every latency bucket at or above its duration."""

from __future__ import annotations

from core.budget import RequestBudget
from engine.context import TurnContext
from engine.metrics import Metrics
from engine.reply import Reply


def _turn(metrics: Metrics, ms: float, reason: str = "single_drug") -> None:
    ctx = TurnContext(text="x", budget=RequestBudget(40_000, 8))
    ctx.trace.duration_ms = ms
    reply = Reply(conversation_id="c", turn=1, outcome="answerable", reason=reason, reply="r", state="ready",
                  trace_id="t")
    metrics.observe_turn(reply, ctx)


def _buckets(text: str) -> dict[str, int]:
    prefix = 'formulary_turn_latency_ms_bucket{le="'
    return {line[len(prefix):].split('"')[0]: int(line.rsplit(" ", 1)[1])
            for line in text.splitlines() if line.startswith(prefix)}


def test_latency_buckets_are_cumulative_and_a_turn_on_a_bound_counts_in_that_bucket() -> None:
    metrics = Metrics()
    for ms in (0.4, 5, 5.001, 99.9, 60_000, 75_000):
        _turn(metrics, ms)
    buckets = _buckets(metrics.render())
    assert buckets["5"] == 2  # 0.4 and exactly 5
    assert buckets["10"] == 3 and buckets["50"] == 3 and buckets["100"] == 4
    assert buckets["40000"] == 4 and buckets["60000"] == 5
    assert buckets["+Inf"] == 6  # 75 s is beyond every bucket but still a turn
    assert list(buckets) == ["5", "10", "25", "50", "100", "250", "500", "1000", "2500", "5000", "10000", "20000",
                             "40000", "60000", "+Inf"]
    assert "formulary_turn_latency_ms_count 6" in metrics.render()


def test_a_turn_stopped_by_a_limit_is_counted_as_a_guard_trip() -> None:
    metrics = Metrics()
    _turn(metrics, 1.0, reason="clarify_loop_exhausted")
    _turn(metrics, 1.0)
    assert 'formulary_guard_trips_total{guard="clarify_loop_exhausted"} 1' in metrics.render()
    assert "budget_exhausted" not in metrics.render()
