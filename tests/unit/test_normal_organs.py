"""A denied or normal organ is no impairment (issue 17 item 3): "gan thận bình thường", "không suy gan" set no
hepatic or renal context and no condition, so no contraindication for "suy gan nặng" is read from them.
Expectations written before running.
"""

from __future__ import annotations

import pytest

from states.slots import dose_indication, extract_slots


@pytest.mark.parametrize("turn", [
    "bà 68 tuổi gan thận bình thường, thuốc X uống bao nhiêu",
    "ông 70 tuổi, chức năng gan, thận đều tốt, liều thuốc X?",
    "bệnh nhân không suy gan, liều thuốc X?",
    "ông ấy chưa bị suy gan thận gì, liều thuốc X?",
])
def test_a_normal_or_denied_organ_sets_no_impairment_and_no_condition(turn: str) -> None:
    slots = extract_slots(turn)
    assert slots.hepatic is None and slots.renal is None
    indication = dose_indication(turn, ["thuốc X"])
    assert indication is None or "gan" not in indication.lower()


def test_an_impairment_stated_beside_a_denied_one_is_kept() -> None:
    slots = extract_slots("không suy gan nhưng suy thận ClCr 35, liều thuốc X?")
    assert slots.hepatic is None and slots.renal is not None and "35" in slots.renal
