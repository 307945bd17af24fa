"""A drug or class without a monograph, paired with a formulary drug (issue 17: interactions found by the terms the
text uses). SYNTHETIC TEST DATA; expectations written before running."""

from __future__ import annotations

import pytest

from core.partners import class_forms, names_partner
from core.spelling import drug_words
from states.co_agents import class_partners


@pytest.mark.parametrize(("line", "partner", "named"), [
    ("Dùng đồng thời với rifampicine làm giảm nồng độ thuốc.", "rifampicin", True),   # spelling
    ("Probenecid làm giảm thanh thải.", "probenecide", True),
    ("Thuốc chống trầm cảm: tăng tác dụng an thần.", "thuốc chống trầm cảm ba vòng", True),  # broader class
    ("Thuốc chống đông coumarin: tăng INR.", "thuốc chống động kinh", False),  # 'chong dong' is another class
    ("Các thuốc chống động kinh làm tăng chuyển hóa.", "thuốc chống động kinh", True),
    ("Không có tương tác đáng kể với thức ăn.", "diazepam", False),
])
def test_a_partner_is_named_by_its_words_whatever_the_spelling(line: str, partner: str, named: bool) -> None:
    assert names_partner(line, partner) is named


def test_vietnamese_words_are_never_drug_words() -> None:
    assert drug_words("đang dùng thuốc chống trầm cảm ba vòng") == set()
    assert class_forms("thuốc chống trầm cảm ba vòng") == ["chong tram cam ba vong", "chong tram cam ba",
                                                            "chong tram cam"]


@pytest.mark.parametrize(("turn", "found"), [
    ("Mẹ tôi đang dùng thuốc ức chế bơm proton, uống thêm thuốc X được không?", ["thuốc ức chế bơm proton"]),
    ("đang uống thuốc lợi tiểu thiazid thì dùng thuốc X có sao không", ["thuốc lợi tiểu thiazid"]),
    ("đang dùng thuốc này thì sao", []),
    ("phối hợp với thuốc X được không", []),  # the drug itself, not a class
])
def test_a_class_taken_beside_the_drug(turn: str, found: list[str]) -> None:
    assert class_partners(turn, ["thuốc X"]) == found
