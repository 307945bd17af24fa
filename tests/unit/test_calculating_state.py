"""The `calculating` state's guard and step, on the turn context the runner gives them."""

from __future__ import annotations

from core.budget import RequestBudget
from core.corpus import Chunk
from engine.context import TurnContext
from grounding.answer import Answer, Claim
from grounding.verify import verify_grounding
from states.calculating import BODY_SURFACE_NOTICE, calculate, calculation_applies, calculation_lines
from states.frame import QueryFrame
from tests.unit.calculator_kit import dosing_chunks

# SYNTHETIC test text (not from any formulary): a dose per body surface area.
PER_M2 = Chunk(doc_id="thuoc_x__lieu_luong_cach_dung__0", drug_id="thuoc_x", section_key="lieu_luong_cach_dung",
               text="*Truyền tĩnh mạch – Trẻ em:* 100 mg/m²/lần, mỗi 24 giờ; tối đa 200 mg/lần.")


def _ctx(drug: str, evidence: list[Chunk], **frame: object) -> TurnContext:
    ctx = TurnContext(text="", budget=RequestBudget())
    ctx.frame = QueryFrame(turn_type="dosing_calc", drugs=[drug], section_key="lieu_luong_cach_dung",
                           population="pediatric", **frame)  # type: ignore[arg-type]
    ctx.evidence = evidence
    ctx.answer = Answer(claims=[Claim(text=evidence[0].text.splitlines()[0], citations=[evidence[0].doc_id])])
    return ctx


def test_a_dose_per_body_surface_area_is_not_computed_and_the_reply_says_so() -> None:
    ctx = _ctx("thuoc_x", [PER_M2], age_months=60, weight_kg=18, route="iv")
    assert calculation_applies(ctx.frame, ctx.evidence, ctx.answer)
    answer = calculate(ctx, None).values["answer"]  # type: ignore[arg-type]
    assert isinstance(answer, Answer) and answer.calculations == []
    assert BODY_SURFACE_NOTICE in "\n".join(calculation_lines(answer))
    assert verify_grounding(answer, ctx.evidence, weight_kg=18).ok


def test_without_a_weight_the_machine_does_not_enter_the_calculator() -> None:
    ctx = _ctx("paracetamol", dosing_chunks("paracetamol"), age_months=60, route="oral")
    assert not calculation_applies(ctx.frame, ctx.evidence, ctx.answer)


def test_the_step_adds_a_calculation_that_grounding_accepts_only_with_the_frames_weight() -> None:
    ctx = _ctx("paracetamol", dosing_chunks("paracetamol"), age_months=60, weight_kg=18, route="oral")
    assert calculation_applies(ctx.frame, ctx.evidence, ctx.answer)
    answer = calculate(ctx, None).values["answer"]  # type: ignore[arg-type]
    assert isinstance(answer, Answer) and len(answer.calculations) == 1
    assert verify_grounding(answer, ctx.evidence, weight_kg=18).ok
    assert not verify_grounding(answer, ctx.evidence, weight_kg=None).ok  # no derivation path without the weight
    assert not verify_grounding(answer, ctx.evidence, weight_kg=19).ok
