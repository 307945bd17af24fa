"""Fewer model calls without dropping a check (issue 22): a dosing answer about one patient is shown in the book's
own words and needs no entailment call; a claim that says more than its spans is still checked; the verifier sends
the model only the claims that need it; a class phrase names no drug in a list answer."""

from __future__ import annotations

from core.budget import RequestBudget
from grounding.answer import Answer, Claim, GenerationRequest
from grounding.claude_generator import OFFERED_HEADER, ClaudeGenerator
from grounding.claude_verifier import ClaudeVerifier
from grounding.fake_messages import Cite, FakeMessages, TextReply, ToolReply, cited
from grounding.offered import book_words
from tests.unit.claude_kit import ADULT_ORAL, CHUNKS, client_for

SPAN = "Uống – Người lớn: 500 mg – 1 g mỗi 4–6 giờ."


def _adult_oral(**kw: object) -> GenerationRequest:
    fields: dict[str, object] = {"query": "Liều paracetamol uống cho người lớn?", "evidence": CHUNKS[:2],
                                 "section_key": "lieu_luong_cach_dung", "drug_ids": ["paracetamol"],
                                 "population": "adult", "route": "oral"}
    fields.update(kw)
    return GenerationRequest(**fields)  # type: ignore[arg-type]


def test_the_prompt_offers_the_patients_own_lines_and_not_another_routes() -> None:
    fake = FakeMessages([TextReply((cited("Người lớn uống 500 mg – 1 g.", Cite(source=ADULT_ORAL, contains="500")),))])
    ClaudeGenerator(client_for(fake)).generate(_adult_oral(), RequestBudget())
    offered = fake.requests[0].user_text.split(OFFERED_HEADER, 1)[1].split("\n\n", 1)[0]
    assert "500 mg – 1 g mỗi 4–6 giờ" in offered
    assert "650 mg" not in offered  # the rectal line is another route's


def test_a_paraphrased_dose_line_is_shown_as_the_cited_sentence_and_needs_no_entailment_call() -> None:
    fake = FakeMessages([TextReply((cited("Dược thư nêu rằng bệnh nhân người lớn sử dụng 500 mg – 1 g mỗi 4–6 giờ.",
                                          Cite(source=ADULT_ORAL, contains="500 mg")),))])
    answer = ClaudeGenerator(client_for(fake)).generate(_adult_oral(), RequestBudget())
    assert [c.text for c in answer.claims] == [SPAN]
    result = ClaudeVerifier(client_for(fake)).verify(answer, CHUNKS, RequestBudget())
    assert result.ok and len(fake.requests) == 1  # the generate call only


def test_a_dose_claim_with_a_number_or_a_negation_of_its_own_is_kept_as_written() -> None:
    computed = Claim(text="Người lớn uống 750 mg mỗi 4–6 giờ.", citations=[ADULT_ORAL], quotes=[SPAN])
    negated = Claim(text="Người lớn không uống 500 mg – 1 g mỗi 4–6 giờ.", citations=[ADULT_ORAL], quotes=[SPAN])
    uncited = Claim(text="Người lớn uống 500 mg.")
    assert book_words([computed, negated, uncited]) == [computed, negated, uncited]


def test_only_the_claims_that_reword_their_spans_are_sent_to_the_model() -> None:
    verdict = {"claims": [{"index": 1, "entailed": False, "reason": "adds a condition"}], "omissions": []}
    fake = FakeMessages([ToolReply(verdict), ToolReply(verdict)])
    answer = Answer(claims=[
        Claim(text=SPAN, citations=[ADULT_ORAL], quotes=[SPAN]),
        Claim(text="Người lớn uống 500 mg – 1 g mỗi 4–6 giờ, kể cả khi suy gan.", citations=[ADULT_ORAL],
              quotes=[SPAN]),
    ])
    result = ClaudeVerifier(client_for(fake)).verify(answer, CHUNKS, RequestBudget())
    assert not result.ok and result.rejected == [1]
    sent = fake.requests[0].user_text.split("Claims:", 1)[1]
    assert "1. " in sent and "0. " not in sent


def test_a_class_phrase_in_a_list_claim_names_no_drug() -> None:
    fake = FakeMessages([TextReply((cited("Giảm đau nhẹ và vừa.", Cite(source=ADULT_ORAL)),))])
    request = _adult_oral(mode="list", candidate_drug_ids=["paracetamol", "ibuprofen"], query="Thuốc nào trị đau?",
                          population=None, route=None, drug_names={"ibuprofen": ["giam dau", "ibuprofen"]},
                          drug_own_names={"ibuprofen": ["ibuprofen"]})
    answer = ClaudeGenerator(client_for(fake)).generate(request, RequestBudget())
    assert answer.claims[0].drug_ids == ["paracetamol"]
