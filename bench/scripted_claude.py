"""A scripted Claude for the benchmarks: `grounding.fake_messages.FakeMessages` with a responder per call site.

Every request goes through the real `anthropic` SDK and the project's adapters; the fake answers as a
well-behaved model would:

- understand (forced `record_query_frame`): the frame the rules understander produced for the same turn
  (the hybrid asks the model only when that frame's confidence is low; here the model agrees with it);
- generate / repair (search results, citations enabled): the first sentence blocks of the first search
  results, cited, as the Messages API returns cited text; the VERBATIM model quotes them exactly, the
  PARAPHRASING model rewords each (a reporting clause in front, a few synonyms swapped; every number, unit
  and negation kept) so the verifier cannot skip entailment: its claims no longer only restate their spans;
- entail (forced `record_entailment`): every claim entailed, no omissions;
- sufficiency (forced `record_sufficiency`): sufficient.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from core.budget import RequestBudget
from grounding.fake_messages import Cite, FakeMessages, RecordedRequest, Reply, Text, TextReply, ToolReply
from states.understander import Understander, Understanding, UnderstandingRequest

BLOCKS_PER_RESULT = 2
RESULTS_CITED = 2


class RecordingRules:
    """Wraps the rules understander and keeps its last frame, which the scripted model then returns."""

    def __init__(self, rules: Understander) -> None:
        self.rules = rules
        self.name = rules.name
        self.last: Understanding | None = None

    def understand(self, request: UnderstandingRequest, budget: RequestBudget) -> Understanding:
        self.last = self.rules.understand(request, budget)
        return self.last


def _frame_reply(rules: RecordingRules | None, request: RecordedRequest) -> Reply:
    last = rules.last if rules is not None else None
    frame = last.frame.model_dump(exclude={"understood_by", "confidence"}) if last else {}
    tool: dict[str, Any] = next((t for t in request.body.get("tools", []) if t.get("name") == "record_query_frame"), {})
    allowed = tool.get("input_schema", {}).get("properties", {}).get("drugs", {}).get("items", {}).get("enum")
    frame["drugs"] = [d for d in frame.get("drugs", []) if allowed and d in allowed]
    return ToolReply(input=frame)


def _claim_indexes(request: RecordedRequest) -> list[int]:
    text = request.user_text
    claims = text.split("Claims:", 1)[1] if "Claims:" in text else ""
    return [int(m) for m in re.findall(r"^(\d+)\. ", claims, flags=re.MULTILINE)]


SYNONYMS = (("người bệnh", "bệnh nhân"), ("sử dụng", "dùng"), ("thuốc", "dược phẩm"), ("gây", "làm xuất hiện"))
"""Swaps that keep meaning, numbers and negations: what a model writing its own sentence might do."""


def paraphrase(text: str) -> str:
    """The sentence reworded as a model that does not copy would: new words in front, synonyms swapped."""
    body = text.strip()
    for a, b in SYNONYMS:
        body = re.sub(rf"\b{a}\b", b, body, flags=re.IGNORECASE)
    if body[:1].isupper() and not body[1:2].isupper():
        body = body[:1].lower() + body[1:]
    return f"Dược thư nêu rằng {body}"


def _cited_reply(request: RecordedRequest, reword: bool = False) -> Reply:
    parts: list[Text | str] = []
    for i, result in enumerate(request.search_results[:RESULTS_CITED]):
        for k, block in enumerate(result.get("content", [])[:BLOCKS_PER_RESULT]):
            text = block.get("text", "")
            parts.append(Text((paraphrase(text) if reword else text) + "\n", (Cite(index=i, start=k, end=k + 1),)))
    return TextReply(tuple(parts) if parts else ("[KHÔNG ĐỦ DỮ LIỆU]",))


def responder(rules: RecordingRules | None = None, *, paraphrasing: bool = False) -> Callable[[RecordedRequest], Reply]:
    def respond(request: RecordedRequest) -> Reply:
        tool = request.forced_tool
        if tool == "record_query_frame":
            return _frame_reply(rules, request)
        if tool == "record_entailment":
            verdicts: list[dict[str, Any]] = [{"index": i, "entailed": True, "reason": "stated by its block"}
                                              for i in _claim_indexes(request)]
            return ToolReply(input={"claims": verdicts, "omissions": []})
        if tool == "record_sufficiency":
            return ToolReply(input={"sufficient": True})
        return _cited_reply(request, reword=paraphrasing)

    return respond


def scripted_fake(rules: RecordingRules | None = None, *, latency: Callable[[RecordedRequest], float] | None = None,
                  paraphrasing: bool = False) -> FakeMessages:
    return FakeMessages(fallback=responder(rules, paraphrasing=paraphrasing), latency=latency)
