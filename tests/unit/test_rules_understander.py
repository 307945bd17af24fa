"""The rules understander reads Vietnamese turns (with or without diacritics) into the frame the machine routes."""

from __future__ import annotations

import pytest

from core.budget import RequestBudget
from retrieval.section_router import route_section
from states.frame import Pending
from states.scope import looks_non_human
from states.synthesis import synthesize_query
from states.understander import UnderstandingRequest
from tests.unit.understanding_kit import RESOLVER, RULES, understand


def test_a_pediatric_dose_question_carries_population_age_and_weight() -> None:
    f = understand("Liều paracetamol cho bé 5 tuổi 18kg")
    assert (f.turn_type, f.drugs, f.section_key) == ("dosing_calc", ["paracetamol"], "lieu_luong_cach_dung")
    assert (f.population, f.age_months, f.age_text, f.weight_kg) == ("pediatric", 60, "5 tuổi", 18)


def test_the_understander_protocol_returns_a_rules_frame_without_provider_output() -> None:
    text = "lieu paracetamol cho tre em"
    understood = RULES.understand(UnderstandingRequest(text=text, candidates=RESOLVER.resolve(text)),
                                  RequestBudget())
    assert understood.provider_output is None
    assert understood.frame.understood_by == "rules"
    assert understood.frame.population == "pediatric"


def test_only_the_resolver_candidates_become_drug_ids() -> None:
    text = "Liều paracetamol cho người lớn"
    f = RULES.parse(text, RESOLVER.resolve("Liều ibuprofen"))
    assert f.drugs == ["ibuprofen"]


@pytest.mark.parametrize(
    ("text", "months"),
    [("bé 5 tuổi", 60), ("cháu 18 tháng", 18), ("trẻ 3 tháng tuổi", 3), ("be 5t", 60), ("5 tuổi", 60),
     ("18 tháng", 18), ("bé 10 ngày tuổi", 0.33)],
)
def test_ages_are_normalised_to_months(text: str, months: float) -> None:
    f = understand(text)
    assert f.age_months == pytest.approx(months, abs=0.01)
    assert f.population == "pediatric"


def test_a_pregnancy_duration_is_not_an_age() -> None:
    f = understand("Mang thai 3 tháng đầu có dùng metronidazol được không?")
    assert f.age_months is None
    assert f.pregnant
    assert f.section_key == "thoi_ky_mang_thai"


@pytest.mark.parametrize(
    ("text", "population"),
    [("Tôi 30 tuổi uống Panadol mấy viên?", "adult"), ("con tôi 8 tuổi uống Panadol mấy viên", "pediatric"),
     ("bé uống Panadol mấy viên", "pediatric"), ("cháu uống Panadol mấy viên", "pediatric"),
     ("người lớn uống Panadol mấy viên", "adult"), ("Panadol uống mấy viên", None),
     ("Mẹ cho con bú uống ciprofloxacin có ảnh hưởng đến bé không?", "adult"),
     ("Liều cho người lớn và trẻ em", None)],
)
def test_population_is_stated_or_implied_by_subject_and_age(text: str, population: str | None) -> None:
    assert understand(text).population == population


@pytest.mark.parametrize(
    ("text", "kg"),
    [("bé nặng 18 kg", 18), ("18kg", 18), ("bé 18 ký", 18), ("bé 18 cân", 18), ("12,5 kg", 12.5),
     ("nang 14 kg", 14)],
)
def test_weights_are_read_in_every_unit_people_type(text: str, kg: float) -> None:
    assert understand(text).weight_kg == kg


def test_a_mg_per_kg_rule_is_not_a_weight() -> None:
    assert understand("liều paracetamol 15 mg/kg cho trẻ em").weight_kg is None


@pytest.mark.parametrize(
    ("text", "route"),
    [("Uống", "oral"), ("đặt hậu môn", "rectal"), ("Đặt trực tràng", "rectal"), ("tiêm tĩnh mạch", "iv"),
     ("Tiêm/truyền tĩnh mạch", "iv"), ("truyền", "iv"), ("tiêm bắp", "im"), ("tiêm dưới da", "sc"),
     ("bôi ngoài da", "topical"), ("khí dung", "inhaled"), ("ventolin xit", "inhaled"),
     ("uống hay đặt hậu môn", None), ("Thận trọng khi dùng digoxin", None)],
)
def test_routes_map_to_the_frame_codes(text: str, route: str | None) -> None:
    assert understand(text).route == route


def test_patient_context_is_extracted() -> None:
    f = understand("Tôi bị suy gan, độ thanh thải creatinin 30 ml/phút, có bệnh nền đái tháo đường, "
                   "đang cho con bú; liều metformin bao nhiêu?")
    assert f.hepatic == "suy gan"
    assert f.renal == "độ thanh thải creatinin 30 ml/phút"
    assert f.comorbidities == ["đái tháo đường"]
    assert f.breastfeeding
    assert f.has_patient_context


@pytest.mark.parametrize(
    ("text", "kind", "condition"),
    [("Thuốc nào trị tăng huyết áp?", "condition_to_drug", "tăng huyết áp"),
     ("Bệnh gút dùng thuốc gì?", "condition_to_drug", "gút"),
     ("thuoc tri dai thao duong type 2", "condition_to_drug", "dai thao duong"),
     ("Bị sốt uống thuốc gì?", "symptom_to_drug", "sốt"),
     ("con toi bi sot 39 do nen uong gi", "symptom_to_drug", "sot"),
     ("Đau lưng uống thuốc gì giảm đau?", "symptom_to_drug", "Đau lưng"),
     ("Uống thuốc gì khi bị cảm cúm", "symptom_to_drug", "cảm cúm")],
)
def test_condition_and_symptom_lookups_carry_the_condition_as_written(text: str, kind: str, condition: str) -> None:
    f = understand(text)
    assert (f.turn_type, f.condition, f.condition_relation, f.drugs) == (kind, condition, "indication", [])


def test_a_symptom_lookup_for_a_pregnant_patient_keeps_the_context_for_the_safety_review() -> None:
    f = understand("bà bầu bị sốt uống thuốc gì")
    assert (f.turn_type, f.condition, f.pregnant) == ("symptom_to_drug", "sốt", True)


@pytest.mark.parametrize(
    ("text", "section", "relation"),
    [("Thuốc nào gây suy thận?", "tac_dung_khong_mong_muon", "adverse_effect"),
     ("thuoc nao chong chi dinh cho nguoi suy gan", "chong_chi_dinh", "contraindication")],
)
def test_reverse_relations_are_condition_relation_turns_with_a_section(text: str, section: str,
                                                                        relation: str) -> None:
    f = understand(text)
    assert (f.turn_type, f.section_key, f.condition_relation) == ("condition_relation", section, relation)


@pytest.mark.parametrize("text", ["Xin chào", "chao ban", "Cảm ơn bạn nhiều!", "Bạn là ai?", "ok cảm ơn"])
def test_greetings_and_thanks_are_smalltalk(text: str) -> None:
    assert understand(text).turn_type == "smalltalk"


@pytest.mark.parametrize("text", ["Hôm nay thời tiết Hà Nội thế nào?", "viet giup toi ham python sap xep mang",
                                  "Giá thuốc Panadol bao nhiêu tiền"])
def test_questions_outside_the_formulary_are_out_of_scope(text: str) -> None:
    assert understand(text).turn_type == "out_of_scope"


@pytest.mark.parametrize(
    "text",
    ["Liều paracetamol cho chó 10kg", "con cho nha toi 8kg uong amoxicilin bao nhieu", "Mèo uống Panadol có sao không?",
     "Gà bị khò khè dùng thuốc gì?", "thu cung bi tieu chay"],
)
def test_animal_subjects_are_out_of_scope_and_still_list_their_drugs(text: str) -> None:
    f = understand(text)
    assert f.non_human and f.turn_type == "out_of_scope" and f.section_key is None
    assert f.drugs == RESOLVER.resolve(text).drug_ids


@pytest.mark.parametrize("text", ["vay con cho con bu", "cho con bu dung amlodipin duoc khong", "cho be uong gi",
                                  "meo chua ho cho be"])
def test_unaccented_phrases_about_children_are_not_animals(text: str) -> None:
    assert not looks_non_human(text)


def test_two_named_drugs_are_an_interaction_even_when_one_is_not_in_the_formulary() -> None:
    f = understand("warfarin voi tramadol uong chung duoc khong")
    assert (f.turn_type, f.drugs, f.unknown_drugs, f.section_key) == (
        "interaction", ["warfarin"], ["tramadol"], "tuong_tac_thuoc")


def test_drugs_are_listed_in_the_order_the_turn_names_them() -> None:
    assert understand("Gofen với Voltaren uống chung được không").drugs == ["ibuprofen", "diclofenac"]


def test_an_unknown_drug_question_keeps_its_turn_type_and_section() -> None:
    f = understand("Tramadol chống chỉ định cho ai?")
    assert (f.turn_type, f.drugs, f.unknown_drugs, f.section_key) == (
        "drug_attribute", [], ["Tramadol"], "chong_chi_dinh")


def test_the_strength_of_a_tablet_is_not_a_dose() -> None:
    assert understand("Viên Hapacol bao nhiêu mg?").section_key == "dang_thuoc_ham_luong"
    assert understand("Hapacol cho bé 3 tuổi uống bao nhiêu mg?").turn_type == "dosing_calc"


def test_an_overdose_question_is_an_attribute_of_the_overdose_section() -> None:
    f = understand("Lỡ uống 10 viên Panadol một lúc phải làm gì?")
    assert (f.turn_type, f.section_key) == ("drug_attribute", "qua_lieu_xu_tri")


def test_confidence_is_high_for_explicit_phrasing_and_low_when_guessing() -> None:
    sure = understand("Chống chỉ định của ibuprofen là gì?")
    guess = understand("Paracetamol có tốt không?")
    nothing = understand("hmm", awaiting=True)
    assert sure.confidence >= 0.9
    assert guess.turn_type == "drug_attribute" and guess.section_key is None and guess.confidence <= 0.5
    assert nothing.confidence <= 0.3
    assert all(0 <= f.confidence <= 1 for f in (sure, guess, nothing))


def test_a_fuzzy_drug_match_lowers_confidence() -> None:
    assert understand("tac dung phu cua ibuprofene").confidence < understand("tac dung phu cua ibuprofen").confidence


def test_a_reply_that_says_nothing_while_awaiting_an_answer_is_not_out_of_scope() -> None:
    assert understand("tôi không biết nữa", awaiting=True).turn_type != "out_of_scope"


@pytest.mark.parametrize(
    ("text", "key"),
    [("chống chỉ định", "chong_chi_dinh"), ("chong chi dinh", "chong_chi_dinh"), ("liều dùng cho trẻ", "lieu_luong_cach_dung"),
     ("uống mấy viên", "lieu_luong_cach_dung"), ("tác dụng phụ", "tac_dung_khong_mong_muon"),
     ("có dùng cho bà bầu được không", "thoi_ky_mang_thai"), ("cho con bú", "thoi_ky_cho_con_bu"),
     ("tương tác", "tuong_tac_thuoc"), ("quá liều", "qua_lieu_xu_tri"), ("bảo quản", "do_on_dinh_bao_quan"),
     ("biệt dược", "ten_thuong_mai"), ("tên thương mại", "ten_thuong_mai"), ("mã ATC", "ma_atc"),
     ("thuộc nhóm gì", "loai_thuoc"), ("hàm lượng", "dang_thuoc_ham_luong"), ("dạng thuốc", "dang_thuoc_ham_luong"),
     ("cơ chế tác dụng", "duoc_ly_co_che"), ("tương kỵ", "tuong_ky"), ("thận trọng", "than_trong"),
     ("xử trí ADR", "huong_dan_xu_tri_adr"), ("thông tin quy chế", "thong_tin_quy_che"),
     ("tên chung quốc tế", "ten_chung_quoc_te"), ("dùng để làm gì", "chi_dinh")],
)
def test_the_section_router_maps_phrasing_to_a_section_with_confidence(text: str, key: str) -> None:
    route = route_section(text)
    assert route is not None and route.key == key
    assert 0 < route.confidence <= 1


def test_the_section_router_names_no_section_for_a_bare_name() -> None:
    assert route_section("paracetamol") is None


def test_the_synthesized_query_folds_the_frame_into_one_self_contained_question() -> None:
    f = understand("Liều paracetamol cho bé 5 tuổi 18kg uống")
    query = synthesize_query(f, "Liều paracetamol cho bé 5 tuổi 18kg uống")
    assert query == ("Liều paracetamol cho bé 5 tuổi 18kg uống. Đối tượng: trẻ em. Tuổi: 5 tuổi. "
                     "Cân nặng: 18 kg. Đường dùng: uống.")


def test_a_merged_short_reply_synthesizes_the_drug_and_question_it_continues() -> None:
    from tests.unit.understanding_kit import merged

    prior = understand("Liều paracetamol cho trẻ em?")
    f = merged("5 tuổi", prior, Pending(reason="missing_pediatric_age_or_weight", missing=["age", "weight"]))
    query = synthesize_query(f, "5 tuổi")
    assert query.startswith("5 tuổi. Thuốc: paracetamol. Mục: Liều lượng và cách dùng.")
    assert "Đối tượng: trẻ em. Tuổi: 5 tuổi." in query


@pytest.mark.parametrize("text", [
    "Bệnh nhân 60 tuổi đang uống aspirin 81 mg mỗi ngày để dự phòng tim mạch, bị đau khớp gối muốn dùng thêm "
    "ibuprofen. Uống thế nào cho đúng?",
    "Đang dùng warfarin, uống kèm với paracetamol liều thế nào?",
    "Phối hợp amlodipin với simvastatin thì dùng liều ra sao?",
])
def test_two_drugs_taken_together_are_an_interaction_even_when_the_turn_asks_how_to_take_them(text: str) -> None:
    """Adding a second drug to one already taken is a question about the pair (timing, spacing, a lower ceiling
    stated in the interaction text); showing each drug's own dosage section would leave out what matters."""
    f = understand(text)
    assert (f.turn_type, f.section_key, len(f.drugs)) == ("interaction", "tuong_tac_thuoc", 2), text


def test_two_drugs_dosed_for_one_patient_without_a_co_use_cue_stay_a_dose_question() -> None:
    f = understand("Liều paracetamol và ibuprofen cho trẻ 5 tuổi 18 kg?")
    assert f.turn_type == "dosing_calc"


@pytest.mark.parametrize(("text", "section"), [
    ("em bầu 8 tháng đau răng uống ibuprofen được không ạ", "thoi_ky_mang_thai"),
    ("chị tôi có bầu 7 tháng, đau đầu uống ibuprofen được không", "thoi_ky_mang_thai"),
    ("đang cho con bú, đau đầu uống ibuprofen có sao không", "thoi_ky_cho_con_bu"),
])
def test_may_a_pregnant_or_nursing_woman_take_it_reads_that_section_not_the_indications(text: str,
                                                                                      section: str) -> None:
    f = understand(text)
    assert (f.turn_type, f.section_key, f.population) == ("drug_attribute", section, "adult"), text
    assert f.person is None or "tháng" not in f.person


def test_a_pregnancy_stated_by_its_age_is_a_pregnancy_and_its_months_are_not_an_age() -> None:
    f = understand("em bầu 8 tháng đau răng uống ibuprofen được không ạ")
    assert f.pregnant and f.age_months is None


@pytest.mark.parametrize(("text", "person"), [("thằng đầu 8 tuổi 25 ký", "thằng đầu"),
                                              ("mẹ hai đứa bị suy gan vừa thì dùng được không", "mẹ hai đứa")])
def test_kin_written_with_diacritics_is_read_as_written(text: str, person: str) -> None:
    assert understand(text).person == person


def test_a_month_word_is_not_a_sibling_once_the_diacritics_are_read() -> None:
    assert understand("em bầu 8 tháng đau răng uống ibuprofen được không ạ").person is None


@pytest.mark.parametrize(("text", "section"), [
    ("diclofenac cho người lớn đau lưng dùng sao", "lieu_luong_cach_dung"),
    ("ibuprofen uống ra sao", "lieu_luong_cach_dung"),
])
def test_how_to_take_it_in_chat_words_is_a_dose_question(text: str, section: str) -> None:
    f = understand(text)
    assert (f.turn_type, f.section_key) == ("dosing_calc", section)


def test_whether_it_does_harm_is_not_how_to_take_it() -> None:
    assert understand("uống paracetamol có sao không").section_key != "lieu_luong_cach_dung"


def test_may_a_patient_with_renal_impairment_take_it_reads_the_contraindications() -> None:
    f = understand("Bệnh nhân 62 tuổi suy thận mạn, mức lọc cầu thận 25 ml/phút, bị đau khớp. Có dùng aspirin giảm "
                   "đau được không?")
    assert (f.turn_type, f.section_key) == ("drug_attribute", "chong_chi_dinh")
    assert f.renal is not None and "25" in f.renal


def test_may_a_child_take_it_reads_the_contraindications() -> None:
    f = understand("thế hạ sốt cho bé bằng aspirin được không")
    assert (f.turn_type, f.section_key) == ("drug_attribute", "chong_chi_dinh")


def test_a_child_with_age_asking_whether_they_may_take_it_is_still_a_dose_question() -> None:
    assert understand("bé Cún 3 tuổi uống ibuprofen được không").turn_type == "dosing_calc"


def test_a_weight_said_to_be_someone_elses_is_not_the_patients_and_names_no_patient() -> None:
    f = understand("à nhầm, bé 4 tuổi, 24 ký là cân của anh nó")
    assert (f.age_months, f.weight_kg) == (48, None)
    assert f.person != "anh nó"


@pytest.mark.parametrize("text", ["Bé 4 tuổi đã mổ Glenn, uống warfarin liều bao nhiêu?",
                                  "sau phẫu thuật Norwood dùng warfarin thế nào"])
def test_an_operation_named_after_its_surgeon_is_no_unknown_drug(text: str) -> None:
    f = understand(text)
    assert (f.drugs, f.unknown_drugs) == (["warfarin"], [])


def test_a_grandparent_word_is_whom_not_what_for() -> None:
    # "nội" left behind from "bà nội" is no indication (it matched "viêm nội tâm mạc" among contraindications).
    from states.slots import dose_indication

    assert dose_indication("còn bà ngoại nó 78 tuổi rung nhĩ thì warfarin khởi đầu bao nhiêu?", ["warfarin"]) == \
        "rung nhĩ"
