"""Whole turns through the machine with the offline grounding layer (extractive generator, lexical verifier)."""

from __future__ import annotations

from collections.abc import Sequence

from core.budget import RequestBudget
from engine.runner import Engine
from grounding.answer import Answer, Claim, GenerationRequest
from grounding.extractive import ExtractiveGenerator
from grounding.lexical import LexicalVerifier
from states.frame import QueryFrame
from states.scripted import ScriptedUnderstander
from tests.unit.machine_kit import make_engine

CHILD_DOSE = QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], section_key="lieu_luong_cach_dung",
                        population="pediatric", age_months=60, weight_kg=18, route="oral")
INTERACTION = QueryFrame(turn_type="interaction", drugs=["ibuprofen", "acid_acetylsalicylic"],
                         section_key="tuong_tac_thuoc")
WITH_TABLE = QueryFrame(turn_type="interaction", drugs=["paracetamol", "warfarin"], section_key="tuong_tac_thuoc")
NO_MENTION = QueryFrame(turn_type="interaction", drugs=["cetirizin", "amlodipin"], section_key="tuong_tac_thuoc")


def _engine(frame: QueryFrame, generator: object | None = None) -> Engine:
    return make_engine(ScriptedUnderstander([frame]), generator=generator or ExtractiveGenerator(),
                       verifier=LexicalVerifier())


def test_a_childs_oral_dose_is_answered_from_the_child_block_only() -> None:
    reply = _engine(CHILD_DOSE).handle("liều paracetamol cho bé 5 tuổi 18 kg uống")
    assert reply.outcome == "answerable"
    assert "240 mg/lần" in reply.reply and "4 g/ngày" not in reply.reply
    assert [c.doc_id for c in reply.citations] == ["paracetamol__lieu_luong_cach_dung__1"]


def test_an_interaction_answer_quotes_the_sentence_naming_the_other_drug_by_its_alias() -> None:
    reply = _engine(INTERACTION).handle("ibuprofen với aspirin có tương tác không")
    assert reply.outcome == "answerable"
    assert "Ibuprofen làm giảm tác dụng chống kết tập tiểu cầu của aspirin." in reply.reply
    assert [c.doc_id for c in reply.citations] == ["ibuprofen__tuong_tac_thuoc__0"]


def test_an_interaction_pool_with_a_quarantined_table_is_flagged_not_answered() -> None:
    reply = _engine(WITH_TABLE).handle("paracetamol với warfarin có tương tác không")
    assert reply.outcome == "verify_pdf"
    assert "| bảng hỏng |" not in reply.reply


def test_an_interaction_with_no_mention_in_either_section_abstains() -> None:
    reply = _engine(NO_MENTION).handle("cetirizin và amlodipin có tương tác không")
    assert reply.outcome == "abstain"
    assert "KHÔNG có nghĩa là an toàn" in reply.reply


class ComputingGenerator:
    """A generator that does arithmetic: 18 kg × 15 mg/kg = 270 mg — a number no block states."""

    name = "computing"
    calls_llm = False

    def generate(self, request: GenerationRequest, budget: RequestBudget) -> Answer:
        return Answer(claims=[Claim(text="Bé 18 kg: 270 mg/lần.", citations=[request.evidence[0].doc_id])])

    def repair(self, request: GenerationRequest, answer: Answer, omissions: Sequence[str],
               budget: RequestBudget) -> Answer:
        return answer


def test_a_computed_dose_makes_the_turn_abstain_as_ungrounded() -> None:
    reply = _engine(CHILD_DOSE, ComputingGenerator()).handle("liều paracetamol cho bé 5 tuổi 18 kg uống")
    assert (reply.outcome, reply.reason) == ("abstain", "ungrounded_answer")
    assert "270" not in reply.reply
