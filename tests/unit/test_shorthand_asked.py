"""A shorthand several drugs begin with is asked, with the candidates as quick replies (issue #18)."""

from __future__ import annotations

import pytest

from states.clarify import question_for
from states.frame import Pending, QueryFrame
from states.understanding import with_shorthand
from tests.unit.formulary_names import fixture_name_book
from tests.unit.understanding_kit import RESOLVER, merged

NAMES = fixture_name_book()


def _asked(text: str, prior: QueryFrame | None = None) -> QueryFrame:
    turn = merged(text, None)
    return with_shorthand(merged(text, prior), turn, RESOLVER.resolve(text))


def test_cef_asks_between_cefalexin_and_ceftriaxon_with_quick_replies() -> None:
    frame = _asked("liều cef cho người lớn")
    assert frame.drugs == [] and frame.shorthand == "cef"
    question = question_for("no_drug", frame, NAMES, [])
    assert question.quick_replies == ["Cefalexin", "Ceftriaxon"]
    assert "\"cef\"" in question.text and question.missing == ["drug"]


def test_the_conversations_drug_is_not_carried_over_an_ambiguous_shorthand() -> None:
    prior = merged("Liều paracetamol uống cho người lớn?", None)
    frame = _asked("thế còn met thì sao?", prior)
    assert frame.drugs == [] and frame.shorthand_of == ["metformin", "metronidazol"]


def test_an_unambiguous_shorthand_resolves_and_clears_a_pending_shorthand() -> None:
    frame = _asked("liều para cho người lớn")
    assert frame.drugs == ["paracetamol"] and frame.shorthand is None


def test_a_shorthand_of_many_drugs_asks_for_the_full_name_naming_some() -> None:
    frame = QueryFrame(turn_type="dosing_calc", shorthand="cef",
                       shorthand_of=["cefalexin", "ceftriaxon", "amlodipin", "paracetamol", "ibuprofen", "warfarin",
                                     "digoxin"])
    question = question_for("no_drug", frame, NAMES, [])
    assert question.quick_replies == [] and "tên đầy đủ" in question.text and "Cefalexin" in question.text


NO_DRUG = Pending(reason="no_drug", missing=["drug"], quick_replies=["Cetirizin"])


def test_a_shorthand_with_a_child_is_the_childs_dose_question() -> None:
    # "cet cho bé 3 tuổi 14kg" is asked as "cetirizin cho bé 3 tuổi 14kg" is: the dose section, not the overview.
    frame = _asked("cet cho bé 3 tuổi 14kg")
    assert (frame.turn_type, frame.section_key, frame.shorthand_of) == (
        "dosing_calc", "lieu_luong_cach_dung", ["cetirizin"])


@pytest.mark.parametrize("yes", ["ừ", "phải", "đúng", "đúng rồi", "vâng ạ", "ok"])
def test_a_bare_yes_to_one_candidate_takes_it_and_keeps_the_child(yes: str) -> None:
    asked = _asked("cet cho bé 3 tuổi 14kg")
    frame = merged(yes, asked, NO_DRUG)
    assert (frame.drugs, frame.turn_type, frame.section_key, frame.age_months, frame.weight_kg) == (
        ["cetirizin"], "dosing_calc", "lieu_luong_cach_dung", 36, 14)


@pytest.mark.parametrize("answer", ["không", "không phải", "ừ nhưng không phải thuốc đó"])
def test_anything_but_a_bare_yes_takes_no_candidate(answer: str) -> None:
    assert merged(answer, _asked("cet cho bé 3 tuổi 14kg"), NO_DRUG).drugs == []


def test_a_bare_yes_to_several_candidates_takes_none() -> None:
    asked = _asked("liều cef cho người lớn")
    assert merged("ừ", asked, NO_DRUG.model_copy(update={"quick_replies": ["Cefalexin", "Ceftriaxon"]})).drugs == []
