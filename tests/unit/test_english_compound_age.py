"""An English age in two parts is one age (states.english.english_patient): "2 years 6 months" and "2 and a half
years old" are 30 months, not two people's ages (then none was taken and the age was asked again)."""

from __future__ import annotations

import pytest

from states.english import english_patient


@pytest.mark.parametrize("text", ["dose for a child 2 years 6 months 13 kg", "my son is 2 years and 6 months old",
                                  "a 2 and a half years old child", "she is 2 years and a half",
                                  "a 2-year 6-month old baby"])
def test_an_age_in_two_parts_is_thirty_months(text: str) -> None:
    patient = english_patient(text)
    assert patient["age_months"] == 30
    assert patient["population"] == "pediatric"


def test_months_of_twelve_or_more_are_not_read_as_part_of_an_age() -> None:
    assert english_patient("a child 2 years 14 months").get("age_months") is None


def test_two_people_ages_still_take_neither() -> None:
    assert english_patient("i am 30 and my son is 2 years 6 months").get("age_months") is None
