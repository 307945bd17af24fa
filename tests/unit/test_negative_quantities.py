"""A minus sign before an age or a weight makes it no value at all (issue #19, item 10): the machine asks."""

from __future__ import annotations

import pytest

from states.slots import extract_slots


@pytest.mark.parametrize("turn", ["Bé -5 tuổi nặng -18 kg", "bé −5 tuổi, −18 kg", "cháu -18 tháng tuổi nặng -9kg"])
def test_a_negative_age_or_weight_is_not_read_as_the_positive_one(turn: str) -> None:
    slots = extract_slots(turn)
    assert (slots.age_months, slots.weight_kg) == (None, None)
    assert slots.population == "pediatric"  # still a child: the dose question asks for the real age and weight


def test_the_same_turn_without_the_signs_is_read_as_written() -> None:
    slots = extract_slots("Bé 5 tuổi nặng 18 kg")
    assert (slots.age_months, slots.weight_kg) == (60, 18)
