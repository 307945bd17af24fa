"""The condition a turn describes its patient by, without "bị" (states.patient_description)."""

from __future__ import annotations

import pytest

from states.patient_description import described_conditions


@pytest.mark.parametrize(("turn", "first"), [
    ("Người bệnh glaucom góc đóng uống thuốc X được không?", "glaucom góc đóng"),
    ("Bệnh nhân 45 tuổi nghi blốc nhĩ thất, kê thuốc X có vấn đề gì không?", "blốc nhĩ thất"),
    ("benh nhan dong kinh co dung thuoc X duoc khong", "dong kinh"),
    ("Người hen phế quản nặng dùng X được không?", "hen phế quản nặng"),
])
def test_the_words_after_the_patient_or_nghi_are_the_described_condition(turn: str, first: str) -> None:
    assert described_conditions(turn)[0] == first


def test_shorter_leading_parts_follow_down_to_two_words() -> None:
    assert described_conditions("Người hen phế quản nặng dùng X được không?") == [
        "hen phế quản nặng", "hen phế quản", "hen phế"]


@pytest.mark.parametrize("turn", ["Bệnh nhân 60 tuổi uống X được không?", "Bệnh nhân bị sốt, uống X được không?",
                                  "Người bệnh có dùng X được không?"])
def test_an_age_a_bi_or_a_verb_right_after_the_patient_is_no_described_condition(turn: str) -> None:
    assert described_conditions(turn) == []
