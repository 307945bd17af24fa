"""A newborn's weight written in grams is read as grams (issue 18: quantities as people write them): "3500 gram"
was read as 3500 kg and rejected as no person's weight, "nặng 3200g" was not read at all."""

from __future__ import annotations

import pytest

from core.text import fold
from states.quantities import read_weight


@pytest.mark.parametrize(("typed", "kg"), [
    ("cân nặng 3500 gram", 3.5),
    ("bé nặng 3200g", 3.2),
    ("nặng 2800 gam", 2.8),
    ("be nang 3100 g", 3.1),
])
def test_grams_are_grams_and_the_conversion_is_echoed(typed: str, kg: float) -> None:
    weight = read_weight(fold(typed))
    assert weight is not None and weight.kg == kg and weight.converted


@pytest.mark.parametrize("typed", ["metronidazol 2000 g liều duy nhất", "amoxicilin 500 g/lần", "uống 1000 g"])
def test_a_bare_g_that_is_not_a_weight_is_not_read_as_one(typed: str) -> None:
    assert read_weight(fold(typed)) is None
