"""The drug resolver finds formulary drugs by every name people use, and never invents one."""

from __future__ import annotations

import pytest

from core.text import fold
from retrieval.resolver import ACCEPT_SCORE, DrugResolver
from tests.unit.formulary_names import fixture_drugs

DRUGS = fixture_drugs()
RESOLVER = DrugResolver(DRUGS)


def _ids(text: str) -> list[str]:
    return RESOLVER.resolve(text).drug_ids


def test_the_fixture_formulary_has_all_thirty_three_drugs() -> None:
    # 30 labelled monographs + 3 in the PDF-extracted shape (cefalexin, clindamycin, levetiracetam).
    assert len(DRUGS) == 33


@pytest.mark.parametrize("entry", DRUGS, ids=lambda e: e.drug_id)
def test_every_fixture_drug_is_found_by_its_inn_in_a_question(entry) -> None:
    assert _ids(f"Chống chỉ định của {entry.name} là gì?") == [entry.drug_id]
    assert _ids(f"chong chi dinh cua {fold(entry.name)}") == [entry.drug_id]
    assert _ids(entry.name.upper()) == [entry.drug_id]


@pytest.mark.parametrize(
    ("name", "drug_id"),
    [(n, e.drug_id) for e in DRUGS for n in (*e.aliases, *e.brands)],
)
def test_each_alias_and_brand_resolves_to_its_drug(name: str, drug_id: str) -> None:
    result = RESOLVER.resolve(f"Liều {name} cho người lớn")
    assert result.drug_ids == [drug_id]
    assert result.candidates[0].score == 100
    assert _ids(f"lieu {fold(name)} cho nguoi lon") == [drug_id]


@pytest.mark.parametrize(
    ("typed", "drug_id"),
    [
        ("paracetamon", "paracetamol"),
        ("amoxicilin", "amoxicilin"),
        ("amoxicillin", "amoxicilin"),
        ("amoxixilin", "amoxicilin"),
        ("ibuprofene", "ibuprofen"),
        ("wafarin", "warfarin"),
        ("metfomin", "metformin"),
        ("ceftriaxone", "ceftriaxon"),
        ("ciprofloxacine", "ciprofloxacin"),
        ("prednisolone", "prednisolon"),
        ("furosemide", "furosemid"),
        ("omeprazole", "omeprazol"),
    ],
)
def test_common_typos_and_english_spellings_resolve(typed: str, drug_id: str) -> None:
    result = RESOLVER.resolve(f"tac dung phu cua {typed}")
    assert result.drug_ids == [drug_id]
    assert result.candidates[0].span == typed
    assert result.candidates[0].score >= ACCEPT_SCORE


@pytest.mark.parametrize(
    ("text", "drug_id"),
    [
        ("isosorbid dinitrat dùng để làm gì?", "isosorbid_dinitrat"),
        ("isosorbide dinitrate", "isosorbid_dinitrat"),
        ("Chống chỉ định của acid acetylsalicylic", "acid_acetylsalicylic"),
        ("Aspirin pH8 dùng để làm gì?", "acid_acetylsalicylic"),
    ],
)
def test_multi_word_names_resolve_as_one_drug(text: str, drug_id: str) -> None:
    assert _ids(text) == [drug_id]


def test_several_drugs_are_all_candidates_with_their_spans() -> None:
    result = RESOLVER.resolve("Phenytoin, carbamazepin và wafarin có tương tác với nhau không?")
    assert set(result.drug_ids) == {"phenytoin", "carbamazepin", "warfarin"}
    assert {c.span for c in result.candidates} == {"Phenytoin", "carbamazepin", "wafarin"}
    assert result.drug_ids[-1] == "warfarin"  # the fuzzy match ranks below the exact ones


@pytest.mark.parametrize(
    "name",
    ["esomeprazol", "esomeprazole", "prednison", "digitoxin", "enalaprilat", "ampicillin", "roxithromycin", "erythromycin", "levofloxacin", "valsartan", "lisinopril", "ketoconazol", "atorvastatin", "rosuvastatin", "cefuroxim", "tinidazol", "levocetirizin", "oxcarbazepin", "fosphenytoin", "aceclofenac", "dexibuprofen", "propacetamol", "methylprednisolon", "salmeterol", "nifedipin", "clopidogrel", "ivermectin", "oseltamivir", "sildenafil", "tramadol",
     "gliclazid", "pioglitazon", "repaglinid", "quetiapin", "oxycodone", "phenformin"],
)
def test_a_non_formulary_neighbour_is_reported_unknown_never_mapped_to_a_formulary_drug(name: str) -> None:
    result = RESOLVER.resolve(f"Liều {name} cho người lớn")
    assert result.drug_ids == []
    assert result.unknown == [name]


@pytest.mark.parametrize(
    ("text", "unknown"),
    [
        ("Cho tôi biết về thuốc xyz123", ["xyz123"]),
        ("Tamiflu cho bà bầu được không?", ["Tamiflu"]),
        ("Viagra bảo quản thế nào?", ["Viagra"]),
        ("tuong tac giua sildenafil va tramadol", ["sildenafil", "tramadol"]),
        # lowercase at the start of the turn, no cue word: the INN stem alone says it is a drug name
        ("gliclazid dùng cho người suy thận được không?", ["gliclazid"]),
    ],
)
def test_drug_like_names_that_resolve_to_nothing_are_reported(text: str, unknown: list[str]) -> None:
    result = RESOLVER.resolve(text)
    assert result.drug_ids == []
    assert result.unknown == unknown


@pytest.mark.parametrize(
    "text",
    [
        "Thuốc nào trị tăng huyết áp?",
        "thuoc nao dieu tri trao nguoc da day",
        "bi tieu chay uong thuoc gi",
        "con toi bi sot 39 do nen uong gi",
        "chao ban, ban lam duoc nhung gi",
        "viet giup toi ham python sap xep mang",
        "Kết quả trận Việt Nam Thái Lan tối qua",
        "Nhiễm Helicobacter pylori dùng thuốc gì?",
        "nguoi lon khong duoc dung thuoc nay khi nao, lieu bao nhieu vien, than trong gi",
        "truong hop nao chong chi dinh, tuong tac, bao quan o nhiet do phong",
    ],
)
def test_common_vietnamese_words_never_map_to_a_drug(text: str) -> None:
    result = RESOLVER.resolve(text)
    assert result.candidates == []
    assert result.unknown == []


@pytest.mark.parametrize(("typed", "drug_id"), [
    ("para cho bé 3 tuổi", "paracetamol"), ("cipro có dùng cho bà bầu không", "ciprofloxacin"),
    ("amox 500 uống mấy lần", "amoxicilin"), ("hapacol 250 cho bé", "paracetamol"),
])
def test_chat_shorthand_and_brand_with_strength_resolve(typed: str, drug_id: str) -> None:
    result = RESOLVER.resolve(typed)
    assert result.drug_ids == [drug_id]
    assert result.candidates[0].score < ACCEPT_SCORE or "hapacol" in typed, "shorthand ranks below a full name"


def test_shorthand_never_beats_a_full_name_in_the_same_turn() -> None:
    assert _ids("para hay ibuprofen") == ["ibuprofen", "paracetamol"]


@pytest.mark.parametrize("typed", ["cet", "thuoc", "benh nhan", "trong ngay", "sang nay"])
def test_short_or_vietnamese_words_are_not_shorthand(typed: str) -> None:
    assert _ids(f"{typed} uống thế nào") == []


@pytest.mark.parametrize(("typed", "drug_id"), [("ibu", "ibuprofen"), ("dom", "domperidon")])
def test_a_common_three_letter_chat_shorthand_is_its_one_drug(typed: str, drug_id: str) -> None:
    assert _ids(f"{typed} cho bé 3 tuổi uống thế nào") == [drug_id]
    assert _ids(f"con lớn 9t 27kg thì {typed} 1 lần bn") == [drug_id]


def test_a_chat_shorthand_that_is_a_vietnamese_word_typed_bare_stays_the_word() -> None:
    assert _ids("toi dom thu xem sao") == []  # "dòm" (to peek), typed without diacritics


@pytest.mark.parametrize(("typed", "span", "drugs"), [
    ("liều cef cho người lớn", "cef", ["cefalexin", "ceftriaxon"]),
    ("liều met cho người lớn", "met", ["metformin", "metronidazol"]),
    ("lieu met cho nguoi lon", "met", ["metformin", "metronidazol"]),
])
def test_a_shorthand_several_drugs_begin_with_is_reported_never_resolved(typed: str, span: str,
                                                                         drugs: list[str]) -> None:
    result = RESOLVER.resolve(typed)
    assert result.drug_ids == []
    assert [(a.span, a.drug_ids) for a in result.ambiguous] == [(span, drugs)]


@pytest.mark.parametrize("typed", ["be met qua, co sao khong", "bé mệt quá", "ức chế ACE", "ce cho bé"])
def test_a_word_or_an_abbreviation_is_no_ambiguous_shorthand(typed: str) -> None:
    assert RESOLVER.resolve(typed).ambiguous == []


@pytest.mark.parametrize("typed", ["con lớn 9t 27kg thì cet 1 lần bn", "cet cho bé 3 tuổi", "liều ome cho người lớn"])
def test_three_letters_that_begin_one_drug_are_asked_about_not_taken_for_it(typed: str) -> None:
    # Too short to be the name (never resolved), but not dropped either: the machine offers the one drug and asks.
    result = RESOLVER.resolve(typed)
    assert result.drug_ids == []
    assert len(result.ambiguous) == 1 and len(result.ambiguous[0].drug_ids) == 1


@pytest.mark.parametrize("typed", ["my kid has the flu", "is it ok for all kids"])
def test_english_words_that_begin_one_drug_are_not_a_shorthand(typed: str) -> None:
    assert RESOLVER.resolve(typed).ambiguous == []


def test_a_salt_written_after_the_drug_is_its_form_not_a_drug_the_book_lacks() -> None:
    result = RESOLVER.resolve("bà đang uống digoxin, đổi sang tiêm decanoat được ko")
    assert result.drug_ids == ["digoxin"] and result.unknown == []
    # the infusion fluid is still a name the book lacks
    assert "Ringer" in " ".join(RESOLVER.resolve("digoxin pha với Ringer lactat được không").unknown)
