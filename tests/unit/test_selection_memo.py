"""The remembered dose selection (core.dosage.select.select) is the selection computed afresh, and each caller's
lists are its own: a caller that edits what it got never changes what the next caller gets."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.dosage.select import _select, select
from tests.unit.test_dosage_selection_properties import _trees, patients


@settings(max_examples=60, deadline=None)
@given(st.data(), patients())
def test_remembered_selection_is_the_fresh_one(data: st.DataObject, patient: object) -> None:
    tree = data.draw(st.sampled_from(_trees()))
    first = select(tree, patient)  # type: ignore[arg-type]
    assert first == _select(tree, patient)  # type: ignore[arg-type]
    first.lines.clear()
    first.exclusions.extend(tree.lines[:1])
    again = select(tree, patient)  # type: ignore[arg-type]
    assert again == _select(tree, patient)  # type: ignore[arg-type]
    assert again.lines is not first.lines and again.exclusions is not first.exclusions
