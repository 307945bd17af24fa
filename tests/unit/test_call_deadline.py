"""A provider call in flight is bounded by the turn's remaining budget (issue #19, item 3), in process: the real
SDK over the fake's in-process transport, whose reply drips one byte at a time."""

from __future__ import annotations

import time

import pytest

from core.budget import RequestBudget
from core.errors import RequestBudgetExhausted
from grounding.anthropic_adapter import ToolSpec, call_counts
from grounding.fake_messages import DripReply, FakeMessages, ToolReply
from tests.unit.claude_kit import client_for

TOOL = ToolSpec("record_x", "x", {"type": "object", "properties": {"x": {"type": "integer"}}})


def test_a_dripping_reply_is_abandoned_at_the_budgets_deadline_and_counted() -> None:
    fake = FakeMessages([DripReply(ToolReply({"x": 1}), interval_s=0.2)])
    client = client_for(fake, read_timeout_s=20.0)
    budget = RequestBudget(max_wall_clock_ms=400)
    before = call_counts().get(("understand", "error"), 0)

    started = time.monotonic()
    with pytest.raises(RequestBudgetExhausted, match="during understand"):
        client.call_tool("understand", "system", [{"role": "user", "content": "hi"}], TOOL, budget)

    assert time.monotonic() - started < 0.4 + 0.5
    assert [(c.call_site, c.ok) for c in budget.calls] == [("understand", False)]
    assert call_counts().get(("understand", "error"), 0) == before + 1


def test_each_attempt_waits_no_longer_than_the_time_the_turn_has_left() -> None:
    client = client_for(FakeMessages(), read_timeout_s=20.0)
    assert client._timeout(3.0).read == 3.0 and client._timeout(3.0).connect == 3.0
    assert client._timeout(60.0).read == 20.0 and client._timeout(60.0).connect == 5.0


def test_a_reply_within_the_budget_is_returned_as_before() -> None:
    fake = FakeMessages([ToolReply({"x": 7})])
    budget = RequestBudget(max_wall_clock_ms=5_000)
    out = client_for(fake).call_tool("understand", "system", [{"role": "user", "content": "hi"}], TOOL, budget)
    assert out == {"x": 7} and budget.remaining_ms() > 0
