"""Brands of one ingredient the book has no monograph of are read as that ingredient (core.foreign_brands)."""

from __future__ import annotations

from core.foreign_brands import as_asked, ingredient_of, with_ingredients


def test_a_single_ingredient_brand_becomes_its_ingredient_and_says_so() -> None:
    text, notes = with_ingredients("ông đang dùng isordil, muốn uống Viagra thì sao")
    assert "sildenafil" in text and "Viagra" not in text
    assert notes == ["Viagra là biệt dược của sildenafil (tôi tra theo tên sildenafil)."]


def test_a_combination_product_is_no_single_ingredient() -> None:
    # Augmentin is amoxicillin with clavulanic acid: never read as amoxicillin alone.
    assert ingredient_of("augmentin") is None
    text, notes = with_ingredients("augmentin 625 người lớn uống mấy viên")
    assert text.startswith("augmentin") and notes == []


def test_the_reply_names_the_brand_the_user_asked_for() -> None:
    assert as_asked("oseltamivir", "tamiflu cho bé 3 tuổi") == "tamiflu (oseltamivir)"
    assert as_asked("oseltamivir", "oseltamivir cho bé") == "oseltamivir"
