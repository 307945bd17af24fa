"""Numeric grounding's lookup (grounding.verify.quantities_not_in): a quantity is grounded when a cited text states it
with the same unit — a single value may be either end of a stated range, a range only the same range, a bare number
only its own numerals — whichever of several cited texts states it."""

from __future__ import annotations

from grounding.verify import quantities_not_in

ADULT = "Người lớn: 325 - 500 mg mỗi 4 - 6 giờ"


def _ungrounded(text: str, *sources: str) -> list[str]:
    return [q.text for q in quantities_not_in(text, list(sources))]


def test_either_end_of_a_stated_range_is_a_stated_value() -> None:
    assert _ungrounded("Uống 500 mg mỗi lần", ADULT) == []
    assert _ungrounded("Uống 325 mg mỗi lần", ADULT) == []


def test_a_value_inside_a_stated_range_is_not_stated() -> None:
    assert _ungrounded("Uống 400 mg mỗi lần", ADULT) == ["400 mg"]


def test_a_range_is_stated_only_as_the_same_range_in_the_same_unit() -> None:
    assert _ungrounded("Uống 325 - 500 mg", ADULT) == []
    assert _ungrounded("Uống 325 - 400 mg", ADULT) == ["325 - 400 mg"]
    assert _ungrounded("Uống 325 - 500 g", ADULT) == ["325 - 500 g"]


def test_each_quantity_may_be_stated_by_another_cited_text() -> None:
    assert _ungrounded("tối đa 4 g/ngày, 10 - 15 mg/kg", "tối đa 4 g/ngày", "liều 10 - 15 mg/kg") == []
    assert _ungrounded("tối đa 4 g/ngày, 10 - 15 mg/kg", "tối đa 4 g/ngày") == ["10 - 15 mg/kg"]


def test_a_number_is_held_to_the_numerals_written() -> None:
    assert _ungrounded("uống 3 lần", "ngày 3 lần") == []
    assert _ungrounded("uống 7 lần", "ngày 3 lần") == ["7 lan"]
    assert _ungrounded("uống 3 lần", "ngày 3 lần", "tối đa 4 g/ngày") == []


def test_nothing_cited_grounds_nothing() -> None:
    assert _ungrounded("Uống 500 mg") == ["500 mg"]
