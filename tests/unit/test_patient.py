"""Who the patient is, across turns (issue #18; #21 item 4): quantities as people type them, one person's values
never reaching another, answers wrapped in politeness or corrections, follow-ups that keep their referent,
diacritics respected, shorthand and English."""

from __future__ import annotations

import pytest

from states.clarify import question_for
from states.conditions import condition_stated, find_condition_question
from states.frame import Pending, QueryFrame
from states.person import person_of
from states.quantities import read_weight, spell_out, weight_fits_age
from states.shorthand import expand_chat
from states.slots import extract_slots
from states.streak import answered_something, next_clarify_streak
from tests.unit.formulary_names import fixture_name_book
from tests.unit.understanding_kit import merged, understand

AGE_WEIGHT = Pending(reason="missing_pediatric_age_or_weight", missing=["age", "weight"])
WEIGHT = Pending(reason="missing_pediatric_age_or_weight", missing=["weight"])
AGE = Pending(reason="missing_pediatric_age_or_weight", missing=["age"])
NAMES = fixture_name_book()


# --- quantities -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "kg"), [("bé nặng 40 lbs", 18.1), ("40 lb", 18.1), ("44 pounds", 20.0),
                                          ("7 lb 8 oz", 3.4), ("bé 3 ký 2", 3.2), ("bé 3 cân 2 lạng", 3.2),
                                          ("bé 3kg5", 3.5), ("sơ sinh 3 ký 500", 3.5), ("18 cân rưỡi", 18.5)])
def test_pounds_ounces_and_tenths_become_kilograms(text: str, kg: float) -> None:
    assert extract_slots(text).weight_kg == pytest.approx(kg, abs=0.05)


def test_a_converted_weight_is_echoed_in_the_reply() -> None:
    frame = understand("liều paracetamol cho bé 5 tuổi nặng 40 lbs")
    assert frame.weight_kg == pytest.approx(18.1) and "40 lbs ≈ 18,1 kg" in " ".join(frame.notes)


@pytest.mark.parametrize(("text", "months", "kg"), [
    ("mười tám cân", None, 18), ("hai mươi lăm ký", None, 25), ("hai tuổi rưỡi", 30, None),
    ("1 tuổi 3 tháng", 15, None), ("ba tuổi", 36, None), ("bé 18 tháng rưỡi", 18.5, None),
])
def test_number_words_and_compound_ages_are_read(text: str, months: float | None, kg: float | None) -> None:
    slots = extract_slots(text)
    assert (slots.age_months, slots.weight_kg) == (months, kg)


def test_a_number_word_must_be_written_as_one_when_diacritics_are_typed() -> None:
    # "bà cần" (grandmother needs) folds to "ba can" (three kilograms).
    assert extract_slots("bà cần uống thuốc gì").weight_kg is None
    assert spell_out("muoi tam can") == "18 can"


@pytest.mark.parametrize("text", ["bé -5 tuổi", "bé 200 tuổi", "bé 0 kg", "bé -3 kg", "bé 2-3 tuổi"])
def test_values_no_patient_can_have_are_rejected_and_said(text: str) -> None:
    slots = extract_slots(text)
    assert slots.age_months is None and slots.weight_kg is None
    assert slots.rejected
    assert understand(f"liều paracetamol cho {text}").notes


def test_a_five_year_old_of_180_kg_is_asked_again_never_dosed() -> None:
    frame = merged("liều paracetamol cho bé 5 tuổi 180 kg", None)
    assert frame.age_months == 60 and frame.weight_kg is None
    assert any("180 kg" in n for n in frame.notes)
    assert weight_fits_age(18, 60) and not weight_fits_age(180, 60) and not weight_fits_age(20, 0.5)


def test_weight_for_age_catches_impossible_pairs_never_a_thin_or_heavy_real_child() -> None:
    # Impossible: a 16-year-old of 16 kg (median ≈ 55 kg), a 2-month-old of 25 kg, a 3-year-old of 55 kg.
    assert not weight_fits_age(16, 16 * 12) and not weight_fits_age(25, 2) and not weight_fits_age(55, 36)
    # Real children at the edges: a thin 13-year-old of 28 kg, a heavy 8-year-old of 60 kg, a 1-month-old preterm
    # of 1.2 kg, a wasted 4-year-old of 9 kg.
    assert weight_fits_age(28, 13 * 12) and weight_fits_age(60, 96) and weight_fits_age(1.2, 1)
    assert weight_fits_age(9, 48)


def test_a_weight_typed_as_an_age_is_not_taken_as_the_childs_age() -> None:
    prior = merged("bé 5 tuổi", understand("liều paracetamol cho trẻ em"), AGE_WEIGHT)
    f = merged("18 tuổi", prior, WEIGHT)
    assert (f.population, f.age_months, f.weight_kg) == ("pediatric", 60, None)
    assert any("cân nặng" in n for n in f.notes)


# --- a new patient is a new patient -----------------------------------------------------------------------

@pytest.mark.parametrize(("text", "label", "population"), [
    ("còn em nó 1 tuổi thì sao?", "em nó", "pediatric"), ("thế mẹ bé uống thì bao nhiêu?", "mẹ bé", "adult"),
    ("còn bố nó thì sao?", "bố nó", "adult"), ("bà tôi 80 tuổi", "bà tôi", "adult"),
    # (A child's own name is kept with the word for them, so two children of one conversation stay apart.)
    ("còn người lớn thì sao?", "người lớn", "adult"), ("bé Cún 3 tuổi", "bé Cún", "pediatric"),
])
def test_people_are_recognised_by_the_words_for_them(text: str, label: str, population: str) -> None:
    person = person_of(text)
    assert person is not None and person.label == label
    assert understand(text).population == population


def test_the_younger_sibling_never_gets_the_older_childs_weight() -> None:
    older = understand("liều paracetamol cho bé 6 tuổi 20 kg uống")
    f = merged("còn em nó 1 tuổi thì sao?", older)
    assert (f.drugs, f.turn_type, f.age_months, f.weight_kg, f.person) == (
        ["paracetamol"], "dosing_calc", 12, None, "em nó")
    assert any("em nó" in n for n in f.notes)


def test_the_mother_gets_no_value_of_the_child_and_is_an_adult() -> None:
    child = understand("liều paracetamol cho bé 6 tuổi 20 kg bị suy gan uống")
    f = merged("thế mẹ bé uống thì bao nhiêu?", child)
    assert (f.population, f.age_months, f.weight_kg, f.hepatic, f.person) == ("adult", None, None, None, "mẹ bé")
    assert f.drugs == ["paracetamol"] and f.section_key == "lieu_luong_cach_dung"


def test_a_grandmothers_kidneys_are_not_the_childs() -> None:
    grandmother = understand("bà tôi 80 tuổi bị suy thận uống paracetamol liều bao nhiêu")
    f = merged("còn bé 3 tuổi thì sao", grandmother)
    assert (f.population, f.age_months, f.renal, f.condition) == ("pediatric", 36, None, None)


def test_a_generic_word_after_a_named_child_is_the_same_child() -> None:
    sibling = merged("còn em nó 1 tuổi thì sao?", understand("liều paracetamol cho bé 6 tuổi 20 kg uống"))
    f = merged("bé 10 kg", sibling, WEIGHT)
    assert (f.age_months, f.weight_kg, f.person) == (12, 10, "em nó")


def test_thế_còn_bà_bầu_after_a_dose_asks_the_pregnancy_section_first_for_a_pregnant_woman() -> None:
    # Whether she may take it at all comes before any dose (a dose alone would omit the pregnancy warnings).
    prior = understand("liều paracetamol cho người lớn suy gan")
    f = merged("thế còn bà bầu?", prior)
    assert (f.drugs, f.section_key, f.pregnant, f.hepatic) == (["paracetamol"], "thoi_ky_mang_thai", True, None)


def test_a_new_age_after_an_answer_does_not_keep_the_old_weight() -> None:
    f = merged("còn bé 2 tuổi thì sao?", understand("liều ibuprofen cho bé 5 tuổi 18 kg"))
    assert (f.age_months, f.weight_kg) == (24, None)


def test_questions_address_the_person_by_name() -> None:
    f = merged("còn em nó 1 tuổi thì sao?", understand("liều paracetamol cho bé 6 tuổi 20 kg uống"))
    q = question_for("missing_pediatric_age_or_weight", f, NAMES)
    assert "Về em nó" in q.text and "Bé 1 tuổi, vậy bé cân nặng bao nhiêu kg?" in q.text


# --- an answer is an answer -------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["dạ cảm ơn, bé 5 tuổi 18 ký ạ", "đã bảo 5 tuổi rồi!!", "chào bạn, bé 5 tuổi",
                                  "à nhầm, bé 5 tuổi", "ok bé 5 tuổi"])
def test_an_answer_wrapped_in_politeness_or_exasperation_fills_the_slot(text: str) -> None:
    f = merged(text, understand("liều ibuprofen cho trẻ em"), AGE_WEIGHT)
    assert (f.turn_type, f.drugs, f.age_months) == ("dosing_calc", ["ibuprofen"], 60)


def test_a_correction_replaces_the_slot_and_says_so() -> None:
    prior = merged("bé 18 kg", understand("liều paracetamol cho trẻ em"), AGE_WEIGHT)
    f = merged("à nhầm, bé 16kg", prior, AGE)
    assert f.weight_kg == 16 and any("16 kg (thay cho 18 kg)" in n for n in f.notes)
    f = merged("không phải, bé 20 kg", prior, AGE)
    assert f.weight_kg == 20


def test_notes_are_never_carried_to_the_next_turn() -> None:
    first = merged("liều paracetamol cho bé 5 tuổi nặng 40 lbs", None)
    assert first.notes
    assert merged("uống", first, Pending(reason="ambiguous_route", missing=["route"])).notes == []


# --- the clarify streak and the way forward (#21.4) -------------------------------------------------------

def test_only_a_turn_that_answers_nothing_counts_toward_the_breaker() -> None:
    assert next_clarify_streak(2, "clarify", "missing_pediatric_age_or_weight", answered=True) == 2
    assert next_clarify_streak(2, "clarify", "missing_pediatric_age_or_weight", answered=False) == 3
    assert next_clarify_streak(3, "answerable", "smalltalk", answered=False) == 3
    assert next_clarify_streak(3, "answerable", "single_drug", answered=False) == 0
    assert next_clarify_streak(3, "abstain", "out_of_scope", answered=False) == 0


def test_filling_a_pending_slot_is_answering_something_and_a_non_answer_is_not() -> None:
    prior = understand("liều paracetamol cho trẻ em")
    assert answered_something(prior, merged("18 kg", prior, AGE_WEIGHT), AGE_WEIGHT)
    assert not answered_something(prior, merged("không biết", prior, AGE_WEIGHT), AGE_WEIGHT)
    assert not answered_something(None, prior, None)


def test_after_two_unanswered_asks_the_reply_offers_a_way_forward_and_no_dose() -> None:
    frame = understand("liều paracetamol cho trẻ em")
    texts = []
    for _ in range(3):
        texts.append(question_for("missing_pediatric_age_or_weight", frame, NAMES).text)
        frame = merged("không biết", frame, AGE_WEIGHT)
    assert texts[0] == texts[1]
    assert "dược sĩ hoặc bác sĩ" in texts[2] and "cân" in texts[2] and "mg" not in texts[2]


# --- follow-ups keep their referent -----------------------------------------------------------------------

def test_a_pronoun_in_an_interaction_question_is_the_previous_drug() -> None:
    f = merged("nó uống chung với amlodipin được không", understand("simvastatin có tương tác gì không"))
    assert (f.turn_type, f.drugs) == ("interaction", ["simvastatin", "amlodipin"])
    f = merged("thuốc này dùng chung với clarithromycin được không", understand("liều simvastatin cho người lớn"))
    assert (f.turn_type, f.drugs) == ("interaction", ["simvastatin", "clarithromycin"])


def test_a_route_follow_up_replaces_the_route_with_injection() -> None:
    prior = understand("liều paracetamol cho người lớn uống")
    f = merged("thế còn đường tiêm?", prior)
    assert (f.drugs, f.route, f.route_family, f.population) == (["paracetamol"], None, "injection", "adult")
    assert understand("tiệm thuốc gần nhà").route_family is None


# --- diacritics and conditions ----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "condition", "stated"), [
    ("Sỏi thận acid uric tái phát.", "sởi", False), ("Sỏi thận acid uric tái phát.", "sỏi thận", True),
    ("Điều trị hỗ trợ.", "ho", False), ("Ho khan kéo dài.", "ho", True), ("Dieu tri ho tro.", "ho", True),
    ("Mày đay mạn tính vô căn.", "mề đay", True), ("loét dạ dày – tá tràng", "loét dạ dày - tá tràng", True),
    ("Trào ngược dạ dày – thực quản.", "ợ chua", True),
])
def test_a_condition_typed_with_diacritics_matches_only_with_them(text: str, condition: str, stated: bool) -> None:
    assert condition_stated(text, condition) is stated


def test_a_condition_without_diacritics_that_folds_onto_two_is_asked() -> None:
    f = understand("soi dùng thuốc gì")
    assert f.condition_ambiguous
    q = question_for("ambiguous_condition", f, NAMES)
    assert q.quick_replies == ["sởi", "sỏi"]
    assert not understand("sởi dùng thuốc gì").condition_ambiguous


def test_the_condition_is_the_disease_words_not_the_patient_description() -> None:
    assert find_condition_question("bé 3 tuổi 14 ký sốt 39 độ dùng thuốc gì") == "sốt"
    assert find_condition_question("bé nhà em 2 tuổi, 12kg bị tiêu chảy dùng thuốc gì") == "tiêu chảy"


def test_atrial_fibrillation_is_not_paediatric_and_a_nickname_is_not_an_animal() -> None:
    assert understand("liều warfarin cho người rung nhĩ").population is None
    f = understand("bé Cún 3 tuổi uống paracetamol được không")
    assert not f.non_human and f.population == "pediatric"
    assert understand("con chó nhà tôi uống paracetamol được không").non_human


@pytest.mark.parametrize("text", ["Kawasaki dùng thuốc gì", "ClCr 30 thì liều ciprofloxacin bao nhiêu",
                                  "INR cao có dùng warfarin được không"])
def test_disease_eponyms_and_clinical_terms_are_not_unknown_drugs(text: str) -> None:
    assert understand(text).unknown_drugs == []


# --- shorthand and English --------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expanded"), [
    # Session 4: a turn typed wholly without diacritics is written out without them ("ko dc" → "khong duoc"), so
    # that how its words are matched stays the folded reading; the context rule for "bn" is unchanged.
    ("uống bn viên", "uống bao nhiêu viên"), ("cho bn suy gan nặng", "cho bệnh nhân suy gan nặng"),
    ("cho bn suy gan", "cho benh nhan suy gan"),
    ("bn 60 tuổi", "bệnh nhân 60 tuổi"), ("bn tuổi", "bao nhiêu tuổi"), ("ko dc đâu", "không được đâu"),
    ("ko dc", "khong duoc"),
    ("ng lớn", "người lớn"), ("18kg", "18kg"), ("vitamin K", "vitamin K"),
])
def test_chat_shorthand_is_written_out_bn_by_its_context(text: str, expanded: str) -> None:
    assert expand_chat(text) == expanded


@pytest.mark.parametrize(("text", "section"), [
    ("paracetamol ko dùng cho ai", "chong_chi_dinh"), ("paracetamol k dc dùng khi nào", "chong_chi_dinh"),
    ("what is the dose of paracetamol for adults", "lieu_luong_cach_dung"),
    ("side effects of ibuprofen", "tac_dung_khong_mong_muon"),
])
def test_shorthand_and_english_questions_find_their_section(text: str, section: str) -> None:
    assert understand(text).section_key == section


def test_an_english_question_the_rules_cannot_place_asks_for_vietnamese_never_for_an_attribute() -> None:
    f = understand("tell me about paracetamol please")
    assert f.needs_clarify and f.section_key is None
    assert "tiếng Việt" in question_for("needs_more_info", f, NAMES).text


def test_a_stored_frame_without_the_new_fields_still_loads() -> None:
    stored = QueryFrame(turn_type="dosing_calc", drugs=["ibuprofen"]).model_dump()
    for name in ("person", "route_family", "unanswered", "notes"):
        stored.pop(name)
    assert QueryFrame.model_validate(stored).person is None
    assert read_weight("40 lbs") is not None


def test_a_models_frame_is_held_to_the_users_words_for_pounds_and_impossible_values() -> None:
    from states.merge import merge_frames

    model = QueryFrame(turn_type="dosing_calc", drugs=["ibuprofen"], section_key="lieu_luong_cach_dung",
                       population="pediatric", age_months=60, weight_kg=40, understood_by="claude")
    f = merge_frames(model, None, None, "liều ibuprofen cho bé 5 tuổi nặng 40 lbs")
    assert f.weight_kg == pytest.approx(18.1) and any("40 lbs" in n for n in f.notes)
    model = model.model_copy(update={"age_months": -60})
    f = merge_frames(model, None, None, "liều ibuprofen cho bé -5 tuổi nặng 18 kg")
    assert f.age_months is None


def test_a_named_person_of_unknown_age_is_asked_by_name() -> None:
    f = merged("thế còn anh nó?", understand("liều ibuprofen cho bé 5 tuổi 18 kg"))
    assert (f.population, f.age_months, f.weight_kg, f.person) == (None, None, None, "anh nó")
    assert "\nAnh nó là người lớn hay trẻ em" in question_for("missing_population", f, NAMES).text


def test_two_weights_that_disagree_are_asked_and_two_that_agree_are_one() -> None:
    assert extract_slots("bé 18 kg (40 lbs)").weight_kg == pytest.approx(18.1)
    disagree = extract_slots("bé 18 kg hay 50 lbs")
    assert disagree.weight_kg is None and disagree.rejected


def test_thanks_between_two_questions_keeps_the_question_for_the_next_follow_up() -> None:
    answered = understand("liều ibuprofen cho bé 5 tuổi 18 kg")
    thanks = merged("cảm ơn bạn nhiều", answered)
    assert thanks.turn_type == "smalltalk" and thanks.drugs == []
    f = merged("thế còn em nó 3 tuổi 14 ký", thanks)
    assert (f.turn_type, f.drugs, f.age_months, f.weight_kg, f.person) == (
        "dosing_calc", ["ibuprofen"], 36, 14, "em nó")


def test_thanks_in_between_does_not_let_the_older_childs_values_reach_the_sibling() -> None:
    thanks = merged("cảm ơn", understand("liều paracetamol cho bé 2 tuổi nặng 10,1 kg bị suy thận uống"))
    f = merged("còn em nó thì sao?", thanks)
    assert (f.weight_kg, f.age_months, f.renal, f.person) == (None, None, None, "em nó")


def test_another_patient_group_in_a_follow_up_replaces_the_earlier_context() -> None:
    f = merged("còn người suy gan thì sao", understand("metformin cho người suy thận được không"))
    assert (f.drugs, f.hepatic, f.renal) == (["metformin"], "suy gan", None)


@pytest.mark.parametrize(("text", "label", "population"), [
    ("em đau đầu uống paracetamol được không", None, None),  # the user in pain, not "em dâu" (#18 held-out H253)
    ("em ho nhiều quá", None, None),  # coughing, not "em họ"
    ("thế chị dâu tôi gan bình thường, nặng 45kg thì sao", "chị dâu tôi", "adult"),  # married in: adult (H252)
    ("anh rể tôi 40 tuổi", "anh rể tôi", "adult"),
    ("em họ tôi 20 tuổi", "em họ tôi", None),
])
def test_kin_read_with_its_diacritics(text: str, label: str | None, population: str | None) -> None:
    person = person_of(text)
    assert (person.label if person else None) == label
    assert (person.population if person else None) == population
