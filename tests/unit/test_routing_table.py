"""Every row of the routing table, in order, with the order-sensitive cases (first match wins)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from core.errors import ProviderUnavailable
from states.frame import QueryFrame
from states.scripted import ScriptedUnderstander
from tests.unit.machine_kit import make_engine

DOSE: dict[str, Any] = {"turn_type": "dosing_calc", "section_key": "lieu_luong_cach_dung"}


@dataclass
class Row:
    id: str
    frame: QueryFrame | Exception
    outcome: str
    reason: str
    reply_contains: list[str] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)
    quick_replies: list[str] | None = None


ROWS = [
    Row("1-non-human-dosing-abstains-before-asking-population",
        QueryFrame(**DOSE, drugs=["paracetamol"], non_human=True), "abstain", "out_of_scope", ["thú y"]),
    Row("2-dose-without-population", QueryFrame(**DOSE, drugs=["paracetamol"]), "clarify", "missing_population",
        ["người lớn hay trẻ em"], quick_replies=["Người lớn", "Trẻ em"]),
    Row("3-pediatric-weight-known-asks-only-age",
        QueryFrame(**DOSE, drugs=["paracetamol"], population="pediatric", weight_kg=18),
        "clarify", "missing_pediatric_age_or_weight", ["Bé nặng 18 kg, vậy bé bao nhiêu tuổi?"]),
    Row("3-pediatric-age-known-asks-only-weight",
        QueryFrame(**DOSE, drugs=["paracetamol"], population="pediatric", age_months=60, age_text="5 tuổi"),
        "clarify", "missing_pediatric_age_or_weight", ["Bé 5 tuổi, vậy bé cân nặng bao nhiêu kg?"]),
    Row("4-understanding-failed-is-system-error", ProviderUnavailable("timeout"), "abstain", "system_error"),
    Row("4-understander-asks-to-clarify",
        QueryFrame(turn_type="drug_attribute", drugs=["paracetamol"], section_key="chi_dinh", needs_clarify=True),
        "clarify", "needs_more_info"),
    Row("5-ambiguous-condition", QueryFrame(turn_type="condition_to_drug", condition="đau", condition_ambiguous=True),
        "clarify", "ambiguous_condition"),
    Row("6-reverse-relation-not-indication",
        QueryFrame(turn_type="condition_to_drug", condition="suy gan", condition_relation="contraindication"),
        "abstain", "unsupported_reverse_relation"),
    Row("7-condition-to-drug-lists-drugs-from-matched-indications",
        QueryFrame(turn_type="symptom_to_drug", condition="sốt", condition_relation="indication"),
        "answerable", "condition_to_drug", ["không xếp hạng"],
        cites=["paracetamol__chi_dinh", "ibuprofen__chi_dinh"]),
    Row("8-condition-turn-without-condition", QueryFrame(turn_type="condition_to_drug"), "clarify", "no_condition"),
    Row("8-symptom-turn-without-symptom", QueryFrame(turn_type="symptom_to_drug"), "clarify", "no_indication"),
    Row("9-condition-relation", QueryFrame(turn_type="condition_relation", condition="suy thận"),
        "abstain", "unsupported_reverse_relation"),
    Row("10-attribute-missing", QueryFrame(turn_type="drug_attribute", drugs=["paracetamol"]),
        "clarify", "missing_attribute"),
    Row("11-smalltalk", QueryFrame(turn_type="smalltalk"), "answerable", "smalltalk", ["Xin chào"]),
    Row("12-out-of-scope", QueryFrame(turn_type="out_of_scope"), "abstain", "out_of_scope"),
    Row("13-only-unknown-drugs-named", QueryFrame(turn_type="drug_attribute", unknown_drugs=["oseltamivir"],
                                                  section_key="chi_dinh"),
        "abstain", "drug_not_in_formulary", ["oseltamivir"]),
    Row("14-no-drug", QueryFrame(turn_type="drug_attribute", section_key="chi_dinh"), "clarify", "no_drug"),
    Row("15-interaction-with-quarantined-table-is-verify-pdf",
        QueryFrame(turn_type="interaction", drugs=["warfarin", "acid_acetylsalicylic"], section_key="tuong_tac_thuoc"),
        "verify_pdf", "quarantined_content", ["PDF", "Warfarin"], cites=["warfarin__tuong_tac_thuoc__1"]),
    Row("15-interaction-with-evidence",
        QueryFrame(turn_type="interaction", drugs=["ibuprofen", "acid_acetylsalicylic"], section_key="tuong_tac_thuoc"),
        "answerable", "interaction", ["aspirin"], cites=["ibuprofen__tuong_tac_thuoc__0"]),
    Row("15-interaction-without-evidence-is-never-safe",
        QueryFrame(turn_type="interaction", drugs=["cetirizin", "amlodipin"], section_key="tuong_tac_thuoc"),
        "abstain", "no_interaction_evidence", ["KHÔNG có nghĩa là an toàn khi phối hợp"]),
    Row("16-interaction-with-one-drug-goes-single-drug",
        QueryFrame(turn_type="interaction", drugs=["ibuprofen"], section_key="tuong_tac_thuoc"),
        "answerable", "single_drug", cites=["ibuprofen__tuong_tac_thuoc"]),
    Row("16-single-drug-section", QueryFrame(turn_type="drug_attribute", drugs=["paracetamol"],
                                             section_key="chong_chi_dinh"),
        "answerable", "single_drug", ["Suy gan nặng"], cites=["paracetamol__chong_chi_dinh__0"]),
    Row("16-dose-with-several-routes-asks-route",
        QueryFrame(**DOSE, drugs=["paracetamol"], population="adult"), "clarify", "ambiguous_route",
        quick_replies=["Uống", "Đặt trực tràng"]),
    Row("16-dose-with-a-route-the-formulary-lacks-asks-again",
        QueryFrame(**DOSE, drugs=["ibuprofen"], population="adult", route="rectal"), "clarify", "route_not_documented",
        ["Uống"], quick_replies=["Uống"]),
    Row("16-dose-with-one-route-answers",
        QueryFrame(**DOSE, drugs=["ibuprofen"], population="pediatric", age_months=60, weight_kg=18),
        "answerable", "single_drug", ["20–30 mg/kg/ngày"], cites=["ibuprofen__lieu_luong_cach_dung__0"]),
    Row("7-condition-with-pregnancy-reviews-safety",
        QueryFrame(turn_type="symptom_to_drug", condition="sốt", pregnant=True),
        "answerable", "condition_to_drug", cites=["paracetamol__thoi_ky_mang_thai__0"]),
]


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_routing_row(row: Row) -> None:
    engine = make_engine(ScriptedUnderstander([row.frame]))
    reply = engine.handle("câu hỏi")
    assert (reply.outcome, reply.reason) == (row.outcome, row.reason), reply.reply
    for text in row.reply_contains:
        assert text in reply.reply
    cited = [c.doc_id for c in reply.citations]
    for prefix in row.cites:
        assert any(d.startswith(prefix) for d in cited), cited
    if row.quick_replies is not None:
        assert reply.quick_replies == row.quick_replies
    if reply.outcome in ("abstain", "clarify"):
        assert reply.citations == [] or reply.outcome == "verify_pdf"


def test_routing_rows_are_tried_in_table_order() -> None:
    engine = make_engine(ScriptedUnderstander([QueryFrame(**DOSE, drugs=["paracetamol"], non_human=True)]))
    reply = engine.handle("liều paracetamol cho chó")
    route_guards = [g.guard for g in reply.trace.guards if g.state == "routing"]
    assert route_guards == ["non_human_subject"]  # row 1 matched first; nothing after it was evaluated


def test_states_visited_form_a_path_of_the_declared_machine() -> None:
    engine = make_engine(ScriptedUnderstander([QueryFrame(**DOSE, drugs=["ibuprofen"], population="adult")]))
    reply = engine.handle("liều ibuprofen người lớn")
    edges = {(t.source, t.dest) for t in engine.spec.transitions}
    states = reply.trace.states
    assert states[0] == "ready" and states[-1] == "ready"
    assert all((a, b) in edges for a, b in zip(states, states[1:], strict=False))
