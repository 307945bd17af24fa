"""Each new shape, typed with diacritics, must agree on them; typed without, its folded reading is used. Pairs of
words that fold alike: "lỡ"/"lo" (a slip / to worry), "cùng với"/"cũng vội" (together with / also hurriedly), "thêm"/"thèm" (more / to crave),
"giờ"/"gió" (hours / wind, as in "cảm gió"), "mắc"/"mạc" (to have an illness / a membrane), and a disease of an
exclusion's exception named with other diacritics."""

from __future__ import annotations

import pytest

from core.named_exception import names_exception
from core.text import fold
from retrieval.overdose_words import asks_overdose
from retrieval.resolver import DrugResolver
from states.conditions import condition_in_drug_turn
from states.followup import adds_a_drug, pairs_with_discussed
from states.slots import dose_indication
from tests.unit.formulary_names import fixture_drugs


def _overdose(text: str) -> bool:
    return asks_overdose(text, fold(text)) is not None


@pytest.mark.parametrize(("check", "as_meant", "other_word"), [
    (_overdose, "Tôi lỡ uống paracetamol 2 lần rồi", "Tôi lo uống paracetamol 2 lần một ngày có ít quá không"),
    (pairs_with_discussed, "tôi uống cùng với ibuprofen được không", "tôi cũng vội uống ibuprofen luôn, có sao không"),
    (adds_a_drug, "cho bé uống thêm paracetamol", "con cứ đòi uống thèm paracetamol vì ngọt"),
])
def test_a_shape_typed_with_diacritics_must_read_as_typed(check, as_meant: str, other_word: str) -> None:
    assert check(as_meant)
    assert not check(other_word)
    assert check(fold(as_meant)) and check(fold(other_word))  # typed without: the folded reading


def test_an_interval_word_is_not_the_indication_but_the_wind_of_a_cold_is() -> None:
    assert dose_indication("người lớn uống paracetamol cách nhau mấy giờ", ["paracetamol"]) is None
    assert "gió" in (dose_indication("người lớn bị cảm gió uống paracetamol bao nhiêu", ["paracetamol"]) or "")


def test_the_illness_verb_mắc_is_read_as_typed_and_mạc_is_never_it() -> None:
    assert condition_in_drug_turn("Bé 10 tuổi mắc bệnh Kawasaki, aspirin liều bao nhiêu?") == "bệnh Kawasaki"
    assert condition_in_drug_turn("be 10 tuoi mac benh kawasaki, aspirin lieu bao nhieu") == "benh kawasaki"
    assert condition_in_drug_turn("thuoc nho mat viem ket mac lieu bao nhieu") is None


def test_an_exception_disease_named_with_other_diacritics_lifts_nothing() -> None:
    sentence = "Trẻ em dưới 16 tuổi chỉ trừ một số trường hợp như bệnh Kawasaki, viêm khớp dạng thấp thiếu niên."
    assert names_exception("viêm khớp dạng thấp thiếu niên", sentence)
    assert names_exception("viem khop dang thap thieu nien", sentence)
    assert not names_exception("viêm khớp dạng thấp thiêu niên", sentence)


def test_a_word_typed_with_vietnamese_diacritics_is_never_a_listed_drug() -> None:
    resolver = DrugResolver(fixture_drugs())
    assert resolver.resolve("colchicin liều bao nhiêu").unknown == ["colchicin"]
    assert resolver.resolve("cólchicin liều bao nhiêu").unknown == []


def test_a_book_sentence_names_a_route_only_as_the_book_writes_it() -> None:
    from core.vocabulary import book_routes
    # "khi dùng" (when using) folds to "khi dung" like "khí dung" (nebulised); "bởi" (because) folds like "bôi".
    assert "inhaled" not in book_routes("Thận trọng khi cho con bú khi dùng liều nhắc lại 150 mg.")
    assert "inhaled" in book_routes("Khí dung: 2,5 mg mỗi lần, tối đa 4 lần/ngày.")
    assert "topical" not in book_routes("Không dùng bởi vì nguy cơ độc tính trên thận.")
    assert "topical" in book_routes("Bôi một lớp mỏng lên vùng da bị bệnh.")
    # An extraction without diacritics keeps the folded reading: it cannot tell the two apart.
    assert "inhaled" in book_routes("Khi dung: 2,5 mg moi lan.")


def test_a_reply_without_diacritics_picks_the_route_among_those_offered() -> None:
    from states.slots import offered_route
    offered = ["Uống", "Khí dung/hít"]
    assert offered_route("xong khi dung may a", offered) == "inhaled"
    assert offered_route("uong", offered) == "oral"
    # "Tiêm" names no one route beside "Tiêm bắp"; a reply typed with diacritics is read as typed elsewhere.
    assert offered_route("tiem a", ["Uống", "Tiêm/truyền tĩnh mạch", "Tiêm bắp"]) is None
    assert offered_route("khi dùng ở nhà", offered) is None
