"""Issue 18, session 4: the rules behind the blind held-out set's last failure classes (written from the fixture
text and clinical safety before running them)."""

from __future__ import annotations

from retrieval.section_router import route_section
from states.conditions import find_condition_question
from states.paths import _without_intolerances
from states.scope import as_child, child_nicknames, looks_non_human
from states.slots import disowned, dose_indication, extract_slots


def test_a_nickname_introduced_for_a_child_stays_a_child() -> None:
    names = child_nicknames(["Người dùng: bé Cún nhà em 3 tuổi sốt", "Trợ lý: ..."])
    assert names == ["Cún"]
    assert not looks_non_human(as_child("Cún nôn hết rồi, đặt hậu môn thì sao", names))
    # Only a name the user introduced for a child: an animal word otherwise stays an animal.
    assert looks_non_human(as_child("con chó nhà em bị sốt", names))
    assert child_nicknames(["Trợ lý: bé Cún"]) == []


def test_gestation_is_a_slot() -> None:
    assert extract_slots("trẻ sơ sinh đủ tháng 3,2 kg").gestation == "đủ tháng"
    assert extract_slots("bé sinh non 32 tuần").gestation is not None
    assert extract_slots("bé 3 tuổi 14 kg").gestation is None


def test_a_value_said_to_be_someone_elses() -> None:
    assert disowned("à nhầm, bé 4 tuổi, 24 ký là cân của anh nó") == (24.0, None)
    slots = extract_slots("à nhầm, bé 4 tuổi, 24 ký là cân của anh nó")
    assert slots.weight_kg is None and slots.age_months == 48
    assert disowned("bé 4 tuổi 16 ký") == (None, None)


def test_a_state_that_is_over_is_no_indication() -> None:
    assert dose_indication("bé hết sốt 3 ngày rồi thì dùng tiếp aspirin thế nào", ["aspirin"]) is None


def test_how_to_go_on_taking_it_is_the_dosage() -> None:
    for text in ("dùng tiếp aspirin thế nào", "uống thuốc này thế nào", "dùng aspirin tiếp như thế nào"):
        route = route_section(text)
        assert route is not None and route.key == "lieu_luong_cach_dung", text
    route = route_section("dùng cho bà bầu thế nào")
    assert route is None or route.key != "lieu_luong_cach_dung"


def test_a_follow_up_opener_is_not_part_of_the_condition() -> None:
    assert find_condition_question("thế sỏi thận acid uric thì dùng thuốc gì") == "sỏi thận acid uric"


def test_an_intolerance_in_brackets_is_not_an_indication() -> None:
    text = "Thay thế thuốc ức chế enzym chuyển ở người bệnh tăng huyết áp không dung nạp được thuốc này (ho khan)."
    assert "ho khan" not in _without_intolerances(text)
    assert "(viêm tai giữa)" in _without_intolerances("Nhiễm khuẩn (viêm tai giữa).")
