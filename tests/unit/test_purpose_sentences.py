"""Aspirin-shaped doses chosen at sentence level (issue 17): the antiplatelet line gives a long-term dose and an acute
loading dose in two sentences, each opening with its case; an antiplatelet question never gets the analgesic line,
an analgesic question never the antiplatelet doses. A synthetic section in the book's shape (own sentences, own
numbers)."""

from __future__ import annotations

import pytest

from core.dosage.model import Patient
from core.dosage.parse import parse_dosage
from core.dosage.purpose_sentences import purpose_sentences
from core.dosage.select import select
from states.slots import dose_indication

SECTION = (
    "Người lớn Giảm đau/giảm sốt: Uống 400 - 800 mg, cách 4 - 6 giờ nếu cần, tối đa là 3 g/ngày. "
    "Chống viêm (viêm khớp dạng thấp): Trong trường hợp viêm cấp dùng 3 - 6 g/ngày, chia nhiều lần. "
    "Ức chế kết tập tiểu cầu: Trong trường hợp dự phòng dài hạn biến chứng tim mạch ở người nguy cơ cao, dùng liều "
    "80 - 160 mg/ngày. Trong trường hợp cấp tính, dùng ngay trong phác đồ ban đầu như nhồi máu cơ tim, nhồi máu não, "
    "cơn đau thắt ngực không ổn định, dùng liều nạp 200 - 400 mg."
)
LONG_TERM, LOADING, ANALGESIC, ANTI_INFLAMMATORY = "80 - 160 mg/ngày", "200 - 400 mg", "400 - 800 mg", "3 - 6 g"


def _shown(indication: str) -> str:
    tree = parse_dosage(SECTION)
    return " ".join(line.text for line in select(tree, Patient(population="adult", indication=indication)).lines)


@pytest.mark.parametrize(("indication", "shown", "hidden"), [
    ("dự phòng biến chứng tim mạch dài hạn", [LONG_TERM], [LOADING, ANALGESIC]),
    ("để phòng nhồi máu cơ tim", [LONG_TERM], [LOADING, ANALGESIC]),
    ("nhồi máu cơ tim cấp", [LOADING], [LONG_TERM, ANALGESIC]),
    ("đau thắt ngực không ổn định", [LOADING], [LONG_TERM, ANALGESIC]),
    ("chống kết tập tiểu cầu", [LONG_TERM, LOADING], [ANALGESIC, ANTI_INFLAMMATORY]),
    ("chống ngưng tập tiểu cầu", [LONG_TERM, LOADING], [ANALGESIC, ANTI_INFLAMMATORY]),
    ("đau đầu", [ANALGESIC], [LONG_TERM, LOADING, ANTI_INFLAMMATORY]),
    ("hạ sốt", [ANALGESIC], [LONG_TERM, LOADING, ANTI_INFLAMMATORY]),
    ("viêm khớp dạng thấp", [ANTI_INFLAMMATORY], [ANALGESIC, LONG_TERM, LOADING]),
])
def test_each_aspirin_question_gets_its_own_indications_sentence_and_nothing_of_another(
        indication: str, shown: list[str], hidden: list[str]) -> None:
    text = _shown(indication)
    assert all(s in text for s in shown), text
    assert not any(h in text for h in hidden), text


def test_a_sentence_kept_is_an_exact_span_of_the_section_with_its_own_ceilings() -> None:
    tree = parse_dosage(SECTION)
    line = next(line for line in tree.lines if LONG_TERM in line.text)
    (part,) = purpose_sentences(line, "nhồi máu cơ tim")
    assert SECTION[part.start:part.end] == part.text
    assert part.text.startswith("Trong trường hợp cấp tính") and LONG_TERM not in part.text
    assert part.path == line.path


def test_a_line_whose_sentences_do_not_open_with_their_case_is_kept_whole() -> None:
    line = next(line for line in parse_dosage(SECTION).lines if ANALGESIC in line.text)
    assert purpose_sentences(line, "đau") == [line]


def test_a_low_dose_says_how_much_not_what_for() -> None:
    assert dose_indication("Ông 65 tuổi uống aspirin liều thấp để phòng nhồi máu cơ tim thì bao nhiêu?",
                           ["aspirin"]) == "để phòng nhồi máu cơ tim"
    assert dose_indication("Viêm khớp dạng thấp, liều aspirin bao nhiêu?", ["aspirin"]) == "Viêm khớp dạng thấp"
