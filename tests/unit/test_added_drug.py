"""A drug added beside one the patient takes: the pair's interaction lines when the book states one, else the added
drug's dose under a not-a-safety-statement note (states.added_drug)."""

from __future__ import annotations

from states.added_drug import carried_note, interaction_stated, no_interaction_note

SECTIONS = {
    "ibuprofen": {"tuong_tac_thuoc": "Aspirin liều thấp: ibuprofen làm mất tác dụng chống kết tập tiểu cầu."},
    "paracetamol": {"tuong_tac_thuoc": "Rượu: tăng độc tính trên gan."},
    "aspirin": {"tuong_tac_thuoc": ""},
}
NAMES = {"ibuprofen": ["ibuprofen"], "paracetamol": ["paracetamol", "acetaminophen"], "aspirin": ["aspirin"]}


def _stated(a: str, b: str) -> bool:
    return interaction_stated(a, b, lambda d: SECTIONS[d], lambda d: NAMES[d])


def test_a_pair_either_book_names_is_stated_whichever_is_taken_first() -> None:
    assert _stated("aspirin", "ibuprofen")
    assert _stated("ibuprofen", "aspirin")


def test_a_pair_neither_book_names_is_not_stated() -> None:
    assert not _stated("ibuprofen", "paracetamol")


def test_the_note_says_it_is_not_a_safety_statement() -> None:
    note = no_interaction_note("Ibuprofen", "Paracetamol")
    assert "Ibuprofen" in note and "Paracetamol" in note
    assert "KHÔNG có nghĩa là an toàn" in note


def test_only_the_no_interaction_note_is_carried_to_the_completed_dose() -> None:
    note = no_interaction_note("Ibuprofen", "Paracetamol")
    assert carried_note([note, "Đã đổi đơn vị: 40 lbs ≈ 18,1 kg."]) == [note]
