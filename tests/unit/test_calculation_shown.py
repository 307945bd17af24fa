"""A calculation is shown only beside its own line (grounding.calculation_shown): the block is headed "theo dòng liều
được trích dẫn", so an answer that does not state the computed line shows no amount."""

from __future__ import annotations

from core.budget import RequestBudget
from engine.context import TurnContext
from grounding.answer import Answer, Claim
from grounding.calculation_shown import shown_with_its_line
from states.calculating import calculate, calculation_lines
from states.frame import QueryFrame
from tests.unit.calculator_kit import dosing_chunks


def _computed(claims: list[str]) -> Answer:
    ctx = TurnContext(text="", budget=RequestBudget())
    ctx.frame = QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], section_key="lieu_luong_cach_dung",
                           population="pediatric", age_months=60, weight_kg=18, route="oral")
    ctx.evidence = dosing_chunks("paracetamol")
    ctx.answer = Answer(claims=[Claim(text=t, citations=[ctx.evidence[0].doc_id]) for t in claims])
    answer = calculate(ctx, None).values["answer"]  # type: ignore[arg-type]
    assert isinstance(answer, Answer) and len(answer.calculations) == 1  # the step computes from the tree
    return answer


def test_the_amount_is_shown_under_the_line_it_was_computed_from() -> None:
    line = _computed(["x"]).calculations[0].derivation.rule_line.text
    answer = _computed([line])
    assert shown_with_its_line(answer).calculations == answer.calculations
    assert any("mg/lần" in text for text in calculation_lines(answer))


def test_an_answer_that_does_not_state_the_line_shows_no_amount() -> None:
    answer = _computed(["Uống với nhiều nước, có thể uống lúc no hoặc lúc đói."])
    assert shown_with_its_line(answer).calculations == []
    assert not any("× 18 kg" in text for text in calculation_lines(answer))


def test_a_model_that_keeps_the_per_kg_figure_in_its_words_states_the_line() -> None:
    line = _computed(["x"]).calculations[0].derivation.rule_line.text
    figure = next(part for part in line.replace(";", ",").split(",") if "mg/kg" in part).strip()
    answer = _computed([f"Bé dùng {figure} theo Dược thư."])
    assert shown_with_its_line(answer).calculations == answer.calculations
