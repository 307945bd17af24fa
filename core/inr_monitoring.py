"""INR target and monitoring: the question ("INR mục tiêu bao nhiêu", "bao lâu thử INR một lần") and the book's
sentences that state a target INR or how often it is tested.

Such a question asks what the treatment aims at, or how it is watched, not a dose: it is answered from the monograph's
own sentences stating the target or the test schedule, wherever its dosage section states them — never the dose path
(which needs the patient's population and would quote starting doses), and never "what do you want to know?".
A measured INR ("INR đo được 7") is an overdose question and is left to that route (retrieval.section_router).
"""

from __future__ import annotations

import re

from core.dosage.lines import dose_quantities
from core.text import fold_query

_INR = re.compile(r"\binr\b")
_ASKS_TARGET = re.compile(r"\b(muc tieu|dich|ly tuong|nen dat|can dat|phai dat|khuyen cao|bao nhieu la (du|dat|tot))\b")
_ASKS_SCHEDULE = re.compile(r"\b(bao lau|may ngay|bao nhieu ngay|tan suat|khi nao|luc nao|thuong xuyen|"
                            r"dinh ky|may lan|"
                            # "warfarin có cần theo dõi INR không": whether (and so how often) it is tested (#17 H94)
                            r"co can (?:theo doi|kiem tra|xet nghiem|thu)|phai (?:theo doi|kiem tra|xet nghiem))\b")
_STATES_TARGET = re.compile(r"\binr (dich|muc tieu|ly tuong)\b|\btri so dich\b")
_STATES_SCHEDULE = re.compile(r"\b(cach nhau \d+|cach \d+|trong vong \d+|\d+ ngay sau|khoang cach (xa dan|giua hai)|"
                              r"moi \d+ (ngay|tuan|thang)|hang ngay hoac cach ngay)\b")
_TESTED = re.compile(r"\b(inr|kiem tra|xet nghiem)\b")


def asks_inr_target(text: str) -> bool:
    """The turn asks the target INR ("INR mục tiêu bao nhiêu", "INR cần đạt")."""
    folded = fold_query(text)
    return _INR.search(folded) is not None and _ASKS_TARGET.search(folded) is not None


def asks_inr_schedule(text: str) -> bool:
    """The turn asks how often the INR is tested ("bao lâu thử INR một lần", "mấy ngày xét nghiệm INR")."""
    folded = fold_query(text)
    return _INR.search(folded) is not None and _ASKS_SCHEDULE.search(folded) is not None


def asks_inr_monitoring(text: str) -> bool:
    return asks_inr_target(text) or asks_inr_schedule(text)


def states_inr_target(sentence: str) -> bool:
    """A sentence of the book stating the target INR ("INR đích cần tìm là …") — not one about the interval between
    tests once it is reached."""
    folded = fold_query(sentence)
    return _STATES_TARGET.search(folded) is not None and _STATES_SCHEDULE.search(folded) is None


def states_inr_schedule(sentence: str) -> bool:
    """A sentence of the book stating when the INR is tested ("Các kiểm tra sau phải thực hiện cách nhau …")."""
    folded = fold_query(sentence)
    return _TESTED.search(folded) is not None and _STATES_SCHEDULE.search(folded) is not None


def states_asked(question: str, sentence: str) -> bool:
    """The sentence answers the INR question asked: its target, its schedule, or either when both are asked."""
    return (asks_inr_target(question) and states_inr_target(sentence)) or (
        asks_inr_schedule(question) and states_inr_schedule(sentence))


def inr_monitoring_sentence(question: str, sentence: str) -> bool:
    """A target-INR or INR-schedule question may be answered with the book's sentence stating it, numbers and all:
    its numbers are an INR value or a time between tests, never an amount of drug (grounding.verify.check_free_form
    refuses every other number of the dosage section in a free-form answer). A sentence carrying a dose quantity is
    not one: it may be one band's dose."""
    return states_asked(question, sentence) and not dose_quantities(sentence)
