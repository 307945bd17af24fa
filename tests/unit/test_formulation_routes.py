"""A dosage form names its route; a vaccination names none; a corrected route is said back (issue #18)."""

from __future__ import annotations

import pytest

from states.slots import extract_slots
from tests.unit.understanding_kit import merged


@pytest.mark.parametrize(("text", "route"), [
    ("liều siro paracetamol cho bé", "oral"), ("paracetamol viên sủi người lớn", "oral"),
    ("cetirizin thuốc nhỏ giọt cho bé", "oral"), ("bé 5 tuổi, dạng siro", "oral"),
    ("paracetamol thuốc đạn cho bé", "rectal"), ("paracetamol viên đặt cho bé", "rectal"),
    ("viên đạn paracetamol", "rectal"),
])
def test_a_dosage_form_names_its_route(text: str, route: str) -> None:
    assert extract_slots(text).route == route


@pytest.mark.parametrize("text", ["thuốc nhỏ mắt diclofenac", "viên đặt âm đạo", "nhỏ giọt mũi"])
def test_local_forms_are_neither_oral_nor_rectal(text: str) -> None:
    assert extract_slots(text).route not in ("oral", "rectal")


def test_an_ampoule_is_an_injection() -> None:
    slots = extract_slots("salbutamol ống tiêm cho người lớn")
    assert slots.route is None and slots.route_family == "injection"


@pytest.mark.parametrize("text", [
    "bé sốt sau tiêm phòng", "tiêm vắc xin xong bị sốt", "bé vừa tiêm vaccine", "chích ngừa xong bé quấy",
    "bé tiêm chủng xong sốt 39 độ", "be sot sau tiem phong", "sau tiem chung be sot", "mũi tiêm 5 trong 1",
])
def test_a_vaccination_is_no_route(text: str) -> None:
    slots = extract_slots(text)
    assert (slots.route, slots.route_family) == (None, None), (text, slots)


@pytest.mark.parametrize("text", ["tiêm chung ceftriaxon với calci được không", "tiem chung voi calci"])
def test_injected_together_is_still_an_injection(text: str) -> None:
    assert extract_slots(text).route_family == "injection"


def test_a_vaccination_keeps_the_route_the_turn_does_name() -> None:
    assert extract_slots("sau tiêm phòng bé sốt, uống paracetamol bao nhiêu").route == "oral"


def test_a_corrected_route_replaces_the_route_and_says_so() -> None:
    first = merged("Liều paracetamol đặt hậu môn cho bé 5 tuổi 18kg", None)
    corrected = merged("à không, đường uống", first)
    assert (first.route, corrected.route) == ("rectal", "oral")
    assert (corrected.age_months, corrected.weight_kg) == (60, 18)
    assert any("Đã đổi đường dùng: Uống (thay cho Đặt trực tràng)" in n for n in corrected.notes), corrected.notes


def test_a_carried_route_the_patient_cannot_take_is_dropped_and_said() -> None:
    first = merged("Liều paracetamol uống cho bé 5 tuổi 18 kg?", None)
    refused = merged("bé bị nôn không uống được thì sao", first)
    assert first.route == "oral" and refused.route is None
    assert (refused.age_months, refused.weight_kg) == (60, 18)
    assert any("không dùng được đường uống" in n for n in refused.notes), refused.notes


def test_a_route_named_beside_the_refused_one_is_kept() -> None:
    first = merged("Liều paracetamol uống cho bé 5 tuổi 18 kg?", None)
    assert merged("bé không uống được, đặt hậu môn thì sao", first).route == "rectal"


def test_a_route_correction_with_a_nham_is_a_dose_follow_up() -> None:
    first = merged("Liều paracetamol uống cho bé 5 tuổi 18 kg?", None)
    corrected = merged("à nhầm, đặt hậu môn", first)
    assert corrected.turn_type == "dosing_calc" and corrected.route == "rectal"
    assert any("Đã đổi đường dùng: Đặt trực tràng (thay cho Uống)" in n for n in corrected.notes)


def test_meaning_the_injection_is_said_as_a_route_change() -> None:
    first = merged("Liều paracetamol uống cho bé 5 tuổi 18 kg?", None)
    corrected = merged("ý tôi là đường tiêm", first)
    assert corrected.route_family == "injection"
    assert any("Đã đổi đường dùng: đường tiêm (thay cho Uống)" in n for n in corrected.notes)
