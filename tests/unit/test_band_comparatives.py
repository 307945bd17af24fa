"""Band phrases that extend a value up or down in words ("35 kg hoặc hơn", "12 tuổi trở xuống").

Read as the single value, "cân nặng 35 kg hoặc hơn" admitted only a child of exactly 35 kg, so a 14-year-old of
40 kg fell in no band and got the general notes instead of their dose (held-out patient set)."""

from __future__ import annotations

import math

import pytest

from core.dosage.bands import read_band
from core.dosage.model import Bound


@pytest.mark.parametrize(("phrase", "weight"), [
    ("cân nặng 35 kg hoặc hơn", Bound(35.0, math.inf, low_open=False)),
    ("cân nặng 35 kg hoặc nhiều hơn", Bound(35.0, math.inf, low_open=False)),
    ("trẻ từ 35 kg trở lên", Bound(35.0, math.inf, low_open=False)),
    ("cân nặng 35 kg hoặc ít hơn", Bound(0.0, 35.0, high_open=False)),
    ("trẻ 35 kg trở xuống", Bound(0.0, 35.0, high_open=False)),
])
def test_a_value_extended_in_words_is_a_half_line(phrase: str, weight: Bound) -> None:
    assert read_band(phrase).band.weight_kg == weight


def test_a_bare_value_stays_that_value() -> None:
    bound = read_band("trẻ nặng 35 kg").band.weight_kg
    assert bound is not None and bound.low == bound.high == 35.0
