"""Issue #18 classes, unit level: kin named through the children, negated routes, ages as people say them, clash
words, condition words. Written from the issue and the fixture text before running."""

from __future__ import annotations

import pytest

from core.text import fold
from retrieval.section_router import route_section
from states.conditions import find_condition_question
from states.person import person_of
from states.slots import extract_route, extract_slots


@pytest.mark.parametrize(("text", "key"), [
    ("má tụi nhỏ cũng ho, má uống sao", "mother"),
    ("bố thằng Bin nữa thì sao", "father"),
    ("ông nội bé Na 70 tuổi", "grandparent"),
    ("mẹ bọn nó cũng sốt", "mother"),
    ("me cu Ti thi sao", "mother"),
])
def test_kin_of_the_children_is_an_adult(text: str, key: str) -> None:
    person = person_of(text)
    assert person is not None and person.key == key and person.population == "adult"


@pytest.mark.parametrize("text", ["con tôi nặng 18kg uống para", "con toi nang 18kg"])
def test_my_child_is_not_me(text: str) -> None:
    person = person_of(text)
    assert person is not None and person.population == "pediatric"


@pytest.mark.parametrize("text", ["bé không uống được, phải tiêm", "nuốt không nổi nên chích", "bé ko nuốt được nữa"])
def test_a_route_the_patient_cannot_take_is_not_the_route(text: str) -> None:
    assert extract_route(fold(text), text) != "oral"


@pytest.mark.parametrize(("text", "months"), [
    ("em nó mới 3 tuần", 3 / 4.345), ("bé mới được 10 ngày", 10 / 30.44), ("bé lên 5, nặng 18 cân", 60),
    ("cháu mới lên 3", 36),
    # the age stated before the drug's course is still the baby's age
    ("bé mới được 3 tuần, uống paracetamol được không", 3 / 4.345),
])
def test_ages_as_people_say_them(text: str, months: float) -> None:
    assert extract_slots(text).age_months == pytest.approx(months, abs=0.01)


@pytest.mark.parametrize("text", ["bé sinh 36 tuần", "thai 36 tuần", "uống được 3 tuần rồi", "bé sốt lên 39",
                                  # how long a drug has been taken, the drug named between verb and number (#17)
                                  "dùng amoxicillin được 10 ngày rồi mà vẫn sốt",
                                  "tiêm thuốc này đã được 2 tháng thì thấy mệt"])
def test_not_ages(text: str) -> None:
    assert extract_slots(text).age_months is None


def test_implausible_age_is_rejected() -> None:
    slots = extract_slots("ông nội tôi 200 tuổi")
    assert slots.age_months is None and slots.rejected


@pytest.mark.parametrize("text", ["nó có kỵ simvastatin ko", "thuốc đó kỵ simvastatin không", "no co ky simvastatin ko"])
def test_clash_words_ask_an_interaction(text: str) -> None:
    route = route_section(text)
    assert route is not None and route.key == "tuong_tac_thuoc"


@pytest.mark.parametrize("text", ["bé 18 ký có sao không", "bé nặng 18 ky co sao khong"])
def test_kilograms_are_no_clash(text: str) -> None:
    route = route_section(text)
    assert route is None or route.key != "tuong_tac_thuoc"


@pytest.mark.parametrize("text", ["simvastatin người lớn khởi đầu bao nhiêu", "người lớn tiêu chảy uống loperamid sao"])
def test_dose_words(text: str) -> None:
    route = route_section(text)
    assert route is not None and route.key == "lieu_luong_cach_dung"


@pytest.mark.parametrize(("text", "condition"), [
    ("cháu 4 tuổi rưỡi 16 ký sốt 38 độ 5 uống thuốc gì", "sốt"),
    ("người lớn nổi mề đay ngứa khắp người thì dùng thuốc gì", "mề đay"),
    ("ba toi bi soi than tai phat, dung thuoc gi", "soi than"),
    ("bị cảm cúm uống thuốc gì", "cảm cúm"),
    ("bé bị ho khan uống thuốc gì", "ho khan"),
])
def test_condition_is_the_disease_words(text: str, condition: str) -> None:
    assert find_condition_question(text) == condition


@pytest.mark.parametrize(("text", "route", "family"), [
    ("đang uống haloperidol, muốn chuyển sang tiêm decanoat thì liều thế nào", None, "injection"),
    ("bé đang uống paracetamol, đổi sang đặt hậu môn được không", "rectal", None),
    ("đang truyền tĩnh mạch, chuyển qua uống thì liều sao", "oral", None),
])
def test_the_route_switched_to_is_the_route_asked(text: str, route: str | None, family: str | None) -> None:
    slots = extract_slots(text)
    assert (slots.route, slots.route_family) == (route, family)
