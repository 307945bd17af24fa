"""The condition of a which-drug question is the disease words only, in the book's words (H22 class 5)."""

from __future__ import annotations

import pytest

from states.conditions import condition_stated, find_condition_question


@pytest.mark.parametrize(("text", "condition"), [
    ("em nó 3 tuổi nặng 14 ký đang sốt 39 độ, nên dùng thuốc gì", "sốt"),
    ("anh nó 6 tuổi nặng 20 ký đang sốt 38,5 độ thì dùng thuốc gì", "sốt"),
    ("hay bị ợ chua, trào ngược thì dùng thuốc gì", "ợ chua"),
    ("bị co giật thì dùng thuốc gì", "co giật"),
])
def test_the_condition_is_the_disease_words(text: str, condition: str) -> None:
    assert find_condition_question(text) == condition


@pytest.mark.parametrize("said", ["ợ chua", "trào ngược", "ợ nóng"])
def test_what_people_call_reflux_is_the_books_reflux(said: str) -> None:
    assert condition_stated("Bệnh trào ngược dạ dày – thực quản, bao gồm viêm thực quản.", said)
