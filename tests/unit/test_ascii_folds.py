"""Turns typed without diacritics whose folds are ambiguous (issue 18 item 5): the words around the fold, and the
conversation, decide which word was meant — never the fold alone."""

from __future__ import annotations

import pytest

from states.slots import extract_slots


@pytest.mark.parametrize("typed", [
    "ventolin khi dung qua may phun 5mg cho nguoi lon",
    "cho be xong dung qua may phun duoc khong",
    "dung dich khi dung salbutamol pha the nao",
    "phun suong salbutamol cho tre",
])
def test_a_nebuliser_named_without_diacritics_is_the_inhaled_route(typed: str) -> None:
    assert extract_slots(typed).route == "inhaled"


@pytest.mark.parametrize("typed", [
    "khi dung qua lieu thi xu tri sao",
    "can luu y gi khi dung thuoc nay",
])
def test_khi_dung_as_when_using_names_no_route(typed: str) -> None:
    assert extract_slots(typed).route is None
