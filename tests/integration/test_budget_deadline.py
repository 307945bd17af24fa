"""The budget bounds the provider call in flight (issue #19, item 3): a provider that drips one byte every
half second never trips a per-read timeout, yet the turn ends at the budget and abstains with
budget_exhausted — in process and through the real `formulary-fsm serve`, the real SDK against the fake
Messages server over a socket."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from engine.config import load_settings
from engine.wiring import build_engine
from grounding.fake_messages import DripReply, FakeMessages, FakeMessagesServer, ToolReply
from tests.integration.http_support import ServeProcess

pytestmark = pytest.mark.integration

BUDGET_MS = 2_500
DOSING = {"turn_type": "dosing_calc", "drugs": ["paracetamol"], "section_key": "lieu_luong_cach_dung",
          "population": "adult", "route": "oral"}


@pytest.fixture()
def dripping() -> Iterator[FakeMessagesServer]:
    # Every call drips its reply one byte every 0.5 s: ~150 s for a frame, far past any budget.
    fake = FakeMessages(fallback=lambda request: DripReply(ToolReply(DOSING), interval_s=0.5))
    with FakeMessagesServer(fake) as server:
        yield server


def test_a_turn_against_a_dripping_provider_ends_at_the_budget_in_process(
    tmp_path: Path, dripping: FakeMessagesServer
) -> None:
    runtime = build_engine(load_settings(
        data_dir=tmp_path, understanding_provider="anthropic", anthropic_api_key="test-key",
        anthropic_base_url=dripping.url, anthropic_read_timeout_s=20.0, max_wall_clock_ms=BUDGET_MS))
    try:
        started = time.monotonic()
        reply = runtime.engine.handle("Liều paracetamol uống cho người lớn?")
        took = time.monotonic() - started
    finally:
        runtime.close()

    assert (reply.outcome, reply.reason) == ("abstain", "budget_exhausted")
    assert took < BUDGET_MS / 1000 + 1.0, took
    assert [(c.call_site, c.ok) for c in reply.trace.llm_calls] == [("understand", False)]
    assert "budget" in (reply.trace.llm_calls[0].error or "")


def test_a_turn_against_a_dripping_provider_ends_at_the_budget_over_http(
    tmp_path: Path, dripping: FakeMessagesServer
) -> None:
    backend = ServeProcess(tmp_path / "serve", UNDERSTANDING_PROVIDER="anthropic", ANTHROPIC_API_KEY="test-key",
                           ANTHROPIC_BASE_URL=dripping.url, MAX_WALL_CLOCK_MS=str(BUDGET_MS))
    with backend, httpx.Client(base_url=backend.url, timeout=60) as http:
        durations = []
        for _ in range(2):
            started = time.monotonic()
            response = http.post("/v1/rag/query", json={"message": "Liều paracetamol uống cho người lớn?"})
            durations.append(time.monotonic() - started)
            assert response.status_code == 200, response.text
            body = response.json()
            assert (body["outcome"], body["reason"]) == ("abstain", "budget_exhausted")

    assert max(durations) < BUDGET_MS / 1000 + 1.0, durations
