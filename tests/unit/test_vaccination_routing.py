""""tiêm chủng" (vaccination) and "tiêm chung" (injected together) fold alike: a fever after vaccination is the
patient's context of a dose question, not an interaction question (rt-para-vaccine-2months went to the interaction
section)."""

from __future__ import annotations

import pytest

from retrieval.section_router import route_section


@pytest.mark.parametrize("text", [
    "Bé 2 tháng tuổi nặng 5 kg bị sốt sau tiêm chủng, uống paracetamol liều bao nhiêu?",
    "be 2 thang bi sot sau tiem chung, uong paracetamol lieu bao nhieu",  # no diacritics: "sau tiem chung"
    "Sốt sau tiêm chủng cho bé uống paracetamol bao nhiêu?",
])
def test_a_fever_after_vaccination_is_a_dose_question(text: str) -> None:
    route = route_section(text)
    assert route is not None and route.key == "lieu_luong_cach_dung", route


@pytest.mark.parametrize("text", [
    "Có thể tiêm chung ceftriaxon với canxi không?",
    "tiem chung ceftriaxon voi calci duoc khong",
    "Tiêm chung ceftriaxon cùng lúc với vắc xin được không? Bé vừa tiêm chủng xong",
])
def test_near_miss_injected_together_is_still_an_interaction(text: str) -> None:
    route = route_section(text)
    assert route is not None and route.key == "tuong_tac_thuoc", route
