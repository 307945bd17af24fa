"""A bare turn naming an indication ("thủy đậu ạ", "bé bị thủy đậu") picks that indication's dose after a dose answer
that listed each indication's dose (states.next_indication.bare_indication)."""

from __future__ import annotations

import pytest

from states.next_indication import bare_indication

DOSAGE = (
    "Uống – Người lớn: Giảm đau, hạ sốt: 200–400 mg/lần. Chống viêm (viêm khớp dạng thấp): 1 200–1 800 mg/ngày. "
    "Trẻ em: Thủy đậu: 20 mg/kg/lần."
)


@pytest.mark.parametrize("turn", ["thủy đậu ạ", "bé bị thủy đậu", "giảm đau hạ sốt ạ", "bị viêm khớp dạng thấp",
                                  "dạ, thủy đậu"])
def test_a_bare_indication_the_dosage_lines_state_is_picked(turn: str) -> None:
    assert bare_indication(turn, [DOSAGE])


@pytest.mark.parametrize("turn", ["cảm ơn nhé", "bé bị zona", "thủy đậu thì có lây không",
                                  "bé bị thủy đậu có uống được không"])
def test_anything_else_is_not_a_picked_indication(turn: str) -> None:
    assert bare_indication(turn, [DOSAGE]) is None
