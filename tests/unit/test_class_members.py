"""NameBook.class_members: a class asked about is found by the members the book's own class lines put in it."""

from __future__ import annotations

from core.corpus import DrugNames
from retrieval.names import NameBook

BOOK = NameBook([
    DrugNames(drug_id="warfarin", name="Warfarin", classes=("Thuốc chống đông máu loại kháng vitamin K", "coumarin")),
    DrugNames(drug_id="ibuprofen", name="Ibuprofen", classes=("Thuốc chống viêm không steroid",)),
    DrugNames(drug_id="paracetamol", name="Paracetamol", aliases=("acetaminophen",), classes=("Giảm đau", "hạ sốt")),
])


def test_a_class_finds_the_drugs_whose_class_line_names_it() -> None:
    assert BOOK.class_members("thuốc chống đông") == ["Warfarin"]
    assert BOOK.class_members("thuốc chống viêm không steroid", besides=["ibuprofen"]) == []


def test_a_name_is_not_a_class_and_has_no_members() -> None:
    assert BOOK.class_members("allopurinol") == []


def test_partners_keep_the_class_and_add_its_members() -> None:
    assert BOOK.partners_with_members(["thuốc chống đông"], besides=["ibuprofen"]) == ["thuốc chống đông", "Warfarin"]
