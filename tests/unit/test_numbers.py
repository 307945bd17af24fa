"""Numbers with units are read from Vietnamese formulary text the way a pharmacist reads them."""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.numbers import extract_quantities, has_number, written_numbers


def _one(text: str) -> tuple[Decimal, Decimal, str]:
    found = extract_quantities(text)
    assert len(found) == 1, found
    q = found[0]
    return q.low, q.high, q.unit


@pytest.mark.parametrize("text", ["10–50 kg", "10-50 kg", "10 đến 50 kg", "10 – 50 kg", "từ 10 đến 50 kg"])
def test_every_way_of_writing_a_weight_range_is_one_range(text: str) -> None:
    assert _one(text) == (10, 50, "kg")


def test_a_decimal_comma_is_a_decimal() -> None:
    assert _one("0,5 mg") == (Decimal("0.5"), Decimal("0.5"), "mg")


@pytest.mark.parametrize("text", ["1 000 mg", "1.000 mg", "1 g", "1000 mg", "1 000 000 microgam"])
def test_thousands_separators_and_grams_give_the_same_mass(text: str) -> None:
    assert _one(text) == (1000, 1000, "mg")


@pytest.mark.parametrize("text", ["250 mcg", "250 µg", "250 μg", "250 microgam"])
def test_micrograms_are_spelled_one_way(text: str) -> None:
    assert _one(text) == (Decimal("0.25"), Decimal("0.25"), "mg")


def test_a_range_across_mg_and_g_keeps_its_per_dose_unit() -> None:
    assert _one("500 mg – 1 g/lần") == (500, 1000, "mg/lan")


def test_the_left_end_of_a_range_takes_the_right_ends_unit() -> None:
    assert _one("10–15 mg/kg/lần") == (10, 15, "mg/kg/lan")


def test_mg_per_kg_per_day_and_mg_per_kg_per_dose_are_different_units() -> None:
    per_day, per_dose, plain = (extract_quantities(t)[0].unit for t in ("60 mg/kg/ngày", "60 mg/kg/lần", "60 mg"))
    assert len({per_day, per_dose, plain}) == 3


def test_ages_in_months_and_years_are_comparable() -> None:
    assert _one("Trẻ 6 tháng – 2 tuổi") == (6, 24, "thang")
    assert _one("Trẻ 3–6 tháng tuổi") == (3, 6, "thang")
    assert _one("Trẻ 4–6 tuổi") == (48, 72, "thang")


def test_a_dosing_line_yields_each_of_its_quantities_in_order() -> None:
    found = extract_quantities("Liều theo cân nặng: 10–15 mg/kg/lần, mỗi 4–6 giờ; tối đa 60 mg/kg/ngày.")
    assert [(q.low, q.high, q.unit) for q in found] == [
        (10, 15, "mg/kg/lan"), (4, 6, "gio"), (60, 60, "mg/kg/ngay")]


@pytest.mark.parametrize(("text", "unit"), [
    ("5 ml", "ml"), ("3 ngày", "ngay"), ("2 tuần", "tuan"), ("18 kg", "kg"), ("25%", "%"), ("4 lần", "lan"),
    ("24 giờ", "gio"), ("3 tháng", "thang"), ("1 lít", "ml"), ("30 ml/phút", "ml/phut"), ("120 mg/5 ml", "mg/5ml"),
])
def test_each_unit_is_recognised(text: str, unit: str) -> None:
    assert extract_quantities(text)[0].unit == unit


def test_a_range_end_counts_as_a_value_with_the_unit_carried_over() -> None:
    (q,) = extract_quantities("10–15 mg/kg/lần")
    assert [(e.low, e.unit) for e in q.ends()] == [(10, "mg/kg/lan"), (15, "mg/kg/lan")]


def test_digits_inside_names_and_codes_are_not_numbers() -> None:
    assert not has_number("G6PD, N02BE01, beta2, CYP3A4")


def test_a_bare_number_is_kept_without_a_unit() -> None:
    (q,) = extract_quantities("thêm 17 lượt")
    assert (q.low, q.unit) == (17, "")


def test_adr_frequency_bands_are_fractions_not_doses() -> None:
    found = extract_quantities("Ít gặp, 1/1 000 < ADR < 1/100")
    assert [q.unit for q in found] == ["/1000", "/100"]
    assert written_numbers("Ít gặp, 1/1 000 < ADR < 1/100") == {1, 100, 1000}


def test_a_list_of_strengths_is_not_read_as_decimals() -> None:
    assert [q.low for q in extract_quantities("Viên nén: 325 mg, 500 mg.")] == [325, 500]


def test_two_stated_doses_with_different_units_are_not_merged_into_a_range() -> None:
    assert [q.unit for q in extract_quantities("10 mg/kg – 15 mg")] == ["mg/kg", "mg"]


def test_a_quantity_prints_in_vietnamese() -> None:
    assert str(extract_quantities("10–15 mg/kg/lần")[0]) == "10–15 mg/kg/lần"
    assert str(extract_quantities("0,5 g")[0]) == "500 mg"
