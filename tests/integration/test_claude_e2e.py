"""End to end with Claude behind ANTHROPIC_BASE_URL: the real SDK over a socket to a local fake Messages server.

The HTTP backend (`formulary-fsm serve`, configured only through the environment) holds a 3-turn dosing
conversation whose every provider call goes through the fake; the same conversation also runs in process
through `build_engine`, and real-socket timeouts and overloads abstain within the budget.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from engine.config import Settings, load_settings
from engine.wiring import Runtime, build_engine
from grounding.claude_generator import INSUFFICIENT
from grounding.fake_messages import (
    Cite,
    FakeMessages,
    FakeMessagesServer,
    RecordedRequest,
    Reply,
    TextReply,
    ToolReply,
    cited,
    overloaded,
    timeouts,
)
from tests.integration.http_support import ServeProcess, ask

pytestmark = pytest.mark.integration

CONVERSATION: list[tuple[str, dict[str, Any]]] = [
    ("Liều paracetamol?", {"turn_type": "dosing_calc", "drugs": ["paracetamol"],
                           "section_key": "lieu_luong_cach_dung"}),
    ("Người lớn", {"turn_type": "dosing_calc", "population": "adult"}),
    ("Uống", {"turn_type": "dosing_calc", "route": "oral"}),
]
FRAMES = dict(CONVERSATION)
EXPECTED = [("clarify", "missing_population"), ("clarify", "ambiguous_route"), ("answerable", "single_drug")]
ADULT_ORAL_DOSE = "500 mg – 1 g/lần, mỗi 4–6 giờ"


def claude_like(request: RecordedRequest) -> Reply:
    """Answers like the model would: the frame for each turn; generation quotes the adult oral block whole (the usual
    line and the lower ceiling beside it for adults at risk or under 50 kg, which the completeness check requires)."""
    if request.forced_tool == "record_query_frame":
        return ToolReply(FRAMES[request.user_text.rsplit("Turn: ", 1)[1]])
    if request.forced_tool == "record_entailment":
        return ToolReply({"claims": [{"index": 0, "entailed": True}], "omissions": []})
    for i, result in enumerate(request.search_results):
        if any(ADULT_ORAL_DOSE in block["text"] for block in result["content"]):
            return TextReply(tuple(cited(block["text"], Cite(index=i, start=k))
                                   for k, block in enumerate(result["content"])))
    return TextReply((INSUFFICIENT,))


@pytest.fixture(scope="module")
def server() -> Iterator[FakeMessagesServer]:
    with FakeMessagesServer(FakeMessages(fallback=claude_like)) as s:
        yield s


def _claude_settings(data_dir: Path, base_url: str, **overrides: object) -> Settings:
    fields: dict[str, object] = {"answer_provider": "anthropic", "understanding_provider": "anthropic",
                                 "verifier": "anthropic", "anthropic_api_key": "test-key",
                                 "anthropic_base_url": base_url}
    return load_settings(data_dir=data_dir, **{**fields, **overrides})


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory, server: FakeMessagesServer) -> Iterator[Runtime]:
    rt = build_engine(_claude_settings(tmp_path_factory.mktemp("claude-e2e"), server.url,
                                       anthropic_read_timeout_s=0.5))
    yield rt
    rt.close()


def test_three_turn_conversation_over_the_http_backend_with_claude_behind_anthropic_base_url(
    tmp_path: Path, server: FakeMessagesServer
) -> None:
    before = len(server.requests)
    backend = ServeProcess(tmp_path / "serve", ANSWER_PROVIDER="anthropic", UNDERSTANDING_PROVIDER="anthropic",
                           VERIFIER="anthropic", ANTHROPIC_API_KEY="test-key", ANTHROPIC_BASE_URL=server.url)
    with backend, httpx.Client(base_url=backend.url, timeout=60) as http:
        conversation_id = None
        replies = []
        for turn, _ in CONVERSATION:
            body = ask(http, turn, conversation_id)
            conversation_id = body["conversation_id"]
            replies.append(body)

    assert [(r["outcome"], r["reason"]) for r in replies] == EXPECTED
    assert ADULT_ORAL_DOSE in replies[2]["reply"]
    assert [c["doc_id"].startswith("paracetamol__lieu_luong_cach_dung__") for c in replies[2]["citations"]] == [True]
    # Every provider call went to the fake, with the configured key: 3 understand calls and 1 generation
    # (the claim restates its cited sentence, so no entailment call).
    sent = server.requests[before:]
    assert [r.forced_tool for r in sent] == ["record_query_frame"] * 3 + [None]
    assert {r.api_key for r in sent} == {"test-key"}
    assert sent[3].search_results and server.fake.errors == []


def test_three_turn_conversation_in_process_with_claude_behind_anthropic_base_url(
    runtime: Runtime, server: FakeMessagesServer
) -> None:
    before = len(server.requests)
    conversation_id = None
    replies = []
    for turn, _ in CONVERSATION:
        reply = runtime.engine.handle(turn, conversation_id)
        conversation_id = reply.conversation_id
        replies.append(reply)

    assert [(r.outcome, r.reason) for r in replies] == EXPECTED
    assert ADULT_ORAL_DOSE in replies[2].reply
    assert [c.call_site for c in replies[2].trace.llm_calls] == ["understand", "generate"]
    assert replies[2].trace.understood_by == "anthropic"
    assert len(server.requests) - before == 4


@pytest.mark.parametrize("outage", [timeouts(seconds=2.0), overloaded()], ids=["read-timeout", "529"])
def test_generation_outage_over_a_real_socket_abstains_within_budget(
    runtime: Runtime, server: FakeMessagesServer, outage: list[Reply]
) -> None:
    understand = ToolReply({"turn_type": "dosing_calc", "drugs": ["paracetamol"], "population": "adult",
                            "route": "oral", "section_key": "lieu_luong_cach_dung"})
    server.fake.push(understand, outage)
    before = len(server.requests)

    reply = runtime.engine.handle("Liều paracetamol uống cho người lớn?")

    assert (reply.outcome, reply.reason) == ("abstain", "generation_unavailable")
    assert ADULT_ORAL_DOSE not in reply.reply and reply.citations == []
    assert [(c.call_site, c.ok) for c in reply.trace.llm_calls] == [("understand", True), ("generate", False)]
    assert len(server.requests) - before == 3  # understand, then both attempts of the generation


def test_hybrid_mode_asks_the_model_only_for_turns_the_rules_are_unsure_of(
    tmp_path: Path, server: FakeMessagesServer
) -> None:
    runtime = build_engine(_claude_settings(tmp_path, server.url, understanding_provider="hybrid"))
    try:
        conversation_id = None
        replies = []
        for turn, _ in CONVERSATION:
            reply = runtime.engine.handle(turn, conversation_id)
            conversation_id = reply.conversation_id
            replies.append(reply)
    finally:
        runtime.close()

    assert [(r.outcome, r.reason) for r in replies] == EXPECTED
    assert replies[0].trace.understood_by == "rules"  # a full question the rules parse with confidence
    for r in replies:
        asked = "understand" in [c.call_site for c in r.trace.llm_calls]
        assert asked == (r.trace.understood_by == "anthropic"), r.trace.notes
