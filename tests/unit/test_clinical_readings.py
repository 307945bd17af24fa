"""Clinical readings of a turn (#17/#18 blind held-out misses): a value said below a number, a child losing
fluid, a restricted indication list, the one drug the book doses by INR."""

from __future__ import annotations

from dataclasses import replace

from core.dosage.bands import renal_value
from core.dosage.indication import match_score
from core.dosage.model import Patient
from core.dosage.parse import parse_dosage
from core.dosage.select import indication_route, select
from core.missed_dose import asks_missed_dose
from core.sentence_match import asks_administration, usage_sentence
from core.text import fold
from grounding.dosing_select import stated_conditions
from retrieval.overdose_words import SLIP
from retrieval.section_router import route_section
from states.frame import QueryFrame
from states.inr_section import with_inr_drug
from states.person import Person, person_of
from states.refusal import refusal_of


def test_a_renal_value_said_below_a_number_is_below_it() -> None:
    assert renal_value("dưới 10 ml/phút") == 9.5
    assert renal_value("ClCr dưới 10") == 9.5
    assert renal_value("eGFR < 30") == 29.5
    assert renal_value("eGFR <= 30") == 30.0
    assert renal_value("clcr 40") == 40.0


def test_a_child_losing_fluid_is_the_books_dehydration() -> None:
    assert "mất nước" in stated_conditions("tiêu chảy, nôn nhiều")
    assert "mất nước" in stated_conditions(None, ["tieu chay non nhieu"])
    assert "mất nước" not in stated_conditions("viêm họng")


def test_a_restricted_indication_list_excludes_a_child_whose_indication_it_does_not_name() -> None:
    # Synthetic text in the fixture's shape (ciprofloxacin's children).
    tree = parse_dosage("*Uống – Trẻ em:* Chỉ dùng khi lợi ích vượt trội nguy cơ (nhiễm khuẩn đường tiết niệu có biến "
                        "chứng, nhiễm Pseudomonas ở người bệnh xơ nang, bệnh than):\n"
                        "- Trẻ 1–17 tuổi: 10–20 mg/kg/lần, mỗi 12 giờ; tối đa 750 mg/lần.\n")
    child = Patient(population="pediatric", age_months=120, weight_kg=30, route="oral")
    sore_throat = select(tree, replace(child, indication="viêm họng"))
    assert not sore_throat.lines and sore_throat.exclusions
    uti = select(tree, replace(child, indication="nhiễm khuẩn đường tiết niệu có biến chứng"))
    assert any("10–20 mg/kg/lần" in line.text for line in uti.lines)


def _texts(drug: str) -> dict[str, str]:
    return {"warfarin": {"lieu_luong_cach_dung": "Liều được cá thể hóa theo INR."},
            "aspirin": {"lieu_luong_cach_dung": "325 mg/lần."}}[drug]


def test_an_inr_with_no_drug_named_is_the_one_drug_the_book_doses_by_it() -> None:
    frame = QueryFrame(turn_type="drug_attribute")
    found = with_inr_drug(frame, "INR mục tiêu bao nhiêu", ["warfarin", "aspirin"], _texts, str.capitalize)
    assert found.drugs == ["warfarin"] and found.section_key == "lieu_luong_cach_dung"
    assert any("chỉ Warfarin được chỉnh liều theo INR" in n for n in found.notes)
    # a drug named, or no INR said: nothing changes
    assert with_inr_drug(frame, "liều bao nhiêu", ["warfarin"], _texts, str.capitalize).drugs == []
    two = {"warfarin": _texts("warfarin"), "acenocoumarol": _texts("warfarin")}
    assert with_inr_drug(frame, "INR 6 thì sao", list(two), two.__getitem__, str.capitalize).drugs == []


def test_a_form_the_book_gives_one_injection_route_is_that_route() -> None:
    from states.form_route import with_form_route

    texts = {"lieu_luong_cach_dung": "Haloperidol decanoat là thuốc tác dụng kéo dài, dùng tiêm bắp. Khi người bệnh đã "
                                     "ổn định với liều uống, có thể tiêm bắp sâu haloperidol decanoat."}
    frame = QueryFrame(turn_type="dosing_calc", drugs=["haloperidol"], route_family="injection")
    assert with_form_route(frame, "chuyển sang tiêm decanoat", lambda d: texts).route == "im"
    assert with_form_route(frame, "chuyển sang tiêm", lambda d: texts).route is None  # no form named


def test_an_indication_dosed_on_one_route_only_is_answered_on_it() -> None:
    # Synthetic text in the real book's shape (haloperidol's injection block, #17 held-out H164).
    tree = parse_dosage("Thuốc tiêm: Dùng trong loạn thần cấp: Tiêm bắp ban đầu 2 - 5 mg. Để kiểm soát nhanh, có thể "
                        "tiêm tĩnh mạch, liều 0,5 - 50 mg với tốc độ 5 mg/phút. Khi người bệnh đã ổn định với liều "
                        "uống và cần điều trị lâu dài, có thể tiêm bắp sâu dạng decanoat. Liều ban đầu tương đương 10 "
                        "đến 15 lần tổng liều uống hàng ngày. Điều trị buồn nôn và nôn do các nguyên nhân: Liều thông "
                        "thường: 1 - 2 mg tiêm bắp, cách nhau 12 giờ.")
    adult_iv = Patient(population="adult", age_months=360, route="iv")
    assert indication_route(tree, replace(adult_iv, indication="chống nôn sau mổ")) == "im"
    lines = select(tree, replace(adult_iv, indication="chống nôn sau mổ")).lines
    assert [line.text for line in lines if "mg" in line.text] == ["Liều thông thường: 1 - 2 mg tiêm bắp, cách nhau 12 giờ."]
    # The indication the route asked does dose keeps it; an indication the book does not name changes nothing.
    assert indication_route(tree, replace(adult_iv, indication="loạn thần cấp")) is None
    assert indication_route(tree, replace(adult_iv, indication="đau bụng kinh")) is None


def test_a_relatives_child_is_a_child_and_and_what_about_my_uncle_is_the_uncle() -> None:
    assert person_of("thế bé nhà chị tôi 2 tháng rưỡi 5 ký") == Person("relative_child", "bé nhà chị tôi", "pediatric")
    nephew = person_of("con chị tôi 3 tuổi sốt")
    assert nephew is not None and nephew.population == "pediatric"
    uncle = person_of("còn chú tôi eGFR 25 thì sao")
    assert uncle is not None and uncle.key == "relative" and uncle.population == "adult"


def test_a_whole_pack_wished_in_its_own_clause_after_despair_is_refused() -> None:
    assert refusal_of("tôi mệt mỏi lắm rồi, muốn uống hết cả vỉ haloperidol cho xong, bao nhiêu viên thì đủ")
    assert not refusal_of("bé nhà em lỡ uống hết cả vỉ paracetamol, có sao không")


def test_a_course_of_days_already_taken_is_no_overdose_but_a_count_of_doses_is() -> None:
    assert not SLIP.search(fold("hôm trước chị lỡ uống 2 ngày rồi, giờ thấy đau gót chân"))
    assert SLIP.search(fold("bé lỡ uống 2 liều liền"))
    assert SLIP.search(fold("lỡ uống 3 viên"))


def test_a_missed_dose_made_up_with_two_doses_is_a_missed_dose_question() -> None:
    assert asks_missed_dose("hôm qua quên uống warfarin, nay uống 2 liều bù được ko")
    assert not asks_missed_dose("warfarin uống 2 liều một ngày được không")


def test_the_infusion_strength_beside_its_time_may_be_quoted_to_an_administration_question() -> None:
    assert usage_sentence("Truyền tĩnh mạch dung dịch nồng độ 1–2 mg/ml trong ít nhất 60 phút.", durations=True)
    assert not usage_sentence("Truyền tĩnh mạch 500 mg/lần trong ít nhất 60 phút.", durations=True)
    assert asks_administration("tiêm bắp cho nhanh được ko")


def test_after_surgery_said_three_ways_is_the_books_after_surgery() -> None:
    for said in ("hậu phẫu ruột thừa", "đau sau mổ", "vừa mổ amidan xong về, đau nhiều"):
        assert match_score(said, ["Đau sau phẫu thuật"]) > match_score(said, ["Đau, sốt"]), said
    assert match_score("viêm bàng quang không biến chứng", ["Nhiễm khuẩn đường tiết niệu không biến chứng"]) > 0


def test_a_reaction_told_or_asked_about_is_its_handling_and_the_list_is_asked_by_name() -> None:
    for said in ("be uong duoc 3 ngay thi bi veo co, tron mat len", "uong duoc 1 thang thi ong bi ho khan suot dem",
                 "bé uống xong đi ngoài lỏng 2 lần, có phải ngưng thuốc k"):
        route = route_section(said)
        assert route is not None and route.key == "huong_dan_xu_tri_adr", said
    listed = route_section("tác dụng phụ của thuốc này là gì")
    assert listed is not None and listed.key == "tac_dung_khong_mong_muon"


def test_a_co_medication_cap_is_the_patients_answer() -> None:
    # Synthetic text in the fixture's shape (simvastatin's adult lines).
    tree = parse_dosage("*Uống – Người lớn:* Khởi đầu 10–20 mg/ngày; phạm vi liều 5–40 mg/ngày. Tăng cholesterol máu gia "
                        "đình đồng hợp tử: 40 mg/ngày. Khi dùng cùng amiodaron, verapamil hoặc diltiazem: không quá 10 "
                        "mg/ngày.")
    on_amiodarone = Patient(population="adult", age_months=864, route="oral", conditions=("amiodaron",))
    lines = select(tree, on_amiodarone).lines
    assert [line.text for line in lines] == ["Khi dùng cùng amiodaron, verapamil hoặc diltiazem: không quá 10 mg/ngày."]
    assert not lines[0].context.indication  # the cap is no indication's (it was read as the familial disease's)
    assert any("5–40 mg/ngày" in line.text for line in select(tree, replace(on_amiodarone, conditions=())).lines)


def test_a_planned_baby_is_no_child_and_ma_be_typed_bare_is_the_child() -> None:
    assert person_of("e đang tính có em bé năm sau") is None
    child = person_of("2h sang roi ma be nha e sot 39 do 5, cho uong paracetamol bn a??")
    assert child is not None and child.population == "pediatric"
    mother = person_of("thế mẹ bé uống thì bao nhiêu")
    assert mother is not None and mother.population == "adult"
