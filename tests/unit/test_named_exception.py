"""An exclusion's exception ("trừ khi có chỉ định đặc biệt như bệnh Kawasaki") lifts it only for a disease it names,
named whole by the user: a shared word ("đặc biệt", half a disease name) lifts nothing — a dose shown to a child the
book excludes is the worst answer."""

from __future__ import annotations

import pytest

from core.named_exception import named_exceptions, names_exception

FIXTURE = "Trẻ em dưới 16 tuổi, vì nguy cơ hội chứng Reye, trừ khi có chỉ định đặc biệt như bệnh Kawasaki."
BOOK_LIKE = ("cần hạn chế hoàn toàn chỉ định thuốc cho trẻ em dưới 16 tuổi chỉ trừ một số trường hợp như bệnh "
             "Kawasaki, viêm khớp dạng thấp thiếu niên, bệnh Still.")


def test_the_diseases_of_an_exception_are_read_from_its_list() -> None:
    assert named_exceptions(FIXTURE) == ["Kawasaki"]
    assert named_exceptions(BOOK_LIKE) == ["Kawasaki", "viêm khớp dạng thấp thiếu niên", "Still"]


@pytest.mark.parametrize("sentence", [
    "Trẻ em dưới 16 tuổi, trừ khi có chỉ định đặc biệt.",
    "Không dùng cho trẻ dưới 2 tuổi trừ khi có chỉ định của thầy thuốc.",
    "Trẻ em dưới 12 tuổi.",
])
def test_an_exception_naming_no_disease_names_none(sentence: str) -> None:
    assert named_exceptions(sentence) == []
    assert not names_exception("chỉ định đặc biệt của bác sĩ", sentence)


@pytest.mark.parametrize("indication", ["Kawasaki", "bị bệnh Kawasaki", "kawasaki giai đoạn sốt", "bi kawasaki"])
def test_the_disease_named_whole_lifts_the_exclusion(indication: str) -> None:
    assert names_exception(indication, FIXTURE)


@pytest.mark.parametrize("indication", ["sốt cao đặc biệt", "chỉ định đặc biệt", "viêm khớp", "hội chứng Reye",
                                        "kawasakii", "sốt", None])
def test_a_word_shared_with_the_exception_lifts_nothing(indication: str | None) -> None:
    assert not names_exception(indication, FIXTURE)
    assert not names_exception(indication, BOOK_LIKE)


def test_a_multi_word_disease_must_be_named_whole_and_as_typed() -> None:
    assert names_exception("viêm khớp dạng thấp thiếu niên", BOOK_LIKE)
    assert names_exception("viem khop dang thap thieu nien", BOOK_LIKE)  # typed without diacritics: folded
    assert not names_exception("viêm khớp dạng thấp", BOOK_LIKE)
    # typed with diacritics, the words must be the book's: "thiếu niên" is not "thiêu niên"
    assert not names_exception("viêm khớp dạng thấp thiêu niên", BOOK_LIKE)
