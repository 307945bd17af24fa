"""An index outage during a turn is a clean abstain (index_unavailable) on every retrieval path, never a crash
and never "the formulary has nothing on this"."""

from __future__ import annotations

import pytest

from core.corpus import Chunk
from states.frame import QueryFrame
from states.scripted import ScriptedUnderstander
from tests.unit.machine_kit import make_engine

FRAMES = {
    "single_drug": QueryFrame(turn_type="drug_attribute", drugs=["paracetamol"], section_key="chong_chi_dinh"),
    "interaction": QueryFrame(turn_type="interaction", drugs=["cetirizin", "amlodipin"], section_key="tuong_tac_thuoc"),
    "condition": QueryFrame(turn_type="symptom_to_drug", condition="sốt", condition_relation="indication"),
}


@pytest.mark.parametrize("path", list(FRAMES))
def test_an_index_outage_abstains_with_index_unavailable(path: str) -> None:
    engine = make_engine(ScriptedUnderstander([FRAMES[path]]))
    engine.retrieval.index.available = False  # type: ignore[attr-defined]
    reply = engine.handle("câu hỏi")
    assert (reply.outcome, reply.reason, reply.state) == ("abstain", "index_unavailable", "ready")
    assert "không tra cứu được Dược thư" in reply.reply
    assert "KHÔNG có nghĩa là an toàn" not in reply.reply and reply.citations == []


def test_an_outage_during_the_safety_review_abstains_too() -> None:
    frame = QueryFrame(turn_type="symptom_to_drug", condition="sốt", condition_relation="indication", pregnant=True)
    engine = make_engine(ScriptedUnderstander([frame]))
    index = engine.retrieval.index
    real = index.find_by_section

    def failing(drug_id: str, section_key: str) -> list[Chunk]:
        index.available = False  # type: ignore[attr-defined]
        return real(drug_id, section_key)

    index.find_by_section = failing  # type: ignore[method-assign]
    reply = engine.handle("Phụ nữ mang thai bị sốt dùng thuốc gì?")
    assert (reply.outcome, reply.reason) == ("abstain", "index_unavailable")
    assert "reviewing_safety" in reply.trace.states
