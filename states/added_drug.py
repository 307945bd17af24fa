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

import re
from collections.abc import Callable, Mapping

from core.text import compiled, fold, normalize
from grounding.answer import NOT_SAFE

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


def unlisted_beside_note(taken: str, added: str, *, dose: bool = True) -> str:
    """The note heading a dose (or whether she may take it, `dose` False) when the patient is on a drug not in the
    book that the asked drug's interaction section names."""
    return (f"{_NOTE_OPENING}{added} trong Dược thư có nêu {taken} (thuốc người bệnh đang dùng; {taken} không có chuyên "
            f"luận riêng trong Dược thư): vui lòng đọc cả mục đó (hỏi \"{added} và {taken} có tương tác không\")."
            + (" Liều dưới đây là liều Dược thư ghi." if dose else ""))


def no_interaction_note(taken: str, added: str) -> str:
    """The note heading the added drug's dose: no interaction stated between the two, not a safety statement."""
    return (f"{_NOTE_OPENING}{taken} và {added} trong Dược thư không nêu tương tác giữa hai thuốc này. "
            f"{NOT_SAFE}")


def dosed_beside(taken: str, added: str, section_texts: Callable[[str], Mapping[str, str]],
                 names_of: Callable[[str], list[str]]) -> bool:
    """The added drug's dosage section names the taken drug or its class (a dose for patients already on it)."""
    text = fold(section_texts(added).get(DOSAGE_SECTION, ""))
    return any(name and name in text for name in (*names_of(taken), *_class_heads(names_of(taken))))


def _class_heads(names: list[str]) -> list[str]:
    """A class named with its subclass ("thuoc loi tieu quai") by its head ("thuoc loi tieu"): a dosage section
    doses "người đang dùng thuốc lợi tiểu" without the subclass (enalapril's 2,5 mg start for a man on furosemide —
    #18 held-out H195 asked both drugs' indications)."""
    return [" ".join(n.split()[:3]) for n in names if n.startswith("thuoc ") and len(n.split()) > 3]


def taken_as_written(taken: str, added: str, section_texts: Callable[[str], Mapping[str, str]],
                     names_of: Callable[[str], list[str]]) -> str | None:
    """The words by which the added drug's dosage section names the taken drug or its class, as the book writes them
    ("thuốc lợi tiểu" for furosemide in captopril's "Người đang dùng thuốc lợi tiểu …: khởi đầu 6,25 mg/lần"); None
    when it names neither. Stated as what the patient takes, they select that line (core.dosage.select
    .co_medication_caps)."""
    written = normalize(section_texts(added).get(DOSAGE_SECTION, ""))
    folded = fold(written)
    for name in _with_broader_classes(names_of(taken)):  # longest first
        # Named as whom a line doses ("người đang dùng thuốc lợi tiểu"), not in passing ("dùng thuốc lợi tiểu quai
        # thay cho thiazid" in a renal note).
        m = compiled(rf"{_USERS_OF}({re.escape(name)})\b").search(folded) if name else None
        if m:
            # normalize() + fold() keep character positions for NFC text.
            return written[m.start(1):m.end(1)] if len(written) == len(folded) else m.group(1)
    return None


def _with_broader_classes(names: list[str]) -> list[str]:
    """The names, then each class phrase's broader classes by its head words: furosemide's "thuốc lợi tiểu quai" is
    also a "thuốc lợi tiểu" (captopril's line for "người đang dùng thuốc lợi tiểu" is its users')."""
    broader = []
    for name in names:
        words = name.split()
        if words[:1] == ["thuoc"]:
            broader += [" ".join(words[:n]) for n in range(len(words) - 1, 2, -1)]
    return [*names, *(b for b in broader if b not in names)]


_USERS_OF = r"\b(?:khi|neu|o nguoi|nguoi|benh nhan) (?:dang )?(?:dung|uong|phoi hop)(?: (?:cung|chung|kem))?(?: voi)? "
"""(Folded.) The opening of a lead-in naming the patients on another drug (core.dosage.select._CO_MEDICATION_CAP)."""


def beside_note(taken: str, added: str, *, dose: bool = True) -> str:
    """The note heading the added drug's dose (or whether she may take it, `dose` False) when the book's interaction
    sections speak of the two."""
    return (f"{_NOTE_OPENING}{taken} và {added} trong Dược thư có nêu việc dùng hai thuốc này cùng nhau: vui lòng "
            f"đọc cả mục đó (hỏi \"{taken} và {added} có tương tác không\")."
            + (" Liều dưới đây là liều Dược thư ghi; dòng dành cho người đang dùng thuốc kia (nếu có) được nêu rõ."
               if dose else ""))
