"""Words a parent reads: a thanks is not greeted, a teenager is not "bé", labels never show codes."""

from __future__ import annotations

import pytest

from core.vocabulary import ROUTE_LABELS_VI
from states.clarify import child_word, pediatric_question, question_for
from states.frame import QueryFrame, Route
from states.reason_labels import REASONS, outcome_badge, reason_label
from states.replies import SMALLTALK, THANKS, smalltalk_reply
from tests.unit.formulary_names import fixture_name_book


def test_thanks_in_any_spelling_gets_a_thanks_reply_and_a_greeting_gets_the_greeting() -> None:
    for text in ("cảm ơn nhé", "cam on ban", "Thanks!", "ok cảm ơn bác sĩ"):
        assert smalltalk_reply(text) == THANKS, text
    assert smalltalk_reply("xin chào") == SMALLTALK


def test_a_child_is_be_and_a_teenager_is_chau_by_age_or_by_weight() -> None:
    assert child_word(QueryFrame(age_months=60)) == "bé"
    assert child_word(QueryFrame(age_months=16 * 12)) == "cháu"
    assert child_word(QueryFrame(weight_kg=18)) == "bé"
    assert child_word(QueryFrame(weight_kg=55)) == "cháu"
    question = pediatric_question(QueryFrame(drugs=["paracetamol"], population="pediatric", age_months=16 * 12,
                                             age_text="16 tuổi"), fixture_name_book())
    assert question.text == "Cháu 16 tuổi, vậy cháu cân nặng bao nhiêu kg?"


def test_labels_are_plain_words_and_a_greeting_has_no_badge() -> None:
    assert all("_" not in vi and "_" not in en for vi, en in REASONS.values())
    assert reason_label("a_code_nobody_labelled") == "Chi tiết xem phần kỹ thuật"
    assert outcome_badge("answerable", "smalltalk") == ""
    assert outcome_badge("answerable", "single_drug") == "Có căn cứ trong Dược thư"


def test_every_reason_the_machine_can_decide_has_a_plain_label() -> None:
    from engine.spec import build_spec

    decided = {t.reason for t in build_spec().transitions if t.reason}
    paths = {"single_drug", "interaction", "condition_to_drug", "retrieval_only"}
    assert sorted((decided | paths) - set(REASONS)) == []


def test_an_undocumented_route_with_one_route_in_the_book_offers_that_route_by_name() -> None:
    frame = QueryFrame(turn_type="dosing_calc", drugs=["ibuprofen"], population="adult", route_family="injection")
    q = question_for("route_not_documented", frame, fixture_name_book(), routes_found=["oral"])
    assert "chỉ ghi một đường: Uống" in q.text and "đường uống" in q.text
    assert q.quick_replies == ["Uống"]


@pytest.mark.parametrize(("route", "found", "chips"), [
    ("oral", ["iv", "im"], ["Tiêm/truyền tĩnh mạch", "Tiêm bắp"]),
    ("rectal", ["oral", "rectal"], ["Uống"]),
    ("im", ["oral", "iv", "im"], ["Uống", "Tiêm/truyền tĩnh mạch"]),
])
def test_a_refused_route_is_never_offered_again(route: Route, found: list[str], chips: list[str]) -> None:
    # The reply says the book gives no dose by this route: a quick reply for it would offer that very dose (#18).
    frame = QueryFrame(turn_type="dosing_calc", drugs=["ceftriaxon"], population="adult", route=route)
    q = question_for("route_not_documented", frame, fixture_name_book(), routes_found=found)
    assert q.quick_replies == chips
    assert ROUTE_LABELS_VI[route] not in q.text.split(";", 1)[-1]


def test_routes_the_patient_cannot_take_are_never_offered() -> None:
    frame = QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], population="pediatric", routes_unusable=["oral"])
    q = question_for("ambiguous_route", frame, fixture_name_book(), routes_found=["oral", "rectal", "iv"])
    assert q.quick_replies == ["Đặt trực tràng", "Tiêm/truyền tĩnh mạch"]


def test_when_the_book_doses_only_a_route_the_patient_cannot_take_no_route_is_offered() -> None:
    # "bé nôn, không uống được" for a drug dosed by mouth only: no dose, and no other route invented in its place.
    frame = QueryFrame(turn_type="dosing_calc", drugs=["ibuprofen"], population="pediatric", routes_unusable=["oral"])
    q = question_for("route_not_documented", frame, fixture_name_book(), routes_found=["oral"])
    assert q.quick_replies == [] and "tôi không đưa liều" in q.text and "đường uống" in q.text


def test_one_route_left_is_offered_by_name_not_as_several() -> None:
    frame = QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], population="pediatric", routes_unusable=["oral"])
    q = question_for("ambiguous_route", frame, fixture_name_book(), routes_found=["oral", "rectal"])
    assert q.quick_replies == ["Đặt trực tràng"]
    assert "nhiều đường" not in q.text and "Ngoài đường uống" in q.text
