"""Route abbreviations clinicians type (states.route_shorthand, issue #18): TM, TTM, TB, TDD, PO are routes; "TB"
meaning "trung bình" (average, moderate) is not; a bare route word is never a dose question's indication."""

from __future__ import annotations

import pytest

from core.text import fold
from states.route_shorthand import abbreviated_routes
from states.slots import dose_indication, extract_route, extract_slots


@pytest.mark.parametrize(("text", "route"), [
    ("liều ceftriaxon TM cho người lớn", "iv"),
    ("ceftriaxon 1 g TTM", "iv"),
    ("liều ceftriaxon TB cho người lớn", "im"),
    ("ceftriaxon 1g tb", "im"),
    ("tiêm tb ceftriaxon", "im"),
    ("enoxaparin TDD", "sc"),
    ("paracetamol PO người lớn", "oral"),
    ("TM", "iv"),
])
def test_an_abbreviated_route_is_the_route(text: str, route: str) -> None:
    assert extract_slots(text).route == route


@pytest.mark.parametrize("text", [
    "liều trung bình (TB) của ceftriaxon",
    "viêm phổi mức độ TB, ceftriaxon người lớn",
    "nhiễm khuẩn nhẹ-TB",
    "liều TB của ceftriaxon",
    "bệnh TB",
    "ceftriaxon tb cho người lớn",
])
def test_tb_read_as_average_moderate_or_a_disease_is_no_route(text: str) -> None:
    assert "im" not in abbreviated_routes(text)


def test_an_abbreviation_with_the_verb_uong_is_still_that_route() -> None:
    text = "uống hay TM thì tốt hơn"
    assert extract_route(fold(text), text) is None  # a choice between two routes is no route
    assert extract_slots("cho uống ceftriaxon TM được không").route == "iv"


@pytest.mark.parametrize("text", [
    "liều ceftriaxon tĩnh mạch cho người lớn",
    "liều ceftriaxon TM cho người lớn",
    "liều ceftriaxon TDD cho người lớn",
    "ceftriaxon tiêm bắp sâu liều bao nhiêu",
])
def test_a_route_word_is_not_the_indication_of_a_dose_question(text: str) -> None:
    assert dose_indication(text, ["ceftriaxon"]) is None


def test_a_disease_of_the_vein_stays_the_indication() -> None:
    found = dose_indication("liều warfarin điều trị huyết khối tĩnh mạch sâu", ["warfarin"])
    assert found is not None and "tĩnh mạch" in found
