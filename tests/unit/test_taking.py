"""The drugs a person is on stay theirs across turns, and a dose of a drug the book pairs with one of them says so
first (states.taking)."""

from __future__ import annotations

from states.frame import QueryFrame
from states.taking import taken_in, with_taking

SECTIONS = {
    "warfarin": {"tuong_tac_thuoc": "Tác dụng của warfarin có thể tăng lên khi dùng với: acetaminophen, aspirin."},
    "paracetamol": {"tuong_tac_thuoc": "Rượu: tăng độc tính trên gan."},
    "amoxicilin": {"tuong_tac_thuoc": "Alopurinol: tăng nguy cơ phát ban."},
}
NAMES = {"warfarin": ["warfarin"], "paracetamol": ["paracetamol", "acetaminophen"], "amoxicilin": ["amoxicilin"]}


def _with(merged: QueryFrame, prior: QueryFrame | None, text: str) -> QueryFrame:
    return with_taking(merged, prior, text, lambda d: NAMES[d], lambda d: SECTIONS[d], lambda d: d.capitalize())


def test_only_the_drug_said_taken_is_recorded() -> None:
    text = "ông tôi 70 tuổi đang uống warfarin, uống paracetamol được không"
    assert taken_in(text, ["warfarin", "paracetamol"], lambda d: NAMES[d]) == ["warfarin"]


def test_a_later_dose_for_the_same_person_carries_the_note() -> None:
    prior = QueryFrame(turn_type="interaction", drugs=["warfarin", "paracetamol"], population="adult",
                       person="ông tôi", taking=["warfarin"])
    dose = QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], population="adult", person="ông tôi")
    merged = _with(dose, prior, "liều uống cho ông bao nhiêu")
    assert merged.taking == ["warfarin"]
    assert merged.notes and "Warfarin và Paracetamol" in merged.notes[0]


def test_another_person_never_inherits_what_the_first_takes() -> None:
    prior = QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], population="adult", person="ông tôi",
                       age_months=840.0, taking=["warfarin"])
    her = QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], population="adult", person="bà tôi",
                     age_months=780.0, taking=["warfarin"])  # as a merge path copying the prior frame would leave it
    merged = _with(her, prior, "còn bà tôi 65 tuổi uống paracetamol liều sao")
    assert merged.taking == []
    assert not merged.notes


def test_a_drug_the_book_does_not_pair_gets_no_note() -> None:
    prior = QueryFrame(turn_type="dosing_calc", drugs=["warfarin"], population="adult", taking=["warfarin"])
    dose = QueryFrame(turn_type="dosing_calc", drugs=["amoxicilin"], population="adult")
    merged = _with(dose, prior, "amoxicilin liều bao nhiêu")
    assert merged.taking == ["warfarin"]
    assert not merged.notes


def test_a_drug_not_in_the_book_said_taken_stays_with_her_and_heads_a_dose_it_is_named_beside() -> None:
    sections = {**SECTIONS, "ibuprofen": {"tuong_tac_thuoc": "Không nên dùng đồng thời lithi với ibuprofen."}}
    names = {**NAMES, "ibuprofen": ["ibuprofen"]}

    def run(merged: QueryFrame, prior: QueryFrame | None, text: str) -> QueryFrame:
        return with_taking(merged, prior, text, lambda d: names[d], lambda d: sections[d], lambda d: d.capitalize())

    first = run(QueryFrame(turn_type="interaction", drugs=["paracetamol"], unknown_drugs=["lithi"],
                           population="adult", person="mẹ tôi"),
                None, "mẹ tôi 70 tuổi đang uống lithi, dùng paracetamol được không")
    assert first.taking_unlisted == ["lithi"]
    dose = run(QueryFrame(turn_type="dosing_calc", drugs=["ibuprofen"], population="adult", person="mẹ tôi"),
               first, "liều ibuprofen cho bà bao nhiêu")
    assert dose.taking_unlisted == ["lithi"]
    assert dose.notes and "lithi" in dose.notes[0] and "Ibuprofen" in dose.notes[0]
    plain = run(QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], population="adult", person="mẹ tôi"),
                first, "liều paracetamol cho bà bao nhiêu")
    assert not plain.notes  # paracetamol's section does not name it
    him = run(QueryFrame(turn_type="dosing_calc", drugs=["ibuprofen"], population="adult", person="bố tôi",
                         age_months=780.0), dose, "còn bố tôi 65 tuổi liều ibuprofen bao nhiêu")
    assert him.taking_unlisted == [] and not him.notes


def test_an_unnamed_drug_only_asked_about_is_not_taken() -> None:
    frame = with_taking(QueryFrame(turn_type="interaction", drugs=["paracetamol"], unknown_drugs=["lithi"]), None,
                        "paracetamol với lithi có tương tác không", lambda d: NAMES[d], lambda d: SECTIONS[d],
                        lambda d: d.capitalize())
    assert frame.taking_unlisted == []
