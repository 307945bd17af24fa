"""Whether a dose changes for the kidneys or the liver: the question, and the lines that answer it (#18 held-out H57)."""

from __future__ import annotations

import pytest

from core.organ_adjustment import asks_organ_adjustment
from tests.unit.understanding_kit import fixture_engine


@pytest.mark.parametrize(("text", "organ"), [
    ("thế ông uống omeprazol thì có phải giảm liều vì thận không", "renal"),
    ("pantoprazol suy thận có cần chỉnh liều không", "renal"),
    ("người suy gan có cần giảm liều không", "hepatic"),
    ("giảm liều xuống bao nhiêu khi suy thận", None),   # an amount asked: the dose path
    ("bé suy thận uống paracetamol liều bao nhiêu", None),
    ("có cần giảm liều không", None),                  # no organ named
])
def test_the_question_names_the_organ_and_asks_no_amount(text: str, organ: str | None) -> None:
    assert asks_organ_adjustment(text) == organ


def test_an_adult_asking_about_the_kidneys_gets_the_renal_line_not_which_indication() -> None:
    # Fixture omeprazol: "*Suy thận:* Không cần điều chỉnh liều." beside doses split by seven indications.
    reply = fixture_engine().handle("người lớn uống omeprazol có phải giảm liều vì thận không", None)
    assert reply.outcome == "answerable"
    assert "Suy thận: Không cần điều chỉnh liều." in reply.reply and "chỉ định nào" not in reply.reply


def test_a_known_value_shows_its_own_band_only() -> None:
    # Fixture metformin: eGFR 45–59 / 30–44 / under 30 — an adult at 38 is in the 30–44 band.
    reply = fixture_engine().handle("người lớn eGFR 38 uống metformin có cần giảm liều không", None)
    assert reply.outcome == "answerable"
    assert "eGFR 30–44" in reply.reply and "2 000 mg" not in reply.reply and "eGFR 45–59" not in reply.reply


def test_no_line_for_the_organ_is_said_as_such_never_as_safe() -> None:
    # Fixture loperamid writes "*Suy gan:* Dùng thận trọng; …" and no line for the kidneys.
    liver = fixture_engine().handle("người lớn suy gan uống loperamid có cần chỉnh liều không", None)
    assert liver.outcome == "answerable" and "Suy gan: Dùng thận trọng" in liver.reply
    kidneys = fixture_engine().handle("người lớn suy thận uống loperamid có cần chỉnh liều không", None)
    assert kidneys.outcome == "abstain"
    assert "không ghi dòng chỉnh liều riêng cho người suy thận" in kidneys.reply
    assert "không có nghĩa là dùng liều thông thường là an toàn" in kidneys.reply
