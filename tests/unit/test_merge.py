"""Frame merge replays multi-turn exchanges: short replies fill the pending question, follow-ups keep the drug."""

from __future__ import annotations

import pytest

from states.followup import asks_which_route, has_anaphora
from states.frame import Pending, QueryFrame
from states.merge import is_correction, merge_frames
from states.slots import extract_slots, taken_back
from tests.unit.understanding_kit import fixture_engine, merged, understand

POPULATION = Pending(reason="missing_population", missing=["population"], quick_replies=["Người lớn", "Trẻ em"])
AGE_WEIGHT = Pending(reason="missing_pediatric_age_or_weight", missing=["age", "weight"])
AGE = Pending(reason="missing_pediatric_age_or_weight", missing=["age"])
ATTRIBUTE = Pending(reason="missing_attribute", missing=["attribute"])
ROUTE = Pending(reason="ambiguous_route", missing=["route"],
                quick_replies=["Uống", "Đặt trực tràng", "Tiêm/truyền tĩnh mạch"])


def test_dose_then_population_then_weight_then_age_builds_one_pediatric_dose_question() -> None:
    f = understand("Liều paracetamol?")
    assert (f.turn_type, f.drugs, f.population) == ("dosing_calc", ["paracetamol"], None)
    f = merged("Trẻ em", f, POPULATION)
    assert (f.turn_type, f.drugs, f.section_key, f.population) == (
        "dosing_calc", ["paracetamol"], "lieu_luong_cach_dung", "pediatric")
    f = merged("18 kg", f, AGE_WEIGHT)
    assert (f.population, f.weight_kg, f.age_months) == ("pediatric", 18, None)
    f = merged("5 tuổi", f, AGE)
    assert (f.drugs, f.turn_type, f.population, f.weight_kg, f.age_months) == (
        ["paracetamol"], "dosing_calc", "pediatric", 18, 60)


def test_a_route_chip_fills_the_route_and_keeps_the_dose_question() -> None:
    prior = understand("Liều paracetamol cho trẻ 5 tuổi 18 kg")
    for chip, route in (("Uống", "oral"), ("Đặt trực tràng", "rectal"), ("Tiêm/truyền tĩnh mạch", "iv")):
        f = merged(chip, prior, ROUTE)
        assert (f.drugs, f.turn_type, f.route, f.age_months, f.weight_kg) == (
            ["paracetamol"], "dosing_calc", route, 60, 18)


def test_an_attribute_chip_fills_the_question_about_the_same_drug() -> None:
    prior = understand("Paracetamol có tốt không?")
    f = merged("Chống chỉ định", prior, ATTRIBUTE)
    assert (f.turn_type, f.drugs, f.section_key) == ("drug_attribute", ["paracetamol"], "chong_chi_dinh")
    f = merged("Liều dùng", prior, ATTRIBUTE)
    assert (f.turn_type, f.drugs, f.section_key) == ("dosing_calc", ["paracetamol"], "lieu_luong_cach_dung")


def test_a_reply_that_fills_nothing_returns_the_prior_frame_so_the_machine_asks_again() -> None:
    prior = understand("Liều paracetamol cho trẻ em?")
    once = merged("không biết", prior, AGE_WEIGHT)
    assert once.model_copy(update={"unanswered": 0}) == prior and once.unanswered == 1
    twice = merged("hmm", once, AGE_WEIGHT)
    assert twice.model_copy(update={"unanswered": 0}) == prior and twice.unanswered == 2


def test_after_an_answer_còn_trẻ_em_thì_sao_switches_population_and_clears_age_and_weight() -> None:
    prior = understand("Liều amoxicilin cho người lớn 60 kg?")
    f = merged("còn trẻ em thì sao?", prior)
    assert (f.turn_type, f.drugs, f.section_key, f.population) == (
        "dosing_calc", ["amoxicilin"], "lieu_luong_cach_dung", "pediatric")
    assert f.weight_kg is None and f.age_months is None
    back = merged("còn người lớn?", f)
    assert (back.drugs, back.population) == (["amoxicilin"], "adult")


def test_after_an_answer_a_route_follow_up_keeps_patient_and_question() -> None:
    prior = understand("Liều paracetamol cho trẻ 5 tuổi 18 kg")
    f = merged("còn đặt hậu môn thì sao?", prior)
    assert (f.drugs, f.turn_type, f.route, f.age_months, f.weight_kg) == (["paracetamol"], "dosing_calc", "rectal",
                                                                          60, 18)


@pytest.mark.parametrize("turn", ["nếu bé nôn thì dùng đường nào", "neu be non thi dung duong nao",
                                  "bé nôn thì cho dùng bằng đường gì"])
def test_which_route_after_the_oral_dose_is_the_same_dose_question_with_the_route_open(turn: str) -> None:
    # Not a lookup of drugs for "nếu bé nôn thì dùng đ" (#18): the same drug and child, the route to be chosen among
    # those the book doses.
    prior = understand("Liều paracetamol uống cho trẻ 5 tuổi 18 kg")
    f = merged(turn, prior)
    assert (f.drugs, f.turn_type, f.route, f.route_family, f.age_months, f.weight_kg) == (
        ["paracetamol"], "dosing_calc", None, None, 60, 18)


def test_a_word_folding_to_which_route_is_not_the_question() -> None:
    # "dương" (positive) and "não" (brain) typed with their diacritics are other words than "đường nào".
    assert not asks_which_route("xét nghiệm dương não")
    assert asks_which_route("dùng đường nào được")


def test_còn_aspirin_thì_sao_keeps_the_question_and_switches_the_drug() -> None:
    prior = understand("Chống chỉ định của ibuprofen?")
    f = merged("còn aspirin thì sao?", prior)
    assert (f.turn_type, f.drugs, f.section_key) == ("drug_attribute", ["acid_acetylsalicylic"], "chong_chi_dinh")


def test_với_x_thì_sao_after_an_interaction_question_pairs_the_new_drug_with_the_first() -> None:
    prior = understand("Uống warfarin với aspirin được không?")
    f = merged("còn với ibuprofen thì sao?", prior)
    assert (f.turn_type, f.drugs) == ("interaction", ["warfarin", "ibuprofen"])
    single = understand("Warfarin có tương tác với thuốc nào?")
    f = merged("với aspirin thì sao?", single)
    assert (f.turn_type, f.drugs, f.section_key) == ("interaction", ["warfarin", "acid_acetylsalicylic"],
                                                     "tuong_tac_thuoc")


def test_a_new_question_without_a_drug_keeps_the_drug() -> None:
    prior = understand("Tác dụng phụ của warfarin là gì?")
    for text, key in (("thế còn chống chỉ định?", "chong_chi_dinh"),
                      ("thuốc này bà bầu dùng được không?", "thoi_ky_mang_thai"),
                      ("quá liều thì xử trí thế nào?", "qua_lieu_xu_tri")):
        f = merged(text, prior)
        assert (f.drugs, f.section_key, f.turn_type) == (["warfarin"], key, "drug_attribute")


def test_a_new_drug_mid_clarify_starts_a_fresh_frame() -> None:
    prior = understand("Liều paracetamol cho trẻ em?")
    f = merged("Chống chỉ định của omeprazol?", prior, AGE_WEIGHT)
    assert (f.turn_type, f.drugs, f.section_key, f.population) == (
        "drug_attribute", ["omeprazol"], "chong_chi_dinh", None)
    f = merged("Liều ibuprofen cho người lớn", prior, AGE_WEIGHT)
    assert (f.drugs, f.population) == (["ibuprofen"], "adult")


def test_a_drug_named_in_answer_to_which_drug_fills_it_and_keeps_the_patient() -> None:
    prior = understand("Tôi 65 tuổi bị suy thận nhẹ")
    f = merged("metformin", prior, Pending(reason="no_drug", missing=["drug"]))
    assert (f.drugs, f.population, f.age_months, f.renal) == (["metformin"], "adult", 780, "suy thận nhẹ")


def test_smalltalk_out_of_scope_and_animal_turns_are_never_merged_into_the_question() -> None:
    prior = understand("Liều paracetamol cho trẻ em?")
    for text in ("cảm ơn nhé", "Hôm nay thời tiết Hà Nội thế nào?", "Liều paracetamol cho chó 10kg"):
        f = merged(text, prior, AGE_WEIGHT)
        assert f.model_copy(update={"kept": None, "kept_pending": None}) == understand(text, awaiting=True)
        assert f.turn_type in ("smalltalk", "out_of_scope")
        # The question is kept aside for a later follow-up, never merged into this turn.
        assert f.non_human or (f.kept or {}).get("drugs") == ["paracetamol"]


def test_an_animal_subject_persists_into_a_follow_up_that_names_no_human() -> None:
    prior = understand("Con chó nhà tôi nặng 10kg bị đau chân")
    f = merged("cho nó uống paracetamol được không?", prior)
    assert (f.turn_type, f.non_human, f.drugs) == ("out_of_scope", True, ["paracetamol"])
    f = merged("liều paracetamol bao nhiêu?", understand("Mèo nhà tôi bị sốt"))
    assert (f.turn_type, f.non_human) == ("out_of_scope", True)


def test_naming_a_human_after_an_animal_question_asks_the_dose_for_the_human() -> None:
    prior = understand("Liều paracetamol cho chó 10kg")
    f = merged("thế còn cho người lớn thì sao?", prior)
    assert (f.turn_type, f.drugs, f.section_key, f.population, f.non_human, f.weight_kg) == (
        "dosing_calc", ["paracetamol"], "lieu_luong_cach_dung", "adult", False, None)


def test_without_a_prior_frame_the_new_frame_is_returned_as_is() -> None:
    new = understand("Liều paracetamol cho trẻ em?")
    assert merge_frames(new, None, None, "Liều paracetamol cho trẻ em?") is new


def test_a_merged_frame_is_settled_and_never_more_confident_than_its_parts() -> None:
    prior = QueryFrame(turn_type="dosing_calc", drugs=["paracetamol"], section_key="lieu_luong_cach_dung",
                       population="pediatric", confidence=0.7, needs_clarify=True, clarify_reason="x")
    f = merged("18 kg", prior, AGE_WEIGHT)
    assert not f.needs_clarify and f.clarify_reason is None and f.confidence <= 0.7


def test_the_machine_replays_the_pediatric_dose_conversation_to_an_answer() -> None:
    engine = fixture_engine()
    first = engine.handle("Liều paracetamol cho trẻ em?")
    assert (first.outcome, first.reason) == ("clarify", "missing_pediatric_age_or_weight")
    second = engine.handle("Bé nặng 18 kg", first.conversation_id)
    assert second.outcome == "clarify" and "18 kg" in second.reply
    third = engine.handle("không biết", first.conversation_id)
    assert third.outcome == "clarify" and "18 kg" in third.reply  # the same question, asked again
    fourth = engine.handle("5 tuổi", first.conversation_id)
    assert fourth.frame is not None
    assert fourth.frame["age_months"] == 60 and fourth.frame["weight_kg"] == 18
    assert (fourth.outcome, fourth.reason) == ("clarify", "ambiguous_route")  # the fixture has three routes
    assert "Uống" in fourth.quick_replies
    fifth = engine.handle("Uống", first.conversation_id)
    assert fifth.outcome == "answerable"
    assert all(c.doc_id.startswith("paracetamol__lieu_luong_cach_dung") for c in fifth.citations)
    assert "Trẻ em" in fifth.reply
    sixth = engine.handle("còn người lớn thì sao?", first.conversation_id)
    assert sixth.outcome == "answerable" and "Người lớn" in sixth.reply


def test_a_substitute_named_after_an_interaction_answer_is_paired_with_the_drug_the_patient_takes() -> None:
    """"Vậy dùng paracetamol thay thế có được không?" after "đang điều trị warfarin … uống ibuprofen được không?":
    paracetamol takes ibuprofen's place beside warfarin — the question is paracetamol × warfarin."""
    prior = understand("Bệnh nhân đang điều trị warfarin vì rung nhĩ, bị đau răng. Uống ibuprofen được không?")
    assert prior.turn_type == "interaction" and prior.drugs[0] == "warfarin"
    for text in ("Vậy dùng paracetamol thay thế có được không?", "đổi sang paracetamol được không?",
                 "thay bằng paracetamol thì sao?"):
        f = merged(text, prior)
        assert (f.turn_type, f.drugs, f.section_key) == ("interaction", ["warfarin", "paracetamol"],
                                                         "tuong_tac_thuoc"), text


def test_a_substitute_after_a_dose_answer_keeps_the_question_for_the_new_drug() -> None:
    prior = understand("Liều ibuprofen cho người lớn?")
    f = merged("Dùng paracetamol thay thế thì liều thế nào?", prior)
    assert (f.drugs, f.turn_type, f.population) == (["paracetamol"], "dosing_calc", "adult")


def test_a_question_that_only_mentions_a_replacement_word_in_passing_is_not_a_substitution() -> None:
    """"thay thế" inside a fresh, complete question about another drug does not pull the old pair in."""
    prior = understand("Uống warfarin với aspirin được không?")
    f = merged("Chống chỉ định của omeprazol?", prior)
    assert (f.drugs, f.section_key) == (["omeprazol"], "chong_chi_dinh")


def test_thanks_around_a_question_is_the_question_how_many_days_keeps_drug_and_patient() -> None:
    """"dạ cảm ơn bác sĩ, thế uống mấy ngày ạ?" asks the course length (written in the dosage section) of the same
    drug for the same child — not a thank-you to answer with a pleasantry."""
    prior = understand("Azithromycin cho bé 5 tuổi 18 kg uống liều sao")
    f = merged("dạ cảm ơn bác sĩ, thế uống mấy ngày ạ?", prior)
    assert (f.turn_type, f.section_key, f.drugs) == ("dosing_calc", "lieu_luong_cach_dung", ["azithromycin"])
    assert (f.age_months, f.weight_kg) == (60, 18)
    assert understand("dạ cảm ơn").turn_type == "smalltalk"


def test_another_person_who_also_has_it_keeps_the_illness_not_the_values() -> None:
    prior = understand("metronidazol trị giardia cho bé 5 tuổi 18kg, uống")
    sibling = merged("em nó 2 tuổi 12 ký cũng bị thì sao", prior)
    assert (sibling.condition, sibling.age_months, sibling.weight_kg) == (prior.condition, 24, 12)
    father = merged("bố tụi nhỏ cũng bị giardia, uống sao", sibling)
    assert (father.population, father.age_months, father.weight_kg) == ("adult", None, None)
    assert father.condition is not None and "giardia" in father.condition


def test_another_person_s_own_illness_named_in_the_turn_is_their_indication() -> None:
    prior = understand("omeprazol tiêm tĩnh mạch cho bé 10 tuổi 30 ký")
    f = merged("còn bà nội bé bị loét dạ dày, uống thì sao", prior)
    assert (f.population, f.condition, f.route, f.weight_kg) == ("adult", "loét dạ dày", "oral", None)


def test_a_population_reply_that_also_names_the_illness_keeps_it_as_the_indication() -> None:
    f = merged("Người lớn, viêm họng mức độ nhẹ, đường uống.", understand("Liều paracetamol?"), POPULATION)
    assert (f.population, f.route, f.condition) == ("adult", "oral", "viêm họng mức độ nhẹ")


def test_near_miss_a_population_reply_with_chat_words_names_no_indication() -> None:
    f = merged("Người lớn ạ, uống thôi, tôi đã nói rồi", understand("Liều paracetamol?"), POPULATION)
    assert f.population == "adult" and f.condition is None


def test_a_pronoun_after_a_list_of_several_drugs_asks_which_offering_the_listed_drugs() -> None:
    # Written before running: the fixture's "Chỉ định" names "bệnh Lyme" for ceftriaxon and amoxicilin only, so
    # "thuốc đó" after that list is one of those two — asked, the two as quick replies, never another drug.
    engine = fixture_engine()
    listed = engine.handle("bệnh Lyme thì dùng thuốc gì")
    assert listed.outcome == "answerable" and listed.frame is not None
    assert set(listed.frame["listed"]) == {"ceftriaxon", "amoxicilin"}
    asked = engine.handle("thuốc đó tiêm cho người lớn liều bao nhiêu?", listed.conversation_id)
    assert (asked.outcome, asked.reason) == ("clarify", "no_drug")
    assert set(asked.quick_replies) == {"Ceftriaxon", "Amoxicilin"}
    other = engine.handle("paracetamol người lớn uống bao nhiêu", listed.conversation_id)
    assert other.frame is not None and other.frame["listed"] == []


INDICATION = Pending(reason="ambiguous_indication", missing=["condition"], quick_replies=["Loét tá tràng", "Loét dạ dày"])


def test_a_whole_new_question_after_which_indication_is_not_read_whole_as_the_indication() -> None:
    prior = understand("Liều omeprazol cho người lớn?")
    short = merged("loét dạ dày", prior, INDICATION)
    assert short.condition == "loét dạ dày"  # the answer to the question asked
    long = merged("Còn con tôi 10 tuổi, 30 kg, cũng đang bị trào ngược dạ dày thực quản thì sao?", prior, INDICATION)
    assert long.condition is not None and "10 tuổi" not in long.condition and "con tôi" not in long.condition


def test_a_sibling_named_with_it_is_a_person_not_the_drug() -> None:
    # "em nó" is the patient's younger sibling: "nó" there is a person, so the turn's drug is not read as an
    # interaction partner of the drug discussed before (it answered ibuprofen + paracetamol).
    assert not has_anaphora("em nó 4 tháng nặng 7 kg cũng sốt, cho uống paracetamol bao nhiêu")
    assert not has_anaphora("me no uong chung paracetamol")
    assert has_anaphora("còn nó uống chung với amlodipin được không")
    assert has_anaphora("nó uống chung với amlodipin được không")


def test_a_value_taken_back_in_the_same_turn_is_one_corrected_value() -> None:
    slots = extract_slots("18 kg... à không, 21 kg")
    assert (slots.weight_kg, slots.rejected) == (21.0, [])
    assert taken_back("18 kg... à không, 21 kg") == ["Đã sửa cân nặng: 21 kg (thay cho 18 kg)."]
    # A weight, then another slot's correction: both stand ("24 cân, à nhầm 8 tuổi chứ không phải 2").
    both = extract_slots("24 cân, à nhầm 8 tuổi chứ không phải 2")
    assert (both.weight_kg, both.age_months) == (24.0, 96.0)


def test_sai_roi_and_go_nham_correct_the_age_and_keep_the_weight() -> None:
    assert is_correction("sai rồi, bé mới 6 tuổi thôi")
    assert is_correction("em gõ nhầm, bé 14 tháng")
    prior = merged("ibuprofen uống bé 8 tuổi 26 kg", None)
    f = merged("sai rồi, bé mới 6 tuổi thôi", prior)
    assert (f.age_months, f.weight_kg, f.drugs) == (72.0, 26.0, ["ibuprofen"])
    # Another child is still another child: the weight of the first is not reused.
    other = merged("còn bé 2 tuổi thì sao", prior)
    assert other.weight_kg is None


def test_an_age_and_weight_after_the_overview_ask_the_dose() -> None:
    prior = merged("cetirizin", None)
    f = merged("bé 8 tuổi 25 ký", prior)
    assert (f.turn_type, f.section_key, f.drugs) == ("dosing_calc", "lieu_luong_cach_dung", ["cetirizin"])
    assert (f.age_months, f.weight_kg) == (96.0, 25.0)


def test_a_greeting_around_the_answer_to_what_about_the_drug_asks_the_dose() -> None:
    prior = merged("cetirizin xanh đỏ tím vàng", None)
    pending = Pending(reason="missing_attribute", missing=["attribute"])
    f = merged("chào bạn, bé 7 tuổi 23 ký nhé", prior, pending)
    assert (f.turn_type, f.age_months, f.weight_kg) == ("dosing_calc", 84.0, 23.0)


def test_the_contraindications_asked_for_a_child_stay_the_contraindications() -> None:
    prior = merged("chống chỉ định của ibuprofen", None)
    assert merged("bé 8 tuổi 25 ký", prior).section_key == "chong_chi_dinh"


def test_another_route_while_the_indication_is_asked_keeps_the_indication() -> None:
    prior = merged("ceftriaxon tiêm tĩnh mạch cho người lớn viêm phổi liều?", None)
    pending = Pending(reason="ambiguous_indication", missing=["condition"])
    f = merged("thế tiêm bắp thì sao", prior, pending)
    assert (f.route, f.condition) == ("im", "viêm phổi")


@pytest.mark.parametrize("text", ["bé 6 tuổi mà, sai rồi", "nhập sai, bé 6 tuổi", "nhầm nhé, cháu mới 6t"])
def test_correction_cues_before_or_after_the_value(text: str) -> None:
    assert is_correction(text)
    assert extract_slots(text).age_months == 72.0


def test_a_correction_with_no_value_read_is_not_answered_with_the_old_values() -> None:
    prior = merged("ibuprofen uống bé 8 tuổi 26 kg", None)
    f = merged("nhầm rồi, cháu mới sáu tủi", prior)
    assert f.turn_type != "dosing_calc" and f.needs_clarify
    # A correction that is read is answered.
    assert merged("nhầm rồi, cháu mới 6 tuổi", prior).turn_type == "dosing_calc"


def test_a_route_the_patient_cannot_take_is_refused_even_when_none_was_said_before() -> None:
    # After the child's ibuprofen dose (no route said), "không uống được" must still keep the oral dose from being
    # given again: the book doses ibuprofen by mouth only (#18).
    from states.dosing import route_not_documented

    prior = understand("Liều ibuprofen cho trẻ 5 tuổi 18 kg")
    f = merged("bé bị nôn không uống được thì sao", prior)
    assert (f.drugs, f.route, f.routes_unusable, f.age_months, f.weight_kg) == (["ibuprofen"], None, ["oral"], 60, 18)
    assert route_not_documented(f, ["oral"])
    assert not route_not_documented(f, ["oral", "rectal"])


def test_a_route_the_patient_cannot_take_said_in_the_first_turn_is_refused() -> None:
    # "nôn không uống được" in the very first turn, before any dose: the oral route is as unusable as in a follow-up,
    # and ibuprofen, dosed by mouth only in the book, gets no dose (#18).
    from states.dosing import route_not_documented

    f = merged("bé 4 tuổi 16kg nôn không uống được, ibuprofen liều sao", None)
    assert (f.drugs, f.route, f.routes_unusable, f.age_months, f.weight_kg) == (["ibuprofen"], None, ["oral"], 48, 16)
    assert route_not_documented(f, ["oral"])
    assert not route_not_documented(f, ["oral", "rectal", "iv"])
    # A route said and not refused stays the route asked.
    f = merged("bé 4 tuổi 16kg nôn không uống được, paracetamol đặt trực tràng liều sao", None)
    assert f.route == "rectal"


def test_a_sore_throat_before_uong_is_no_refused_route() -> None:
    # "viêm họng uống …" folds to "hong uong", the southern "hông uống" (cannot take by mouth): as typed with its
    # diacritics it is the throat, and the oral dose asked is given; typed "hông"/"hong" it is still a refusal.
    f = merged("người lớn viêm họng uống amoxicilin liều bao nhiêu", None)
    assert (f.route, f.routes_unusable) == ("oral", [])
    assert merged("bé nôn hông uống được, ibuprofen liều sao", None).routes_unusable == ["oral"]
