"""A dose question asked without a dose word: "ibuprofen cho con", "cho em hỏi ibuprofen cho bé uống",
"metronidazol uống cho con bị giardia", "ciprofloxacin uống cho người lớn nhiễm khuẩn tiết niệu".

A drug, the person it is for, perhaps how it is taken and what for — and nothing else — asks how much to give. Read
otherwise it got the drug's overview, its indications (the indication words matched them) or, through "cho con", the
breastfeeding section. As a dose question a child's age and weight are asked first (the dose gates), and an adult's
dose is the book's line for that route and indication.

Only when every word left is a word of the drug's dosage or indications section (an indication of the book): a turn
whose other words ask something else ("… cho bé ngủ ngon", "… cho bé có sao không") is not read as a dose.
"""

from __future__ import annotations

import re

from core.text import fold, normalize
from states.person import Person
from states.slots import Slots, dose_indication

_WORD = re.compile(r"[^\W\d_]+")
# Words around a question that ask nothing ("mình hỏi chút", "giúp em với", "nhé"), folded.
_ASK_NOTHING = frozenset({"chut", "xiu", "giup", "voi", "nhe", "nha", "a", "oi", "hoi", "nho", "dum", "ho", "minh",
                          "em", "toi", "tui", "ban", "can", "muon"})


# "… có đắng không", "… buồn ngủ không", "… chưa", "… hả": the turn asks yes or no (folded).
_YES_NO = re.compile(r"\b(?:khong|ko|hong|chua|ha|nhi)\s*[?.!]*\s*$")


def _words(text: str, *, folded: bool) -> set[str]:
    text = fold(text) if folded else normalize(text).lower()
    return set(_WORD.findall(text))


def unsaid_dose(text: str, names: list[str], slots: Slots, person: Person | None, book_text: str) -> bool:
    """Whether the turn (one drug named, no section asked) asks the dose for the person it names.

    A child is enough ("ibuprofen cho con": the age and weight are asked next); an adult needs the route too
    ("… uống cho người lớn …"): "ibuprofen cho người lớn" alone may ask whether adults take it at all."""
    if _YES_NO.search(fold(normalize(text))):
        return False  # "cetirizin cho bé uống buồn ngủ không": a yes/no question, not how much
    population = slots.population or (person.population if person is not None else None)
    if population is None or (population == "adult" and slots.route is None):
        return False
    left = dose_indication(text, [*names, *([person.label] if person is not None else [])])
    if left is None:
        return True
    typed_plain = normalize(text).isascii()
    asked = {w for w in _words(left, folded=typed_plain) if fold(w) not in _ASK_NOTHING}
    if not asked:
        return True
    return asked <= _words(book_text, folded=typed_plain)
