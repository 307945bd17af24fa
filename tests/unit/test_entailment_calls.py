"""Which claims cost an entailment call, counted on the local fake of the Messages API (real wire format):
a claim that restates its cited span needs no model, with or without an attribution lead-in ("Theo Dược
thư, …"); a reworded claim is still judged by the model, and so is a lead-in that carries a negation."""

from __future__ import annotations

import pytest

from core.budget import RequestBudget
from grounding.answer import Answer, Claim
from grounding.claude_verifier import ClaudeVerifier, claim_content
from grounding.fake_messages import FakeMessages, ToolReply
from tests.unit.claude_kit import ADULT_ORAL, CHUNKS, client_for

SPAN = "Uống – Người lớn: 500 mg – 1 g mỗi 4–6 giờ."
ENTAILED = {"claims": [{"index": 0, "entailed": True, "reason": "stated"}], "omissions": []}


def _entailment_calls(text: str) -> int:
    fake = FakeMessages([ToolReply(ENTAILED), ToolReply(ENTAILED)])
    answer = Answer(claims=[Claim(text=text, citations=[ADULT_ORAL], quotes=[SPAN])])
    result = ClaudeVerifier(client_for(fake)).verify(answer, CHUNKS, RequestBudget())
    assert result.ok
    assert all(r.forced_tool == "record_entailment" for r in fake.requests)
    return len(fake.requests)


@pytest.mark.parametrize("text", [
    "Người lớn uống 500 mg – 1 g mỗi 4–6 giờ.",
    "Theo Dược thư, người lớn uống 500 mg – 1 g mỗi 4–6 giờ.",
    "Dược thư nêu rằng người lớn uống 500 mg – 1 g mỗi 4–6 giờ.",
    "Theo Dược thư: uống – người lớn: 500 mg – 1 g mỗi 4–6 giờ.",
])
def test_a_claim_restating_its_span_makes_no_model_call(text: str) -> None:
    assert _entailment_calls(text) == 0


@pytest.mark.parametrize("text", [
    "Dược thư nêu rằng bệnh nhân người lớn sử dụng 500 mg – 1 g mỗi 4–6 giờ.",  # reworded: the model judges it
    "Người lớn uống 500 mg – 1 g mỗi 4–6 giờ, kể cả khi suy gan.",  # adds a condition
    "Dược thư không nêu rằng người lớn uống 500 mg – 1 g mỗi 4–6 giờ.",  # a negation is content, not a lead-in
    "Người lớn uống 500 mg – 1 g mỗi 4–6 giờ theo Dược thư và theo hướng dẫn khác.",  # a source mid-sentence
])
def test_a_claim_that_says_more_or_other_than_its_span_is_still_checked_by_the_model(text: str) -> None:
    assert _entailment_calls(text) == 1


def test_only_a_leading_attribution_is_set_aside() -> None:
    assert claim_content("Theo Dược thư, trẻ em 10 mg/kg.") == "tre em 10 mg/kg."
    assert claim_content("Liều theo Dược thư là 5 mg.") == "lieu theo duoc thu la 5 mg."
    assert claim_content("Dược thư không nêu liều.").startswith("duoc thu khong")
