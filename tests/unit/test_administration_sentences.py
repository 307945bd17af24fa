"""How a drug is given is answered for everyone (core.sentence_match): which questions ask it, which dosage sentences
with a number may still be quoted for it, and a folded "be" beside "nhai" being a tablet broken, not a child."""

from __future__ import annotations

import pytest

from core.sentence_match import asks_administration, asks_duration, question_terms, usage_sentence
from core.vocabulary import without_terms_folding_to_child


@pytest.mark.parametrize("question", ["Thuốc X truyền tĩnh mạch thì truyền trong bao lâu?", "tiem X may phut",
                                      "tốc độ truyền X", "X pha với dung dịch nào"])
def test_infusion_time_rate_and_dilution_are_administration_questions(question: str) -> None:
    assert asks_administration(question)


@pytest.mark.parametrize("question", ["Liều X truyền tĩnh mạch trong bao lâu?", "truyền X bao nhiêu mg",
                                      "uống X trong bao lâu"])
def test_a_dose_word_or_a_course_length_is_no_administration_question(question: str) -> None:
    assert not asks_administration(question)


def test_only_how_long_questions_ask_a_duration() -> None:
    assert asks_duration("truyền trong bao lâu") and not asks_duration("pha với dung dịch nào")


@pytest.mark.parametrize(("sentence", "quoted"), [
    ("Phải tiêm tĩnh mạch chậm ít nhất 1 giờ để tránh kết tủa.", True),
    ("Truyền tĩnh mạch chậm trong 30 - 60 phút.", True),
    # The strength the infusion is made up to is no dose (as "… không lớn hơn 7 mg/ml"), a range of it neither: the
    # infusion time beside it is the answer (#18 held-out H169 expected "60 phút").
    ("Truyền dung dịch nồng độ 1–2 mg/ml trong ít nhất 60 phút.", True),
    ("500 mg cách 8 giờ/lần.", False),  # a dose and an interval
    ("Tốc độ truyền không quá 10 mg/phút.", False),  # a rate
])
def test_an_administration_question_may_quote_a_time_but_no_amount_interval_or_rate(sentence: str,
                                                                                    quoted: bool) -> None:
    assert usage_sentence(sentence, durations=True) is quoted
    assert not usage_sentence(sentence)  # any other free-form question quotes no number of the dosage section


def test_folded_break_or_chew_is_no_child() -> None:
    assert "be" not in without_terms_folding_to_child("x co be doi hoac nhai duoc khong").split()
    assert "be" not in without_terms_folding_to_child("x nhai hay be duoc khong").split()
    assert "be" in without_terms_folding_to_child("be 3 tuoi nhai duoc khong").split()
    words, _, _ = question_terms("x co be doi hoac nhai duoc khong", ["x"])
    assert "be" in words and "nhai" in words
