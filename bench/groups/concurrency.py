"""The concurrency model (DESIGN.md, "Concurrency model"): with a provider that sleeps like the real one, many
conversations progress at once instead of queueing behind each other's network waits.

`formulary-fsm serve --workers 1` runs with ANSWER_PROVIDER=anthropic and VERIFIER=anthropic against a
`FakeMessagesServer` on 127.0.0.1 (ANTHROPIC_BASE_URL) that answers every call after a 0.5 s delay, as a
remote model would. First a few answerable turns are sent one at a time (one turn's latency); then 20
conversations send one answerable turn each, all at once. If turns ran one after another the 20 would take
~20 × one turn; with the bounded worker pool they take about one turn's latency.
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from bench.engines import offline_env
from bench.load import run_load
from bench.results import Distribution, GroupResult, at_most, compare
from bench.scripted_claude import scripted_fake
from bench.server import Server

TITLE = "concurrency: 20 conversations at once against a provider that sleeps 0.5 s per call"
DELAY_S = 0.5
CONCURRENT = 20
SEQUENTIAL = 4
TARGET_FACTOR = 2.0
"""≈ one turn's latency: the 20 concurrent turns finish within 2 × the latency of one turn alone."""
ANSWERABLE = ("Chống chỉ định của ibuprofen là gì?", "Tác dụng không mong muốn của metformin?",
              "Paracetamol dùng để làm gì?", "Chống chỉ định của warfarin?", "Chỉ định của amlodipin?")


def run() -> GroupResult:
    from grounding.fake_messages import FakeMessagesServer  # its listen backlog is sized for this load

    result = GroupResult(group="concurrency", title=TITLE)
    fake = scripted_fake(latency=lambda _request: DELAY_S)
    with tempfile.TemporaryDirectory(prefix="bench-concurrency-") as tmp, FakeMessagesServer(fake) as provider:
        data_dir = Path(tmp)
        env = offline_env(data_dir, ANSWER_PROVIDER="anthropic", VERIFIER="anthropic",
                          ANTHROPIC_BASE_URL=provider.url, ANTHROPIC_API_KEY="bench-scripted")
        with Server(env, workers=1, log=data_dir / "serve.log") as server:
            run_load(server.url, [[ANSWERABLE[0]]])  # warm-up: first-call imports and connections
            sequential = run_load(server.url, [[ANSWERABLE[i % len(ANSWERABLE)]] for i in range(SEQUENTIAL)][:1])
            for i in range(1, SEQUENTIAL):
                more = run_load(server.url, [[ANSWERABLE[i % len(ANSWERABLE)]]])
                sequential.latencies_ms += more.latencies_ms
                sequential.errors += more.errors
                sequential.outcomes.update({k: sequential.outcomes.get(k, 0) + v for k, v in more.outcomes.items()})
            calls_before = len(fake.requests)
            concurrent = run_load(server.url, [[ANSWERABLE[i % len(ANSWERABLE)]] for i in range(CONCURRENT)],
                                  overall_s=60)
            calls = len(fake.requests) - calls_before
    if not sequential.latencies_ms or not concurrent.latencies_ms:
        result.status = "failed"
        result.error = f"no successful turn: {(sequential.errors + concurrent.errors)[:3]}"
        result.targets.append(at_most(11, "20 concurrent turns ÷ one turn's latency", None, TARGET_FACTOR, "×"))
        return result
    one_turn_s = statistics.median(sequential.latencies_ms) / 1000
    wall_s = concurrent.wall_s
    result.figures["one turn alone (sequential)"] = Distribution.of(sequential.latencies_ms)
    result.figures[f"each of {CONCURRENT} concurrent turns"] = Distribution.of(concurrent.latencies_ms)
    result.values.update({
        "provider delay per call, s": DELAY_S,
        "provider calls during the concurrent phase": calls,
        f"wall clock for {CONCURRENT} concurrent turns, s": round(wall_s, 2),
        "one turn alone (median), s": round(one_turn_s, 3),
        f"if serialised ({CONCURRENT} × one turn), s": round(CONCURRENT * one_turn_s, 2),
        "errors": len(sequential.errors) + len(concurrent.errors),
        **{f"outcome {k}": v for k, v in sorted(concurrent.outcomes.items())},
    })
    result.comparisons.append(compare(f"{CONCURRENT} turns: serialised vs concurrent", "concurrent (measured)", wall_s,
                                      f"serialised ({CONCURRENT} × one turn)", CONCURRENT * one_turn_s, unit="s",
                                      meaning="conversations effectively in flight at once"))
    if concurrent.errors:
        result.notes += [f"error: {e}" for e in concurrent.errors[:5]]
    result.setup = {
        "server": "formulary-fsm serve --workers 1; ANSWER_PROVIDER=anthropic VERIFIER=anthropic; rules "
                  "understanding; SQLite; ANTHROPIC_BASE_URL = FakeMessagesServer on 127.0.0.1",
        "provider": f"every Messages call answered after {DELAY_S} s (scripted, cited replies)",
        "load": f"{SEQUENTIAL} turns one at a time, then {CONCURRENT} conversations × 1 answerable turn at once",
    }
    result.targets.append(at_most(11, f"{CONCURRENT} concurrent turns' wall clock ÷ one turn's latency", wall_s / one_turn_s,
                                  TARGET_FACTOR, "×", fmt="{:.2f}"))
    return result
