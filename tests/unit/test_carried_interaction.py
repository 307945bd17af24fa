"""After a question about drug X, a turn taking another drug or class beside it ("dùng cùng với NSAID được không",
"uống xen kẽ với ibuprofen", "còn với warfarin?") asks about the pair — never the new drug's own section."""

from __future__ import annotations

import pytest

from core.partners import names_partner
from states.co_agents import class_terms
from states.followup import pairs_with_discussed
from tests.unit.understanding_kit import merged, understand


@pytest.mark.parametrize("text", [
    "dùng cùng với NSAID được không",
    "uống xen kẽ với ibuprofen được không",
    "còn với warfarin?",
    "với aspirin thì sao",
    "uong cung voi simvastatin duoc khong",
    "phối hợp với clarithromycin có sao không",
])
def test_taking_one_beside_the_other_pairs_with_the_drug_discussed(text: str) -> None:
    assert pairs_with_discussed(text)


@pytest.mark.parametrize("text", [
    "còn vợ tôi uống ibuprofen thì sao?",  # another person and a drug: the same question for them
    "tôi cũng vội uống ibuprofen luôn",  # "cũng vội" (also hurriedly) folds to "cung voi" as "cùng với" does
    "còn aspirin thì sao?",
    "Tôi cũng với mẹ đi khám",
])
def test_words_that_only_fold_like_a_pairing_cue_pair_nothing(text: str) -> None:
    assert not pairs_with_discussed(text)


@pytest.mark.parametrize(("prior", "text", "drugs", "unknown"), [
    ("Paracetamol có tác dụng phụ gì?", "dùng cùng với NSAID được không", ["paracetamol"], ["NSAID"]),
    ("Liều ibuprofen cho bé 5 tuổi 18 kg", "uống xen kẽ với paracetamol được không", ["ibuprofen", "paracetamol"], []),
    ("Simvastatin có tác dụng phụ gì?", "còn với clarithromycin?", ["simvastatin", "clarithromycin"], []),
    ("Ibuprofen có tác dụng phụ gì?", "dùng chung với thuốc chống đông được không", ["ibuprofen"],
     ["thuốc chống đông"]),
])
def test_the_pair_is_the_drug_discussed_and_the_one_named(prior: str, text: str, drugs: list[str],
                                                          unknown: list[str]) -> None:
    frame = merged(text, understand(prior))
    assert (frame.turn_type, frame.section_key) == ("interaction", "tuong_tac_thuoc")
    assert frame.drugs == drugs and frame.unknown_drugs == unknown


def test_a_drug_named_instead_of_the_one_discussed_keeps_the_question() -> None:
    frame = merged("còn aspirin thì sao?", understand("Warfarin có chống chỉ định gì?"))
    assert frame.drugs == ["acid_acetylsalicylic"] and frame.section_key == "chong_chi_dinh"


def test_a_class_is_found_by_any_spelling_the_book_uses_for_it() -> None:
    assert class_terms("dùng cùng với NSAID được không") == ["NSAID"]
    assert names_partner("Thuốc chống viêm không steroid (ibuprofen, diclofenac): tăng nguy cơ chảy máu.", "NSAID")
    assert names_partner("Các NSAID làm giảm tác dụng lợi tiểu.", "thuốc kháng viêm không steroid")
    assert not names_partner("Uống nhiều rượu làm tăng độc tính cho gan.", "NSAID")
