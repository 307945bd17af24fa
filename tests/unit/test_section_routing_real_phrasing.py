"""Real clinicians' phrasing reaches the section that answers it (#17 item 2, H21)."""

from __future__ import annotations

from core.dosage.indication import match_score
from retrieval.section_router import high_inr, route_section
from tests.unit.understanding_kit import understand


def test_bau_typed_without_diacritics_asks_the_pregnancy_section() -> None:
    route = route_section("Bau co dung amoxicilin duoc khong")
    assert route is not None and route.key == "thoi_ky_mang_thai"


def test_a_child_of_known_age_asking_for_a_symptom_takes_the_dose_path() -> None:
    # The dose path states the book's exclusion of the child first; the indication list would read as "yes".
    frame = understand("cho bé 7 tuổi 22 kg uống aspirin hạ sốt được không ạ?")
    assert frame.turn_type == "dosing_calc" and frame.section_key == "lieu_luong_cach_dung"


def test_an_adult_asking_for_a_symptom_keeps_the_indications() -> None:
    frame = understand("người lớn uống aspirin hạ sốt được không?")
    assert frame.section_key != "lieu_luong_cach_dung"


def test_an_allergy_to_another_penicillin_asks_the_contraindications() -> None:
    frame = understand("Mình từng nổi mề đay sau khi tiêm penicillin, giờ bác sĩ kê amoxicilin có sao không?")
    assert frame.turn_type == "drug_attribute" and frame.section_key == "chong_chi_dinh"
    assert frame.condition is not None and "penicillin" in frame.condition


def test_taking_another_drug_with_it_is_still_an_interaction() -> None:
    frame = understand("đang dùng methotrexat, uống thêm amoxicilin được không?")
    assert frame.turn_type == "interaction"


def test_grams_asked_are_a_dose_question() -> None:
    route = route_section("Người lớn diệt HP, amoxicilin uống mấy gam?")
    assert route is not None and route.key == "lieu_luong_cach_dung"


def test_hp_is_helicobacter_pylori() -> None:
    assert match_score("diệt HP", ["Nhiễm Helicobacter pylori"]) > 0
    assert match_score("diệt HP", ["Bệnh Lyme"]) == 0


def test_an_inr_above_range_asks_the_overdose_handling() -> None:
    route = route_section("INR hôm nay đo được 6, không chảy máu gì thì xử trí thế nào?")
    assert route is not None and route.key == "qua_lieu_xu_tri"


def test_an_inr_in_range_or_a_target_is_no_overdose() -> None:
    assert high_inr("inr muc tieu la bao nhieu") is None
    assert high_inr("inr 2,5 thi uong warfarin lieu bao nhieu") is None
    assert high_inr("inr cao qua phai lam sao") is not None
