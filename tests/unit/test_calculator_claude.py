"""With Claude generating (the real anthropic SDK against the fake Messages server), only code computes.

A number the model computed in its own text fails numeric grounding (right or wrong, it has no derivation);
the model may only propose operands, and a proposal naming another weight or rule is rejected, never shown;
the amounts shown are computed by code from the cited line and the frame's weight.
"""

from __future__ import annotations

import json

import pytest

from engine.reply import Reply
from grounding.claude_generator import CALCULATION_MARKER
from grounding.fake_messages import Cite, FakeMessages, RecordedRequest, TextReply, ToolReply, cited
from grounding.fake_messages import Reply as FakeReply
from states.frame import QueryFrame
from tests.unit.calculator_kit import monograph_chunks
from tests.unit.claude_kit import FixedRules, claude_engine, client_for

WEIGHT_LINE = "Liều theo cân nặng: 10–15 mg/kg/lần, mỗi 4–6 giờ; tối đa 60 mg/kg/ngày."
FRAME = QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], section_key="lieu_luong_cach_dung",
                   population="pediatric", age_months=60, age_text="5 tuổi", weight_kg=18, route="oral")


def _doc_id() -> str:
    return next(c.doc_id for c in monograph_chunks("paracetamol") if WEIGHT_LINE in c.text)


def _ask(extra: list[object]) -> tuple[Reply, FakeMessages]:
    def respond(request: RecordedRequest) -> FakeReply:
        if request.forced_tool == "record_entailment":
            return ToolReply({"claims": [{"index": 0, "entailed": True}, {"index": 1, "entailed": True}],
                              "omissions": []})
        return TextReply((cited(WEIGHT_LINE, Cite(source=_doc_id(), contains="10–15 mg/kg")), *extra))  # type: ignore[arg-type]

    fake = FakeMessages().push(*[respond] * 6)
    engine = claude_engine(client_for(fake), understander=FixedRules(FRAME), chunks=list(monograph_chunks("paracetamol")))
    return engine.handle("Liều paracetamol uống cho bé 5 tuổi nặng 18 kg?"), fake


def _proposal(**operands: object) -> str:
    return f"\n{CALCULATION_MARKER} {json.dumps(operands, ensure_ascii=False)}"


def test_code_computes_the_amount_beside_the_line_claude_cited() -> None:
    reply, _ = _ask([])
    assert reply.outcome == "answerable", reply.trace.notes
    assert reply.calculation is not None
    assert "10–15 mg/kg × 18 kg = 180–270 mg/lần" in reply.calculation[0].lines[0]
    assert "180–270 mg/lần" in reply.reply
    assert reply.trace.derivations and reply.trace.derivations[0].weight_kg == "18"
    assert "calculating" in reply.trace.states
    cited_line = next(c for c in reply.citations if c.derivation is not None)
    assert cited_line.doc_id == _doc_id()


@pytest.mark.parametrize("computed", ["Với bé 18 kg: 180–300 mg/lần.", "Với bé 18 kg: 180–270 mg/lần."])
def test_a_number_claude_computed_in_its_text_fails_grounding_right_or_wrong(computed: str) -> None:
    reply, _ = _ask([cited(computed, Cite(source=_doc_id(), contains="10–15 mg/kg"))])
    assert (reply.outcome, reply.reason) == ("abstain", "ungrounded_answer")
    assert "180–300" not in reply.reply and reply.calculation is None
    assert any("numeric grounding" in n and "mg/lần" in n for n in reply.trace.notes)


def test_a_proposal_with_matching_operands_is_computed_by_code() -> None:
    reply, _ = _ask([_proposal(doc_id=_doc_id(), rule="10–15 mg/kg/lần", weight_kg=18)])
    assert reply.outcome == "answerable", reply.trace.notes
    assert any(n.startswith("proposed calculation matches") for n in reply.trace.notes)
    assert CALCULATION_MARKER not in reply.reply  # operands are never shown


@pytest.mark.parametrize(("operands", "why"), [
    ({"rule": "10–15 mg/kg/lần", "weight_kg": 20}, "weight 20"),
    ({"rule": "15–20 mg/kg/lần", "weight_kg": 18}, "is not the line's"),
])
def test_a_tampered_proposal_is_rejected_and_the_code_amount_is_shown(operands: dict[str, object], why: str) -> None:
    reply, _ = _ask([_proposal(doc_id=_doc_id(), **operands)])
    assert reply.outcome == "answerable"
    assert any(n.startswith("proposed calculation rejected") and why in n for n in reply.trace.notes)
    assert "180–270 mg/lần" in reply.reply
    assert "200–300" not in reply.reply and "270–360" not in reply.reply


def test_the_calculation_survives_a_completeness_repair_by_claude() -> None:
    """Claude paraphrases the patient's age-band line and leaves out the weight line's maximum; code finds the
    ceiling left out (a dosing answer's completeness is decided from the dosage tree, with no entailment call) and
    the repair call rewrites the answer, and that reply carries no calculation. The amount was computed by code from
    the cited line and the weight, so it stays under the repaired answer and is verified again there."""
    paraphrase = "Bé 4–6 tuổi dùng 240 mg/lần."

    def respond(request: RecordedRequest) -> FakeReply:
        if "left out these statements" in json.dumps(request.body, ensure_ascii=False):
            return TextReply((cited("Trẻ 4–6 tuổi: 240 mg/lần.", Cite(source=_doc_id(), contains="Trẻ 4–6 tuổi")),
                              cited(" " + WEIGHT_LINE, Cite(source=_doc_id(), contains="10–15 mg/kg"))))
        return TextReply((cited(paraphrase, Cite(source=_doc_id(), contains="Trẻ 4–6 tuổi")),))

    fake = FakeMessages().push(*[respond] * 6)
    engine = claude_engine(client_for(fake), understander=FixedRules(FRAME), chunks=list(monograph_chunks("paracetamol")))
    reply = engine.handle("Liều paracetamol uống cho bé 5 tuổi nặng 18 kg?")
    assert "repairing" in reply.trace.states, reply.trace.notes
    assert any("dosing binding: omission" in n for n in reply.trace.notes), reply.trace.notes
    assert reply.outcome == "answerable", reply.trace.notes
    assert "tối đa 60 mg/kg/ngày" in reply.reply
    assert reply.calculation is not None and "180–270 mg/lần" in reply.calculation[0].lines[0]
    assert "180–270 mg/lần" in reply.reply
    assert not any(r.forced_tool == "record_entailment" for r in fake.requests)


def test_claude_quoting_the_adult_line_word_for_word_for_a_child_is_not_answered() -> None:
    """Issue #19.2 through the whole machine: a verbatim quote needs no entailment call, so only the dosing binding
    stands between the adult line and an 18 kg five-year-old — the turn must not be answered with it."""
    adult = "Uống – Người lớn: 500 mg – 1 g/lần, mỗi 4–6 giờ nếu cần; tối đa 4 g/ngày."
    adult_doc = next(c.doc_id for c in monograph_chunks("paracetamol") if "*Uống – Người lớn:*" in c.text)

    def respond(request: RecordedRequest) -> FakeReply:
        if request.forced_tool == "record_entailment":
            return ToolReply({"claims": [{"index": 0, "entailed": True}], "omissions": []})
        return TextReply((cited(adult, Cite(source=adult_doc, contains="500 mg – 1 g/lần")),))

    fake = FakeMessages().push(*[respond] * 6)
    engine = claude_engine(client_for(fake), understander=FixedRules(FRAME), chunks=list(monograph_chunks("paracetamol")))
    reply = engine.handle("Liều paracetamol uống cho bé 5 tuổi nặng 18 kg?")
    assert reply.outcome != "answerable", reply.reply
    assert "500 mg – 1 g/lần" not in reply.reply
    assert any("dosing binding: not bound" in n for n in reply.trace.notes), reply.trace.notes


def test_a_verbatim_answer_that_leaves_out_the_ceiling_is_repaired_not_answered_without_it() -> None:
    """Code finds the omitted maximum from the dosage structure (no entailment call for a verbatim quote); the
    machine asks Claude to add it once, and answers only when the ceiling is there."""
    band = "Trẻ 4–6 tuổi: 240 mg/lần."

    def respond(request: RecordedRequest) -> FakeReply:
        if request.forced_tool == "record_entailment":
            return ToolReply({"claims": [{"index": 0, "entailed": True}], "omissions": []})
        first = (cited(band, Cite(source=_doc_id(), contains="240 mg/lần")),)
        if "left out these statements" in json.dumps(request.body, ensure_ascii=False):
            return TextReply((*first, cited(WEIGHT_LINE, Cite(source=_doc_id(), contains="10–15 mg/kg"))))
        return TextReply(first)

    fake = FakeMessages().push(*[respond] * 6)
    engine = claude_engine(client_for(fake), understander=FixedRules(FRAME), chunks=list(monograph_chunks("paracetamol")))
    reply = engine.handle("Liều paracetamol uống cho bé 5 tuổi nặng 18 kg?")
    assert "repairing" in reply.trace.states, reply.trace.notes
    assert any("dosing binding: omission" in n for n in reply.trace.notes)
    assert reply.outcome == "answerable", reply.trace.notes
    assert "240 mg/lần" in reply.reply and "tối đa 60 mg/kg/ngày" in reply.reply
