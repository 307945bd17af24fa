"""What a follow-up adds to the patient and the question (issues #17/#18, session 18's held-out misses): a habit is
the patient's, a unit is corrected, a reason for another route is no indication, a risk group's ceiling is theirs,
and two drugs' lines stay under one heading each. Expectations from the fixture text (synthetic, not guidance)."""

from __future__ import annotations

import pytest

from core.dosage.parse import parse_dosage
from core.inr_bands import band_of
from core.text import fold
from core.vocabulary import risk_groups
from grounding.question_focus import focus
from states.quantities import read_weight
from tests.unit.understanding_kit import fixture_engine


@pytest.mark.parametrize("text", ["à nhầm, 44 là ký chứ không phải pound", "44 la ky chu khong phai pound",
                                  "44 là kg, không phải lbs"])
def test_a_unit_said_of_a_number_is_that_unit_and_the_denied_one_is_not_read(text: str) -> None:
    weight = read_weight(fold(text))
    assert weight is not None and weight.kg == 44 and not weight.converted


def test_pounds_still_convert_when_no_unit_is_denied() -> None:
    weight = read_weight(fold("bé nặng 44 pound"))
    assert weight is not None and weight.converted and weight.kg == pytest.approx(20.0)


@pytest.mark.parametrize(("conditions", "in_group"), [(["nghiện rượu"], True), (["suy dinh dưỡng mạn tính"], True),
                                                      (["tăng huyết áp"], False), ([], False)])
def test_the_hepatotoxicity_risk_group_is_who_the_book_puts_in_it(conditions: list[str], in_group: bool) -> None:
    assert bool(risk_groups(conditions)) is in_group


def test_a_semicolon_inside_brackets_does_not_cut_the_sentence() -> None:
    tree = parse_dosage("*Cách dùng:* Khí dung (bình xịt định liều; dung dịch qua máy phun) là đường dùng ưu tiên; "
                        "đường uống chỉ dùng khi không hít được.\n\n*Uống – Người lớn:* 2–4 mg/lần, 3 lần/ngày.")
    texts = [line.text for line in tree.lines]
    assert any("(bình xịt định liều; dung dịch qua máy phun) là đường dùng ưu tiên" in t for t in texts)
    assert not any(t.strip().startswith("dung dịch qua máy phun)") for t in texts)


def _conversation(*turns: str) -> list[str]:
    engine = fixture_engine()
    replies, cid = [], None
    for text in turns:
        reply = engine.handle(text, cid)
        cid = reply.conversation_id
        replies.append(reply.reply)
    return replies


def test_an_alcoholic_on_the_infusion_is_shown_the_risk_groups_ceiling() -> None:
    *_, last = _conversation("chị tôi 30 tuổi 55kg sốt sau mổ, truyền tĩnh mạch paracetamol liều sao",
                             "chị ấy còn nghiện rượu nữa thì sao")
    assert "Người có nguy cơ độc tính trên gan: tối đa 3 g/ngày" in last


def test_two_drugs_lines_come_under_one_heading_each() -> None:
    *_, last = _conversation("bé ba tuổi mười bốn ký bị động kinh, carbamazepin uống bao nhiêu",
                             "bé sốt thì cho uống para chung được không",
                             "mẹ bé đang mang thai 2 tháng cũng bị động kinh, dùng thuốc đó được không")
    headings = [line for line in last.splitlines() if line in ("Carbamazepin:", "Paracetamol:")]
    assert sorted(headings) == ["Carbamazepin:", "Paracetamol:"]


def test_the_synthesized_context_does_not_outweigh_the_users_words_in_the_focus() -> None:
    sentences = ["Quá liều có thể gây hoại tử gan.", "Điều trị quá liều cần theo dõi chức năng gan.",
                 "Xử trí quá liều: rửa dạ dày trong vòng 4 giờ.",
                 "Phải dùng thuốc giải độc càng sớm càng tốt nếu chưa đến 36 giờ kể từ khi uống."]
    question = ("thuốc giải là gì, để muộn quá thì còn dùng được không. Thuốc: paracetamol. "
                "Mục: Quá liều và xử trí. Đối tượng: trẻ em. Đường dùng: uống.")
    first, _ = focus(question, sentences)
    assert first[0] == 3


def test_a_massive_bleed_at_any_inr_is_its_own_band() -> None:
    band = band_of("Nếu có bất cứ chảy máu ồ ạt nào, phải ngừng warfarin và cho tiêm tĩnh mạch chậm phytomenadion.")
    assert band is not None and band.bleeding is True and band.low == 0.0 and band.high == float("inf")
