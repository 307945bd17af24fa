"""The benchmark's own arithmetic and report: percentiles, ratios, and targets written as met / not met."""

from __future__ import annotations

from bench.report import render
from bench.results import Distribution, GroupResult, Results, at_least, at_most, compare, percentile


def test_percentiles_interpolate_between_order_statistics_like_numpy() -> None:
    samples = [float(v) for v in range(1, 101)]  # 1 … 100
    assert percentile(samples, 50) == 50.5
    assert round(percentile(samples, 99), 2) == 99.01
    d = Distribution.of(list(reversed(samples)))
    assert (d.n, d.min, d.max, d.p50) == (100, 1.0, 100.0, 50.5)


def test_a_single_sample_is_every_percentile() -> None:
    d = Distribution.of([3.0])
    assert d.p50 == d.p95 == d.p99 == 3.0


def test_ratio_is_baseline_over_subject() -> None:
    c = compare("lookup p50", "Edge", 0.05, "local", 700.0)
    assert round(c.ratio) == 14_000


def test_a_missed_target_is_reported_not_met_and_a_kept_one_met() -> None:
    slow = at_most(2, "machine p50", 1.07, 0.5, "ms", label="p50 ")
    fast = at_least(8, "throughput", 140.0, 100.0, "turns/s")
    assert (slow.met, fast.met) == (False, True)
    group = GroupResult(group="machine", title="t", targets=[slow, fast])
    text = render(Results(environment={"nproc": 2, "cpu_model": "x", "python": "3.11"}, groups={"machine": group}))
    assert "| #2 | machine | machine p50 | p50 ≤ 0.5 ms | 1.07 ms | **not met** |" in text
    assert "| #8 | machine | throughput | ≥ 100 turns/s | 140 turns/s | met |" in text
    assert "| nproc | 2 |" in text


def test_an_unmeasured_target_says_so_instead_of_passing() -> None:
    t = at_most(4, "server RSS", None, 300.0, "MiB")
    assert t.met is None and t.measured == "not measured"
