"""The Claude adapters over the real `anthropic` SDK, talking HTTP to a scripted MockTransport fake."""

from __future__ import annotations

import pytest

from core.budget import RequestBudget
from core.corpus import Chunk, DrugNames
from core.errors import (
    ConfigurationError,
    ProviderOutputInvalid,
    ProviderRequestRejected,
    ProviderUnavailable,
    RequestBudgetExhausted,
)
from engine.config import load_settings
from engine.runner import Engine
from engine.spec import build_spec
from grounding.answer import Answer, Claim, GenerationRequest
from grounding.anthropic_adapter import ClaudeClient, ToolSpec
from grounding.claude_generator import INSUFFICIENT, ClaudeGenerator
from grounding.claude_verifier import ClaudeVerifier
from grounding.fake_messages import (
    Cite,
    ErrorReply,
    FakeMessages,
    RawReply,
    Reply,
    Text,
    TextReply,
    ToolReply,
    cited,
    overloaded,
    rate_limited,
    server_error,
    timeouts,
)
from grounding.verify import verify_grounding
from retrieval.resolver import Candidate, ResolverResult
from states.claude_understander import ClaudeUnderstander
from states.frame import Pending, QueryFrame
from states.hybrid import HybridUnderstander
from states.understander import UnderstandingRequest
from tests.unit.claude_kit import (
    ADULT_ORAL,
    ADULT_ORAL_FRAME,
    CHUNKS,
    NAMES,
    QUARANTINED_CHUNK,
    FixedRules,
    adult_oral_answer,
    claude_engine,
    client_for,
    frame_reply,
)

PARACETAMOL_ONLY = ResolverResult(candidates=[Candidate(drug_id="paracetamol", matched="Paracetamol",
                                                        span="paracetamol", score=100)])
TOOL = ToolSpec("record_x", "x", {"type": "object", "properties": {"x": {"type": "integer"}}})


def _request(text: str = "Liều paracetamol uống cho bé 5 tuổi nặng 18 kg?", **kw: object) -> UnderstandingRequest:
    return UnderstandingRequest(text=text, candidates=PARACETAMOL_ONLY, **kw)  # type: ignore[arg-type]


def _generation(**kw: object) -> GenerationRequest:
    fields: dict[str, object] = {"query": "Liều paracetamol uống cho người lớn?", "evidence": CHUNKS[:2],
                                 "section_key": "lieu_luong_cach_dung", "drug_ids": ["paracetamol"]}
    fields.update(kw)
    return GenerationRequest(**fields)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------ understanding


def test_frame_is_parsed_from_the_forced_tool_call_and_validated() -> None:
    fake = FakeMessages([frame_reply(turn_type="dosing_calc", drugs=["paracetamol"], population="pediatric",
                                     age_text="5 tuổi", age_months=60, weight_kg=18, route="oral",
                                     section_key="lieu_luong_cach_dung")])
    understood = ClaudeUnderstander(client_for(fake)).understand(_request(), RequestBudget())

    f = understood.frame
    assert (f.turn_type, f.drugs, f.population, f.age_months, f.weight_kg, f.route) == (
        "dosing_calc", ["paracetamol"], "pediatric", 60, 18, "oral")
    assert f.understood_by == "anthropic"
    assert understood.provider_output is not None and understood.provider_output["weight_kg"] == 18
    sent = fake.requests[0]
    assert sent.forced_tool == "record_query_frame"
    schema = sent.body["tools"][0]["input_schema"]
    assert "understood_by" not in schema["properties"] and "confidence" not in schema["properties"]
    assert "- paracetamol" in sent.user_text  # the candidates are bound in the prompt


def test_understanding_prefix_is_identical_across_turns_so_the_prompt_cache_holds() -> None:
    fake = FakeMessages([frame_reply(turn_type="smalltalk"), frame_reply(turn_type="smalltalk")])
    understander = ClaudeUnderstander(client_for(fake))
    understander.understand(_request("Liều paracetamol?"), RequestBudget())
    understander.understand(UnderstandingRequest(text="Chào bạn", candidates=ResolverResult()), RequestBudget())

    first, second = fake.requests
    assert first.body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert (first.body["tools"], first.body["system"]) == (second.body["tools"], second.body["system"])
    assert first.user_text != second.user_text


def test_drug_id_outside_the_candidates_is_dropped_and_reported() -> None:
    fake = FakeMessages([frame_reply(turn_type="interaction", drugs=["paracetamol", "warfarin"])])
    understood = ClaudeUnderstander(client_for(fake)).understand(_request("paracetamol với warfarin?"),
                                                                 RequestBudget())

    assert understood.frame.drugs == ["paracetamol"]
    assert any("warfarin" in n for n in understood.notes)
    assert understood.provider_output == {"turn_type": "interaction", "drugs": ["paracetamol", "warfarin"]}


def test_schema_violating_frame_is_invalid_output() -> None:
    fake = FakeMessages([frame_reply(turn_type="dose_please", drugs=["paracetamol"])])
    with pytest.raises(ProviderOutputInvalid, match="turn_type"):
        ClaudeUnderstander(client_for(fake)).understand(_request(), RequestBudget())


def test_reply_without_the_tool_call_is_invalid_output() -> None:
    fake = FakeMessages([TextReply(("Tôi nghĩ bạn hỏi về liều.",))])
    with pytest.raises(ProviderOutputInvalid, match="no record_query_frame tool call"):
        ClaudeUnderstander(client_for(fake)).understand(_request(), RequestBudget())


def test_understanding_prompt_carries_only_the_last_twelve_history_lines_and_the_pending_question() -> None:
    fake = FakeMessages([frame_reply(turn_type="dosing_calc", route="oral")])
    history = [f"line {i:02d}" for i in range(20)]
    pending = Pending(reason="ambiguous_route", missing=["route"], quick_replies=["Uống", "Đặt trực tràng"],
                      question="Dùng đường nào?")
    ClaudeUnderstander(client_for(fake)).understand(_request("Uống", history=history, pending=pending),
                                                    RequestBudget())

    prompt = fake.requests[0].user_text
    assert "line 07" not in prompt and "line 08" in prompt and "line 19" in prompt
    assert "Dùng đường nào?" in prompt and "Đặt trực tràng" in prompt


def test_hybrid_skips_the_model_when_rules_are_confident() -> None:
    fake = FakeMessages([frame_reply(**ADULT_ORAL_FRAME)])
    rules = FixedRules(QueryFrame(turn_type="smalltalk", confidence=0.95))
    hybrid = HybridUnderstander(rules, ClaudeUnderstander(client_for(fake)), min_confidence=0.8)

    understood = hybrid.understand(_request("Xin chào"), RequestBudget())

    assert understood.frame.understood_by == "rules" and understood.frame.turn_type == "smalltalk"
    assert fake.requests == []


def test_hybrid_asks_the_model_when_rules_are_unsure_and_says_so() -> None:
    fake = FakeMessages([frame_reply(**ADULT_ORAL_FRAME)])
    rules = FixedRules(QueryFrame(turn_type="drug_overview", confidence=0.4))
    hybrid = HybridUnderstander(rules, ClaudeUnderstander(client_for(fake)), min_confidence=0.8)

    understood = hybrid.understand(_request("paracetamol uống cho người lớn thế nào"), RequestBudget())

    assert understood.frame.understood_by == "anthropic" and understood.frame.route == "oral"
    assert len(fake.requests) == 1
    assert any("rules confidence 0.40" in n for n in understood.notes)


def test_hybrid_reads_the_answer_to_the_pending_question_without_the_model() -> None:
    """"18 kg" after "Bé 5 tuổi, nặng bao nhiêu kg?": the extractors' value is all the gates may read (provenance),
    so no understanding call is paid for it; a chip the reply offered is read the same way."""
    fake = FakeMessages([frame_reply(**ADULT_ORAL_FRAME)])
    weight = FixedRules(QueryFrame(turn_type="dosing_calc", weight_kg=18.0, confidence=0.6))
    asked_weight = Pending(reason="missing_pediatric_age_or_weight", missing=["weight"])
    understood = HybridUnderstander(weight, ClaudeUnderstander(client_for(fake)), min_confidence=0.8).understand(
        _request("18 kg", pending=asked_weight), RequestBudget())
    assert understood.frame.understood_by == "rules" and understood.frame.weight_kg == 18.0
    chip = FixedRules(QueryFrame(turn_type="condition_to_drug", condition="Động kinh", confidence=0.6))
    asked_indication = Pending(reason="ambiguous_indication", missing=["condition"],
                               quick_replies=["Động kinh", "Đau dây thần kinh sinh ba"])
    understood = HybridUnderstander(chip, ClaudeUnderstander(client_for(fake)), min_confidence=0.8).understand(
        _request("Động kinh", pending=asked_indication), RequestBudget())
    assert understood.frame.understood_by == "rules"
    assert fake.requests == []


def test_hybrid_still_asks_the_model_when_the_turn_answers_nothing_asked() -> None:
    """The same low-confidence frame with no pending question, or naming a new drug, is the model's to read."""
    fake = FakeMessages([frame_reply(**ADULT_ORAL_FRAME), frame_reply(**ADULT_ORAL_FRAME)])
    asked_weight = Pending(reason="missing_pediatric_age_or_weight", missing=["weight"])
    for frame, pending in ((QueryFrame(turn_type="dosing_calc", weight_kg=18.0, confidence=0.6), None),
                           (QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], age_months=60.0,
                                       confidence=0.6), asked_weight)):
        hybrid = HybridUnderstander(FixedRules(frame), ClaudeUnderstander(client_for(fake)), min_confidence=0.8)
        assert hybrid.understand(_request("18 kg", pending=pending), RequestBudget()).frame.understood_by \
            == "anthropic"
    assert len(fake.requests) == 2


# --------------------------------------------------------------------------------------- generation


def test_generation_maps_citations_to_claims_that_pass_grounding() -> None:
    fake = FakeMessages([adult_oral_answer()])
    request = _generation()
    answer = ClaudeGenerator(client_for(fake)).generate(request, RequestBudget())

    assert [c.citations for c in answer.claims] == [[ADULT_ORAL]]
    assert answer.claims[0].quotes == ["Uống – Người lớn: 500 mg – 1 g mỗi 4–6 giờ."]
    assert verify_grounding(answer, request.evidence).ok
    results = fake.requests[0].search_results
    assert [r["source"] for r in results] == [ADULT_ORAL, "paracetamol__lieu_luong_cach_dung__1"]
    assert all(r["citations"] == {"enabled": True} for r in results)
    # One sentence per text block: the citable unit is the sentence.
    assert [b["text"] for b in results[0]["content"]] == ["Uống – Người lớn: 500 mg – 1 g mỗi 4–6 giờ.",
                                                          "Tối đa 4 g/ngày."]
    assert "Liều lượng và cách dùng" in results[0]["title"] and "PARACETAMOL" in results[0]["title"]


def test_a_sentence_split_at_its_citation_stays_one_claim_and_a_framing_line_is_dropped() -> None:
    fake = FakeMessages([TextReply((
        "Theo Dược thư:\n",
        "Người lớn uống ", cited("500 mg – 1 g", Cite(source=ADULT_ORAL, contains="500 mg")), " mỗi 4–6 giờ; ",
        cited("tối đa 4 g/ngày", Cite(source=ADULT_ORAL, contains="Tối đa")), ".",
    ))])
    request = _generation()
    answer = ClaudeGenerator(client_for(fake)).generate(request, RequestBudget())

    assert [(c.text, c.citations) for c in answer.claims] == [
        ("Người lớn uống 500 mg – 1 g mỗi 4–6 giờ; tối đa 4 g/ngày.", [ADULT_ORAL])]
    assert verify_grounding(answer, request.evidence).ok


def test_answer_without_citations_is_rejected_by_grounding() -> None:
    fake = FakeMessages([TextReply(("Người lớn uống 500 mg – 1 g mỗi 4–6 giờ.",))])
    request = _generation()
    answer = ClaudeGenerator(client_for(fake)).generate(request, RequestBudget())

    result = verify_grounding(answer, request.evidence)
    assert not result.ok and any("cites no block" in p for p in result.problems)


def test_answer_with_a_changed_number_is_rejected_by_grounding() -> None:
    fake = FakeMessages([TextReply((cited("Người lớn uống 750 mg mỗi 4–6 giờ.", Cite(source=ADULT_ORAL,
                                                                                      contains="500 mg")),))])
    request = _generation()
    answer = ClaudeGenerator(client_for(fake)).generate(request, RequestBudget())

    result = verify_grounding(answer, request.evidence)
    assert not result.ok and any("750" in p for p in result.problems)


def test_quarantined_evidence_is_never_sent_to_the_model() -> None:
    fake = FakeMessages([adult_oral_answer()])
    ClaudeGenerator(client_for(fake)).generate(_generation(evidence=[*CHUNKS[:2], QUARANTINED_CHUNK]),
                                               RequestBudget())

    assert "BẢNG-HỎNG-XYZ" not in fake.requests[0].sent_text
    assert len(fake.requests[0].search_results) == 2


def test_generation_retries_once_when_the_model_reports_insufficient_evidence_without_a_question() -> None:
    fake = FakeMessages([TextReply((INSUFFICIENT,)), adult_oral_answer()])
    answer = ClaudeGenerator(client_for(fake)).generate(_generation(), RequestBudget())

    assert len(fake.requests) == 2 and answer.claims and not answer.insufficient


def test_generation_does_not_retry_when_the_model_asks_a_question() -> None:
    fake = FakeMessages([TextReply((f"{INSUFFICIENT} Bạn hỏi liều cho người lớn hay trẻ em?",))])
    answer = ClaudeGenerator(client_for(fake)).generate(_generation(), RequestBudget())

    assert len(fake.requests) == 1 and answer.insufficient and not answer.claims


def test_list_mode_binds_the_candidates_in_the_prompt_and_in_each_claim() -> None:
    fake = FakeMessages([TextReply((cited("Paracetamol: điều trị đau nhẹ và vừa.", Cite(source=ADULT_ORAL)),))])
    request = _generation(mode="list", candidate_drug_ids=["paracetamol"], query="Thuốc nào trị đau?")
    answer = ClaudeGenerator(client_for(fake)).generate(request, RequestBudget())

    assert "ONLY these drugs (formulary ids): paracetamol" in fake.requests[0].user_text
    assert answer.claims[0].drug_ids == ["paracetamol"]


def test_repair_asks_for_the_answer_completed_with_the_omissions() -> None:
    fake = FakeMessages([TextReply((
        cited("Người lớn uống 500 mg – 1 g mỗi 4–6 giờ.", Cite(source=ADULT_ORAL, contains="500 mg")),
        cited(" Tối đa 4 g/ngày.", Cite(source=ADULT_ORAL, contains="Tối đa")),
    ))])
    previous = Answer(claims=[Claim(text="Người lớn uống 500 mg – 1 g mỗi 4–6 giờ.", citations=[ADULT_ORAL])])
    repaired = ClaudeGenerator(client_for(fake)).repair(_generation(), previous, ["Tối đa 4 g/ngày."],
                                                        RequestBudget())

    assert "Tối đa 4 g/ngày." in fake.requests[0].user_text
    assert [c.text for c in repaired.claims] == ["Người lớn uống 500 mg – 1 g mỗi 4–6 giờ.", "Tối đa 4 g/ngày."]


# ---------------------------------------------------------------------------------------- entailment


def _claim(text: str, quotes: list[str] | None = None) -> Claim:
    return Claim(text=text, citations=[ADULT_ORAL], quotes=quotes or [])


def test_claims_that_restate_their_cited_spans_need_no_entailment_call() -> None:
    fake = FakeMessages()
    answer = Answer(claims=[_claim("Người lớn uống 500 mg – 1 g mỗi 4–6 giờ.",
                                   ["Uống – Người lớn: 500 mg – 1 g mỗi 4–6 giờ."])])
    result = ClaudeVerifier(client_for(fake)).verify(answer, CHUNKS, RequestBudget())

    assert result.ok and fake.requests == []


def test_a_paraphrase_that_adds_a_negation_is_judged_by_the_model_and_rejected() -> None:
    verdict = {"claims": [{"index": 0, "entailed": False, "reason": "adds 'không'"}], "omissions": []}
    fake = FakeMessages([ToolReply(verdict), ToolReply(verdict)])  # the lone reject is asked once more
    answer = Answer(claims=[_claim("Người lớn không uống 500 mg – 1 g mỗi 4–6 giờ.",
                                   ["Uống – Người lớn: 500 mg – 1 g mỗi 4–6 giờ."])])
    result = ClaudeVerifier(client_for(fake)).verify(answer, CHUNKS, RequestBudget())

    assert not result.ok and result.rejected == [0] and not result.omissions
    assert len(fake.requests) == 2 and fake.requests[0].forced_tool == "record_entailment"


def test_entailment_keeps_grounded_omissions_and_drops_invented_ones() -> None:
    fake = FakeMessages([ToolReply({"claims": [{"index": 0, "entailed": True}], "omissions": [
        {"statement": "Tối đa 4 g/ngày.", "doc_id": ADULT_ORAL},
        {"statement": "Tối đa 8 g/ngày.", "doc_id": ADULT_ORAL},
        {"statement": "Uống sau ăn.", "doc_id": "ibuprofen__lieu_luong_cach_dung__0"},
    ]})])
    answer = Answer(claims=[_claim("Người lớn dùng 500 mg – 1 g mỗi 4–6 giờ.")])
    result = ClaudeVerifier(client_for(fake)).verify(answer, CHUNKS, RequestBudget())

    assert result.omissions == ["Tối đa 4 g/ngày."] and not result.ok
    assert len([p for p in result.problems if p.startswith("omission dropped")]) == 2


def test_a_claim_left_without_a_verdict_fails_closed() -> None:
    fake = FakeMessages([ToolReply({"claims": [], "omissions": []})])
    answer = Answer(claims=[_claim("Người lớn dùng 500 mg – 1 g mỗi 4–6 giờ.")])
    with pytest.raises(ProviderOutputInvalid, match="expected \\[0\\]"):
        ClaudeVerifier(client_for(fake)).verify(answer, CHUNKS, RequestBudget())


# ------------------------------------------------------------------------------- errors and budget


@pytest.mark.parametrize(
    ("script", "error", "attempts"),
    [
        (timeouts(), ProviderUnavailable, 2),
        (rate_limited(), ProviderUnavailable, 2),
        (overloaded(), ProviderUnavailable, 2),
        (server_error(), ProviderUnavailable, 2),
        ([ErrorReply(400, "messages: field required")], ProviderRequestRejected, 1),
        ([ErrorReply(401, "invalid x-api-key")], ProviderRequestRejected, 1),
        ([RawReply(200, "<html>proxy error</html>")], ProviderOutputInvalid, 1),
        ([RawReply(200, {"unexpected": True})], ProviderOutputInvalid, 1),
        ([ToolReply({"x": 1}, stop_reason="max_tokens")], ProviderOutputInvalid, 1),
    ],
    ids=["timeout", "429", "529", "500", "400", "401", "not-json", "not-a-message", "truncated"],
)
def test_sdk_errors_become_the_projects_errors_after_at_most_two_attempts(
    script: list[Reply], error: type[Exception], attempts: int
) -> None:
    fake = FakeMessages(script)
    budget = RequestBudget()
    with pytest.raises(error):
        client_for(fake).call_tool("understand", "system", [{"role": "user", "content": "hi"}], TOOL, budget)

    assert len(fake.requests) == attempts
    assert [(c.call_site, c.ok) for c in budget.calls] == [("understand", False)]
    assert budget.llm_calls == 1  # one logical call, whatever the SDK retried


def test_one_overload_then_success_is_retried_by_the_sdk_and_counts_as_one_call() -> None:
    fake = FakeMessages([ErrorReply(529, "Overloaded"), ToolReply({"x": 3})])
    budget = RequestBudget()
    assert client_for(fake).call_tool("understand", "s", [{"role": "user", "content": "hi"}], TOOL, budget) == {"x": 3}
    assert len(fake.requests) == 2 and budget.llm_calls == 1 and budget.calls[0].ok


def test_usage_and_latency_are_recorded_in_the_budget() -> None:
    fake = FakeMessages([ToolReply({"x": 1}, usage={"input_tokens": 120, "output_tokens": 9,
                                                   "cache_read_input_tokens": 900})])
    budget = RequestBudget()
    client_for(fake).call_tool("understand", "s", [{"role": "user", "content": "hi"}], TOOL, budget)

    call = budget.calls[0]
    assert call.usage == {"input_tokens": 120, "output_tokens": 9, "cache_read_input_tokens": 900}
    assert call.duration_ms >= 0 and call.error is None


def test_the_ninth_call_of_a_turn_is_never_sent() -> None:
    fake = FakeMessages(fallback=lambda request: ToolReply({"x": 1}))
    client, budget = client_for(fake), RequestBudget()
    for _ in range(8):
        client.call_tool("entail", "s", [{"role": "user", "content": "hi"}], TOOL, budget)
    with pytest.raises(RequestBudgetExhausted, match="8 of 8"):
        client.call_tool("entail", "s", [{"role": "user", "content": "hi"}], TOOL, budget)
    assert len(fake.requests) == 8


def test_from_settings_applies_the_read_timeout_and_two_attempts() -> None:
    client = ClaudeClient.from_settings(api_key="k", base_url="http://127.0.0.1:9", model="m", max_tokens=64,
                                        read_timeout_s=20.0, max_attempts=2)
    sdk = client._client
    assert sdk.max_retries == 1
    assert sdk.timeout.read == 20.0  # type: ignore[union-attr]


# ----------------------------------------------------------------------------------- engine, in process


def test_engine_answers_a_dosing_turn_through_claude_with_the_cited_sentence() -> None:
    fake = FakeMessages([frame_reply(**ADULT_ORAL_FRAME), adult_oral_answer()])
    reply = claude_engine(client_for(fake)).handle("Liều paracetamol uống cho người lớn?")

    assert reply.outcome == "answerable", reply.trace.notes
    assert [c.doc_id for c in reply.citations] == [ADULT_ORAL]
    assert "500 mg – 1 g mỗi 4–6 giờ" in reply.reply
    # understand + generate; entailment skipped because the claim restates its cited sentence.
    assert [c.call_site for c in reply.trace.llm_calls] == ["understand", "generate"]
    assert reply.trace.understood_by == "anthropic"
    assert {o.site for o in reply.trace.provider_outputs} >= {"understand", "generate"}


@pytest.mark.parametrize("outage", [timeouts(), rate_limited(), overloaded(), server_error()],
                         ids=["timeout", "429", "529", "500"])
def test_provider_outage_during_generation_abstains_within_budget(outage: list[Reply]) -> None:
    fake = FakeMessages([frame_reply(**ADULT_ORAL_FRAME), *outage])
    reply = claude_engine(client_for(fake)).handle("Liều paracetamol uống cho người lớn?")

    assert (reply.outcome, reply.reason) == ("abstain", "generation_unavailable")
    assert reply.citations == [] and "500 mg" not in reply.reply
    assert [(c.call_site, c.ok) for c in reply.trace.llm_calls] == [("understand", True), ("generate", False)]
    assert len(fake.requests) == 3


@pytest.mark.parametrize("outage", [timeouts(), rate_limited(), overloaded(), server_error()],
                         ids=["timeout", "429", "529", "500"])
def test_provider_outage_during_understanding_abstains_as_a_system_error(outage: list[Reply]) -> None:
    fake = FakeMessages(outage)
    reply = claude_engine(client_for(fake)).handle("Liều paracetamol uống cho người lớn?")

    assert (reply.outcome, reply.reason) == ("abstain", "system_error")
    assert len(fake.requests) == 2


def test_a_turn_that_would_need_one_call_more_than_its_budget_abstains_before_sending_it() -> None:
    fake = FakeMessages([frame_reply(**ADULT_ORAL_FRAME), TextReply((INSUFFICIENT,)), adult_oral_answer()])
    engine = claude_engine(client_for(fake), spec=build_spec(max_calls=2))
    reply = engine.handle("Liều paracetamol uống cho người lớn?")

    assert (reply.outcome, reply.reason) == ("abstain", "budget_exhausted")
    assert len(fake.requests) == 2  # the generation retry (3rd call) was never sent


def test_hybrid_engine_answers_with_no_understanding_call_when_rules_are_confident() -> None:
    fake = FakeMessages([adult_oral_answer()])
    client = client_for(fake)
    rules = FixedRules(QueryFrame(confidence=0.9, **ADULT_ORAL_FRAME))  # type: ignore[arg-type]
    engine = claude_engine(client, understander=HybridUnderstander(rules, ClaudeUnderstander(client), 0.8))
    reply = engine.handle("Liều paracetamol uống cho người lớn?")

    assert reply.outcome == "answerable" and reply.trace.understood_by == "rules"
    assert [c.call_site for c in reply.trace.llm_calls] == ["generate"]


# ------------------------------------------------------------------------------------- configuration


@pytest.mark.parametrize("mode", [{"answer_provider": "anthropic"}, {"understanding_provider": "hybrid"},
                                  {"understanding_provider": "anthropic"}, {"verifier": "anthropic"}])
def test_a_mode_that_needs_a_key_without_one_fails_at_start_up(
    mode: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ConfigurationError, match="needs ANTHROPIC_API_KEY"):
        load_settings(**mode)


def test_anthropic_modes_wire_the_claude_adapters() -> None:
    from engine.wiring import make_generator, make_verifier

    settings = load_settings(answer_provider="anthropic", verifier="anthropic", anthropic_api_key="k",
                             anthropic_base_url="http://127.0.0.1:9")
    assert isinstance(make_generator(settings), ClaudeGenerator)
    assert isinstance(make_verifier(settings), ClaudeVerifier)


def test_one_runtime_shares_one_claude_client_across_its_providers() -> None:
    from engine.store import MemoryStore
    from engine.wiring import build_engine
    from retrieval.memory_index import MemoryIndex
    from tests.unit.machine_kit import CHUNKS, NAMES

    settings = load_settings(understanding_provider="hybrid", answer_provider="anthropic", verifier="anthropic",
                             anthropic_api_key="k", anthropic_base_url="http://127.0.0.1:9")
    engine = build_engine(settings, index=MemoryIndex(CHUNKS, NAMES), store=MemoryStore()).engine
    clients = {id(engine.understander.claude.client), id(engine.generator.client),  # type: ignore[attr-defined]
               id(engine.verifier.client)}  # type: ignore[attr-defined]
    assert len(clients) == 1  # one connection pool per process, not one per provider


# ------------------------------------------------------------------------------------ bench support


def test_the_fake_applies_a_per_call_latency_through_its_sleep_hook() -> None:
    """The benchmark's simulated latency: a latency per call site, slept through a swappable clock."""
    slept: list[float] = []
    reference = {"record_query_frame": 3.0, None: 2.5, "record_entailment": 1.5}
    fake = FakeMessages([frame_reply(**ADULT_ORAL_FRAME), adult_oral_answer()],
                        latency=lambda request: reference[request.forced_tool], sleep=slept.append)
    claude_engine(client_for(fake)).handle("Liều paracetamol uống cho người lớn?")

    assert slept == [3.0, 2.5]


# ------------------------------------------------------------ list: a drug the book excludes for this patient

FEVER_CHUNKS = [
    Chunk(doc_id="paracetamol__chi_dinh__0", drug_id="paracetamol", section_key="chi_dinh",
          text="Hạ sốt ở người lớn và trẻ em.", page=120, drug_title="PARACETAMOL (Acetaminophen)"),
    Chunk(doc_id="acid_acetylsalicylic__chi_dinh__0", drug_id="acid_acetylsalicylic", section_key="chi_dinh",
          text="Hạ sốt, giảm đau.", page=30, drug_title="ACID ACETYLSALICYLIC (Aspirin)"),
    Chunk(doc_id="acid_acetylsalicylic__chong_chi_dinh__0", drug_id="acid_acetylsalicylic",
          section_key="chong_chi_dinh", page=31, drug_title="ACID ACETYLSALICYLIC (Aspirin)",
          text="Loét dạ dày tiến triển. Trẻ em dưới 16 tuổi, vì nguy cơ hội chứng Reye."),
]
FEVER_NAMES = [*NAMES, DrugNames(drug_id="acid_acetylsalicylic", name="Acid acetylsalicylic", aliases=("aspirin",))]
CHILD_FEVER = QueryFrame(turn_type="condition_to_drug", condition="sốt", population="pediatric", age_months=36,
                         confidence=0.9)
REYE = "Trẻ em dưới 16 tuổi, vì nguy cơ hội chứng Reye."


def _fever_list(*extra: Text) -> TextReply:
    """The model's list: both drugs, each restating its cited indication sentence — and what `extra` adds."""
    return TextReply((cited("Hạ sốt ở người lớn và trẻ em.", Cite(source="paracetamol__chi_dinh__0")),
                      cited("Hạ sốt, giảm đau.", Cite(source="acid_acetylsalicylic__chi_dinh__0")), *extra))


def _child_fever_engine(fake: FakeMessages) -> Engine:
    client = client_for(fake)
    return claude_engine(client, understander=FixedRules(CHILD_FEVER), chunks=FEVER_CHUNKS, names=FEVER_NAMES)


def test_a_model_list_naming_aspirin_for_a_three_year_old_is_repaired_to_quote_its_exclusion() -> None:
    # Safety (#18): the model lists aspirin for a 3-year-old's fever and omits the under-16 exclusion; code finds
    # the omission, the repair call is asked for it, and the reply carries it next to the list.
    fake = FakeMessages([_fever_list(),
                         _fever_list(cited(REYE, Cite(source="acid_acetylsalicylic__chong_chi_dinh__0",
                                                      contains="Reye")))])
    reply = _child_fever_engine(fake).handle("Bé 3 tuổi bị sốt thì dùng thuốc gì?")

    assert reply.outcome == "answerable", reply.trace.notes
    assert "Reye" in reply.reply and "16 tuổi" in reply.reply
    assert [c.call_site for c in reply.trace.llm_calls] == ["generate", "repair"]
    repair_prompt = str(fake.requests[1].body["messages"])
    assert "Reye" in repair_prompt  # the repair step was told what was left out
    assert any("list exclusion: omission" in n for n in reply.trace.notes)


def test_a_model_that_still_omits_the_exclusion_after_repair_makes_the_turn_abstain() -> None:
    fake = FakeMessages([_fever_list(), _fever_list()])
    reply = _child_fever_engine(fake).handle("Bé 3 tuổi bị sốt thì dùng thuốc gì?")

    assert (reply.outcome, reply.reason) == ("abstain", "incomplete_answer"), reply.trace.notes
    assert "giảm đau" not in reply.reply  # the list naming aspirin silently is never shown
