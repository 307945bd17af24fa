"""The Markdown loader: converted-PDF monographs → sections, names and a report of what was odd."""

from __future__ import annotations

from pathlib import Path

import pytest

from retrieval.headings import match_heading
from retrieval.markdown_loader import load_markdown, parse_markdown

ASPIRIN = """<!-- SYNTHETIC TEST DATA for formulary-fsm. Not clinical guidance. -->
# **ACID ACETYLSALICYLIC (Aspirin)**
<!-- page: 98 -->
**Tên chung quốc tế:** Acetylsalicylic acid.
**Mã ATC**: B01AC06.
**Loại thuốc:** Thuốc chống viêm không steroid (NSAID), chống kết tập tiểu cầu.

## **Chỉ định**
Giảm đau, hạ sốt, chống viêm.

## **Dược lực học**
Ức chế cyclooxygenase.

<!-- page: 99 -->
## **Thời kì mang thai**
Tránh dùng trong 3 tháng cuối.

**Liều dùng và cách dùng**
*Uống – Người lớn:* 325–650 mg mỗi 4 giờ.

**Liều dùng:** xem trên.

## **Tương tác thuốc**
Warfarin: tăng nguy cơ chảy máu.
<!-- QUARANTINED: bảng không trích xuất được -->
## not a heading | garbled |
<!-- /QUARANTINED -->

## **Tên thương mại**
Aspirin pH8; Aspegic.
"""


def _one(text: str):
    monographs, report = parse_markdown(text, "aspirin.md")
    assert len(monographs) == 1, report
    return monographs[0], report


def _section(monograph, key: str):
    return next(s for s in monograph.sections if s.key == key)


def test_title_with_common_name_gives_snake_case_id_and_an_alias() -> None:
    m, _ = _one(ASPIRIN)
    assert m.drug_id == "acid_acetylsalicylic"
    assert m.title == "ACID ACETYLSALICYLIC (Aspirin)"
    assert m.name == "Acid acetylsalicylic"
    assert "Aspirin" in m.aliases
    assert "Acetylsalicylic acid" in m.aliases


def test_brands_come_from_ten_thuong_mai_and_classes_from_loai_thuoc() -> None:
    m, _ = _one(ASPIRIN)
    assert m.brands == ["Aspirin pH8", "Aspegic"]
    # The class without its leading "Thuốc" too: other monographs write "các thuốc uống chống viêm không steroid".
    assert set(m.classes) == {"Thuốc chống viêm không steroid", "chống viêm không steroid", "NSAID",
                              "chống kết tập tiểu cầu"}


def test_first_line_synthetic_marker_marks_the_monograph_synthetic() -> None:
    m, _ = _one(ASPIRIN)
    assert m.synthetic is True
    real, _ = _one(ASPIRIN.split("\n", 1)[1])
    assert real.synthetic is False


def test_inline_fields_with_colon_inside_or_outside_the_bold_open_sections() -> None:
    m, _ = _one(ASPIRIN)
    assert _section(m, "ten_chung_quoc_te").text == "Acetylsalicylic acid."
    assert _section(m, "ma_atc").text == "B01AC06."


def test_heading_variants_and_bold_only_headings_are_recognised() -> None:
    m, _ = _one(ASPIRIN)
    keys = [s.key for s in m.sections]
    assert keys == ["ten_chung_quoc_te", "ma_atc", "loai_thuoc", "chi_dinh", "thoi_ky_mang_thai",
                    "lieu_luong_cach_dung", "tuong_tac_thuoc", "ten_thuong_mai"]


def test_a_repeated_bold_label_inside_a_section_stays_text() -> None:
    m, _ = _one(ASPIRIN)
    assert "**Liều dùng:** xem trên." in _section(m, "lieu_luong_cach_dung").text


def test_unknown_heading_is_kept_in_the_previous_section_and_reported() -> None:
    m, report = _one(ASPIRIN)
    chi_dinh = _section(m, "chi_dinh").text
    assert "Dược lực học" in chi_dinh and "Ức chế cyclooxygenase." in chi_dinh
    assert len(report.unknown_headings) == 1
    issue = report.unknown_headings[0]
    assert issue.file == "aspirin.md" and issue.line == 11 and "Dược lực học" in issue.problem


def test_page_markers_set_the_page_of_the_following_sections() -> None:
    m, _ = _one(ASPIRIN)
    assert _section(m, "chi_dinh").page == 98
    assert _section(m, "thoi_ky_mang_thai").page == 99


def test_nothing_inside_a_quarantined_block_is_read_as_structure() -> None:
    m, report = _one(ASPIRIN)
    interactions = _section(m, "tuong_tac_thuoc").text
    assert "## not a heading | garbled |" in interactions
    assert "<!-- QUARANTINED: bảng không trích xuất được -->" in interactions
    assert report.errors == []


@pytest.mark.parametrize(("heading", "key"), [
    ("Thời kì mang thai", "thoi_ky_mang_thai"),
    ("Liều dùng và cách dùng", "lieu_luong_cach_dung"),
    ("Thông tin qui chế", "thong_tin_quy_che"),
    ("Quá liều cấp tính và xử trí", "qua_lieu_xu_tri"),
    ("Quá liều và cách xử trí", "qua_lieu_xu_tri"),
    ("Tác dụng không mong muốn(ADR)", "tac_dung_khong_mong_muon"),
    ("Bảo quản", "do_on_dinh_bao_quan"),
    ("Đô ổn đinh và bảo quản", "do_on_dinh_bao_quan"),
    ("Thân trong", "than_trong"),
    ("Hướng dẫn cách sử trí ADR", "huong_dan_xu_tri_adr"),
    ("Dạng bào chế và hàm lượng", "dang_thuoc_ham_luong"),
    ("CHONG CHI DINH", "chong_chi_dinh"),
    ("Chỉ định:", "chi_dinh"),
])
def test_heading_variants_match_without_diacritics(heading: str, key: str) -> None:
    assert match_heading(heading) == key


@pytest.mark.parametrize("heading", ["Dược động học", "Dược lực học", "Người lớn", "Ghi chú"])
def test_headings_naming_no_section_match_nothing(heading: str) -> None:
    assert match_heading(heading) is None


def test_a_file_without_a_title_is_an_error_naming_the_file() -> None:
    monographs, report = parse_markdown("## **Chỉ định**\nHạ sốt.\n", "broken.md")
    assert monographs == []
    assert report.errors and report.errors[0].file == "broken.md"
    assert report.errors[0].line == 1


def test_an_unclosed_quarantine_is_reported_and_still_quarantined() -> None:
    text = "# **WARFARIN**\n## **Tương tác thuốc**\n<!-- QUARANTINED: x -->\n| a |\n"
    monographs, report = parse_markdown(text, "w.md")
    assert monographs[0].sections[0].text.endswith("<!-- /QUARANTINED -->")
    assert [(e.line, "not closed" in e.problem) for e in report.errors] == [(3, True)]


def test_one_file_may_hold_several_monographs() -> None:
    text = "# **IBUPROFEN**\n## **Chỉ định**\nĐau.\n# **WARFARIN**\n## **Chỉ định**\nHuyết khối.\n"
    monographs, _ = parse_markdown(text, "two.md")
    assert [m.drug_id for m in monographs] == ["ibuprofen", "warfarin"]


FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "formulary"


@pytest.mark.skipif(not (FIXTURE / "paracetamol.md").exists(), reason="fixture formulary not written yet")
def test_the_fixture_formulary_loads_without_problems() -> None:
    for path in sorted(FIXTURE.glob("*.md")):
        monographs, report = load_markdown(path)
        assert report.errors == [] and report.unknown_headings == [], path
        assert len(monographs) == 1 and monographs[0].drug_id == path.stem
        assert monographs[0].synthetic
