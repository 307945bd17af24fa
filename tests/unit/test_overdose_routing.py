"""Overdose words reach the monograph's "Quá liều và xử trí", and every reply about an overdose opens with "get care
now": a parent whose child swallowed a strip must never be shown the dose lines a "2 lần" or "viên" would pick."""

from __future__ import annotations

import pytest

from retrieval.section_router import route_section
from states.frame import QueryFrame
from states.overdose import GO_TO_CARE, with_overdose_framing
from tests.unit.understanding_kit import fixture_engine, understand


@pytest.mark.parametrize("text", [
    "Bé nhà tôi uống nhầm cả vỉ paracetamol thì sao?",
    "be uong nham ca vi paracetamol",
    "con nuốt hết cả lọ siro ibuprofen rồi",
    "tôi lỡ uống 2 lần ibuprofen trong 1 tiếng",
    "lo uong 2 lan paracetamol roi",
    "lỡ cho bé uống 2 liều amoxicilin",
    "bé lỡ uống gấp đôi",
    "uống 2 lần liền paracetamol có sao không",
    "Ngộ độc digoxin xử trí thế nào?",
    "paracetamol quá liều",
])
def test_overdose_words_route_to_the_overdose_section(text: str) -> None:
    route = route_section(text)
    assert route is not None and route.key == "qua_lieu_xu_tri", route


@pytest.mark.parametrize("text", [
    # "lo" typed with diacritics as "lo" (to worry) is no slip: the dose question it is.
    "Tôi lo uống paracetamol 2 lần một ngày có ít quá không",
    "paracetamol ngày uống mấy lần",
    "amoxicilin uống 2 lần một ngày được không",
])
def test_dose_words_near_the_overdose_shapes_are_not_an_overdose(text: str) -> None:
    route = route_section(text)
    assert route is None or route.key != "qua_lieu_xu_tri", route


def test_an_overdose_with_age_and_weight_is_not_a_dose_question() -> None:
    frame = understand("bé 3 tuổi 14 kg uống nhầm cả lọ ibuprofen")
    assert (frame.turn_type, frame.section_key) == ("drug_attribute", "qua_lieu_xu_tri")


def test_the_go_to_care_line_opens_an_overdose_reply_once_and_no_other() -> None:
    overdose = QueryFrame(turn_type="drug_attribute", section_key="qua_lieu_xu_tri", drugs=["paracetamol"])
    dose = QueryFrame(turn_type="dosing_calc", section_key="lieu_luong_cach_dung", drugs=["paracetamol"])
    once = with_overdose_framing("Theo Dược thư …", overdose)
    assert once.startswith(GO_TO_CARE) and with_overdose_framing(once, overdose) == once
    assert with_overdose_framing("Theo Dược thư …", dose) == "Theo Dược thư …"
    assert not any(ch.isdigit() for ch in GO_TO_CARE)  # framing, never a claim to ground


def test_an_overdose_follow_up_after_a_dose_answer_quotes_no_dose() -> None:
    engine = fixture_engine()
    first = engine.handle("Liều ibuprofen cho bé 5 tuổi 18 kg")
    reply = engine.handle("bé lỡ uống 2 lần liền rồi thì sao", first.conversation_id)
    assert reply.reply.startswith(GO_TO_CARE)
    assert {c.section_key for c in reply.citations} == {"qua_lieu_xu_tri"}


@pytest.mark.parametrize("text", [
    "Bệnh nhân nữ 25 tuổi nặng 50 kg uống 30 viên paracetamol 500 mg cách đây 5 giờ, xử trí thế nào?",
    "bn nữ 20t uống khoảng 20 viên paracetamol 500 cách đây 3 tiếng, xử trí sao",
])
def test_many_tablets_already_taken_is_the_overdose_section(text: str) -> None:
    route = route_section(text)
    assert route is not None and route.key == "qua_lieu_xu_tri"


def test_a_couple_of_tablets_and_when_is_not_an_overdose() -> None:
    route = route_section("bé uống 2 viên paracetamol cách đây 3 giờ, giờ uống tiếp được chưa")
    assert route is None or route.key != "qua_lieu_xu_tri"


def test_an_antidote_named_in_the_question_comes_first_with_its_dose() -> None:
    from grounding.question_focus import focus

    sentences = ["Hoại tử gan là độc tính nặng nhất khi quá liều.",
                 "N-acetylcystein có tác dụng khi uống hoặc tiêm.",
                 "Cho uống N-acetylcystein liều đầu 140 mg/kg, sau đó 70 mg/kg mỗi 4 giờ."]
    first, _ = focus("N-acetylcystein đường uống xử trí quá liều dùng liều thế nào", sentences,
                     subjects=["N-acetylcystein"])
    assert first[:2] == [2, 1]
