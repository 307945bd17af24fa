"""'uống chung với X' after another drug asks the pair, even with no 'nó' (issue #18 item 4)."""

from __future__ import annotations

import pytest

from tests.unit.understanding_kit import merged

FIRST = "Liều simvastatin cho người lớn"


@pytest.mark.parametrize("text", ["uống chung với clarithromycin được không", "dùng cùng với clarithromycin có sao không",
                                  "uong chung voi clarithro duoc ko"])
def test_with_x_after_a_drug_is_the_pair(text: str) -> None:
    frame = merged(text, merged(FIRST, None))
    assert frame.turn_type == "interaction" and frame.drugs == ["simvastatin", "clarithromycin"]


@pytest.mark.parametrize("text", ["clarithromycin tương tác với thuốc gì", "clarithromycin uống cùng với thức ăn được không"])
def test_x_as_the_subject_is_not_paired(text: str) -> None:
    frame = merged(text, merged(FIRST, None))
    assert frame.drugs == ["clarithromycin"]


def test_a_drug_named_first_with_a_class_is_its_own_question() -> None:
    frame = merged("ibuprofen dùng cùng với NSAID khác được không", merged(FIRST, None))
    assert "simvastatin" not in frame.drugs
