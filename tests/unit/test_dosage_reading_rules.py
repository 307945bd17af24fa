"""Reading rules of the dosage parser learnt from the real extracted text (issue 17, items 1-2), each with its
near-miss: the text that looks alike and must NOT be read that way.

The sections here are SYNTHETIC, in the PDF-extracted shape (flattened paragraphs, lead-ins in running text); doses
are invented. Real-text checks read ../shared/realtext at test time and skip, saying so, when it is absent.
"""

from __future__ import annotations

import math

import pytest

from core.dosage.bands import read_band
from core.dosage.lines import absence, excludes, maxima
from core.dosage.model import DosageTree, Patient, RegimenLine
from core.dosage.parse import injection_routes, parse_dosage
from core.dosage.select import band_words, routes_for, select
from tests.unit.realtext import real_field


def _line(tree: DosageTree, starts: str) -> RegimenLine:
    found = [line for line in tree.lines if line.text.startswith(starts)]
    assert found, f"no placed line starts with {starts!r}: {[line.text[:50] for line in tree.lines]}"
    return found[0]


def _child(age_months: float, weight_kg: float, route: str | None = None, indication: str | None = None) -> Patient:
    return Patient(population="pediatric", age_months=age_months, weight_kg=weight_kg, route=route,
                   indication=indication)


# --- a bare injection lead-in is a route ------------------------------------------------------------------------

INJECTION = ("Cách dùng: Thuốc có thể uống hoặc tiêm bắp hoặc tiêm tĩnh mạch chậm. Liều lượng: Uống: Người lớn "
             "20 - 40 mg/lần, ngày 3 lần. Tiêm: Người lớn 10 - 20 mg/lần, cách 6 giờ. Trẻ em có thể dùng "
             "1 - 2 mg/kg/24 giờ, chia 4 lần.")


def test_a_bare_injection_lead_in_opens_the_injection_routes_the_section_names() -> None:
    tree = parse_dosage(INJECTION)
    adult = _line(tree, "Người lớn 10 - 20 mg/lần")
    assert set(adult.routes) == {"im", "iv"} and adult.path == ("Tiêm",)
    child = _line(tree, "Trẻ em có thể dùng 1 - 2 mg/kg/24 giờ")
    assert set(child.routes) == {"im", "iv"} and child.population == "pediatric"
    oral = _line(tree, "Người lớn 20 - 40 mg/lần")
    assert oral.routes == ("oral",)
    lines = select(tree, _child(72, 20, route="im")).lines
    assert [line.text for line in lines] == [child.text]  # not the oral line, not the adult injection


def test_near_miss_injection_routes_when_the_section_names_none_are_every_injection_route() -> None:
    assert injection_routes("Tiêm: 10 mg/lần.") == ("iv", "im", "sc")
    assert injection_routes("Có thể tiêm bắp. Tiêm: 10 mg/lần.") == ("im",)
    # "Tiêm tĩnh mạch chậm trong 2 phút" is a route sentence, not a lead-in: no new context.
    tree = parse_dosage("Uống: 10 mg/lần. Tiêm tĩnh mạch chậm trong 2 phút để tránh ADR.")
    assert _line(tree, "10 mg/lần").routes == ("oral",)


# --- an exclusion naming a population (and a route) -------------------------------------------------------------

ROUTE_EXCLUSION = ("Cách dùng: Có thể uống, tiêm bắp. Không khuyến cáo tiêm bắp thuốc này cho trẻ em. Liều lượng: "
                   "Người lớn: 1 - 5 mg, 2 lần/ngày. Trẻ em: 3 - 12 tuổi: 0,02 - 0,04 mg/kg mỗi ngày, chia 2 lần.")


def test_an_exclusion_naming_a_population_and_a_route_excludes_them_on_that_route_only() -> None:
    tree = parse_dosage(ROUTE_EXCLUSION)
    exclusion = _line(tree, "Không khuyến cáo tiêm bắp")
    assert exclusion.kind == "exclusion" and exclusion.population == "pediatric" and exclusion.routes == ("im",)
    im = select(tree, _child(96, 25, route="im"))
    assert im.exclusions == [exclusion] and not im.lines
    oral = select(tree, _child(96, 25, route="oral"))
    assert not oral.exclusions and any("0,02 - 0,04 mg/kg" in line.text for line in oral.lines)
    adult = select(tree, Patient(population="adult", route="im"))
    assert not adult.exclusions


def test_near_miss_a_form_restriction_or_a_sentence_naming_nobody_is_not_an_exclusion() -> None:
    tree = parse_dosage("Không dùng các dạng phối hợp cho trẻ em. Không khuyến cáo tiêm bắp nhanh. Uống: 5 mg/lần.")
    assert all(line.kind != "exclusion" for line in tree.lines)
    assert not select(tree, _child(60, 18)).exclusions


# --- "không nên dùng liều quá …" is a ceiling ---------------------------------------------------------------------

def test_do_not_exceed_a_dose_is_a_ceiling_not_an_exclusion() -> None:
    text = "trẻ cân nặng trên 25 kg không nên dùng liều quá 100 mg/kg/ngày."
    assert not excludes(text)
    assert [(m.kind, m.low) for m in maxima(text)] == [("per_kg_day", 100.0)]
    assert excludes("Không nên dùng cho trẻ cân nặng trên 25 kg.")  # near miss: that one excludes


# --- a band named by comparison is the complement of the one before ----------------------------------------------

COMPARISON = ("Trẻ em: Viêm khớp: Trẻ cân nặng dưới 20 kg uống liều ban đầu 50 - 100 mg/kg/ngày, chia nhiều lần; "
              "trẻ nặng hơn có thể bắt đầu bằng liều 2 - 3 g/ngày. Liều duy trì 60 - 80 mg/kg/ngày.")


def test_heavier_children_after_an_under_x_kg_band_are_x_kg_and_over() -> None:
    tree = parse_dosage(COMPARISON)
    heavier = _line(tree, "trẻ nặng hơn")
    assert heavier.band.weight_kg is not None
    assert (heavier.band.weight_kg.low, heavier.band.weight_kg.high) == (20, math.inf)
    assert heavier.band.weight_kg.contains(20) and not heavier.band.weight_kg.contains(19.9)
    chosen = [line.text for line in select(tree, _child(144, 35, indication="viêm khớp")).lines]
    assert any("2 - 3 g/ngày" in t for t in chosen) and not any("50 - 100 mg/kg/ngày" in t for t in chosen)
    # The band a sentence states in its own words is that sentence's: the maintenance line is for every child.
    assert _line(tree, "Liều duy trì").band.empty


def test_near_miss_a_comparison_without_a_one_sided_band_before_it_stays_unplaced() -> None:
    tree = parse_dosage("Trẻ em: Trẻ 2 - 6 tuổi: 5 mg/kg; trẻ lớn hơn có thể dùng 10 mg/kg.")
    assert any("lớn hơn" in u.text for u in tree.unplaced)
    tree = parse_dosage("Trẻ em: Trẻ dưới 20 kg uống 5 mg/kg; trẻ lớn hơn có thể dùng 10 mg/kg.")
    assert any("lớn hơn" in u.text for u in tree.unplaced)  # "lớn hơn" after a weight band: older or heavier?


# --- bands listed for one dose are their union --------------------------------------------------------------------

LISTED = ("Trẻ em: Liều ban đầu: 0,1 mg/kg/ngày, trong 2 ngày đầu đối với trẻ < 12 tháng tuổi, 12 tháng tuổi - "
          "5 tuổi và 6 tuổi - 18 tuổi. Liều duy trì: 0,2 mg/kg/ngày cho trẻ < 12 tháng tuổi; 1234 Thuốc từ 12 tháng "
          "tuổi - 5 tuổi: không có dữ liệu; 0,05 mg/kg/ngày, cho trẻ từ 6 tuổi - 18 tuổi.")


def test_bands_listed_for_one_dose_are_read_as_the_interval_they_cover() -> None:
    reading = read_band("đối với trẻ < 12 tháng tuổi, 12 tháng tuổi - 10 tuổi và 11 tuổi - 18 tuổi", union=True)
    assert not reading.ambiguous and reading.band.age_months is not None
    assert (reading.band.age_months.low, reading.band.age_months.high) == (0, 216)
    assert read_band("đối với trẻ < 12 tháng tuổi, 12 tháng tuổi - 10 tuổi và 11 tuổi - 18 tuổi").ambiguous
    tree = parse_dosage(LISTED)
    start = _line(tree, "Liều ban đầu")
    assert start.band.age_months is not None and start.band.age_months.contains(60)


def test_near_miss_listed_bands_with_a_gap_or_respective_doses_stay_unplaced() -> None:
    assert read_band("cho trẻ < 12 tháng tuổi và 5 tuổi - 18 tuổi", union=True).ambiguous  # a real gap
    tree = parse_dosage("Trẻ em: Liều lần lượt là 0,3 mg/kg/ngày và 0,1 mg/kg/ngày cho trẻ < 12 tháng tuổi và "
                        "12 tháng tuổi - 18 tuổi.")
    assert tree.unplaced and not any("lần lượt" in line.text for line in tree.lines)


# --- "no data" for a band withholds the general lines, not a line of the patient's own band -----------------------

def test_no_data_for_a_band_is_an_absence_beside_the_patients_own_banded_line() -> None:
    assert absence("từ 12 tháng tuổi - 5 tuổi: không có dữ liệu") and absence("Dưới 3 tuổi: Liều chưa được xác định.")
    assert not absence("Chống chỉ định cho trẻ dưới 2 tuổi.")
    tree = parse_dosage(LISTED)
    texts = [line.text for line in select(tree, _child(36, 14)).lines]
    assert any("0,1 mg/kg/ngày" in t for t in texts) and any("không có dữ liệu" in t for t in texts)
    assert not any("0,2 mg/kg/ngày" in t or "0,05 mg/kg/ngày" in t for t in texts)
    infant = [line.text for line in select(tree, _child(8, 8)).lines]
    assert any("0,2 mg/kg/ngày" in t for t in infant) and not any("không có dữ liệu" in t for t in infant)


def test_near_miss_no_data_with_nothing_else_for_the_patient_is_an_exclusion() -> None:
    tree = parse_dosage("Trẻ em: Dưới 3 tuổi: Liều chưa được xác định. 3 - 12 tuổi: 0,05 mg/kg/ngày. "
                        "Trẻ em: Có thể tăng dần nếu cần, tối đa 6 mg/ngày.")
    selection = select(tree, _child(24, 12))
    assert selection.exclusions and not selection.lines


# --- an exclusion on every route needs no route question ----------------------------------------------------------

def test_an_exclusion_that_admits_the_patient_on_every_route_asks_no_route() -> None:
    tree = parse_dosage("Trẻ em: Thường không khuyến cáo dùng cho trẻ cân nặng dưới 7 kg. Uống: 10 mg/kg/lần. "
                        "Truyền tĩnh mạch: 5 mg/kg/lần.")
    assert routes_for(tree, _child(4, 4.5)) == []
    assert select(tree, _child(4, 4.5)).exclusions
    assert set(routes_for(tree, _child(24, 12))) == {"oral", "iv"}  # near miss: a 12 kg child chooses a route
    # Near miss: an exclusion under one route's lead-in is that route's; the other route is still offered.
    oral_only = parse_dosage("Uống: Trẻ em: Không khuyến cáo cho trẻ cân nặng dưới 7 kg. Trẻ em: 10 mg/kg/lần. "
                             "Truyền tĩnh mạch: Trẻ em: 5 mg/kg/lần.")
    assert routes_for(oral_only, _child(4, 4.5)) == ["iv"]


# --- younger than the youngest band: no dose, the floor quoted ---------------------------------------------------

FLOOR = ("Liều dùng: Người lớn: 300 mg/lần, 2 lần mỗi ngày. Trẻ em: Trẻ trên 3 tháng tuổi đến 12 tuổi là "
         "8 mg/kg/lần, 2 lần mỗi ngày. Với trẻ cân nặng ≥ 14 kg - 21 kg: 150 mg/lần. Uống thuốc đúng giờ.")


def test_a_child_below_the_youngest_band_gets_the_floor_and_no_dose() -> None:
    tree = parse_dosage(FLOOR)
    selection = select(tree, _child(2, 5))
    assert selection.below_floor is not None and band_words(selection.below_floor) == "Trẻ trên 3 tháng tuổi đến 12 tuổi"
    assert all(line.kind == "note" for line in selection.lines)
    assert not any("mg" in line.text for line in selection.lines)


def test_near_miss_a_child_between_or_above_the_bands_is_not_below_the_floor() -> None:
    tree = parse_dosage(FLOOR)
    assert select(tree, _child(200, 60)).below_floor is None  # above the top band: not "too young"
    assert select(tree, _child(60, 18)).below_floor is None  # in a band
    newborn = parse_dosage("Trẻ em: Sơ sinh 28 - 32 tuần: 5 mg/kg. Trẻ 1 - 3 tháng tuổi: 10 mg/kg.")
    assert select(newborn, _child(0.5, 3)).below_floor is None  # a newborn's gestation band may be theirs


# --- the real text (read at test time) ----------------------------------------------------------------------------

def test_real_warfarin_child_start_dose_is_for_every_listed_band() -> None:
    tree = parse_dosage(real_field("678_warfarin", "lieu_dung"), drug_names=["Warfarin"])
    five = [line.text for line in select(tree, _child(60, 18)).lines]
    assert any("0,20 mg/kg/ngày" in t for t in five)
    assert not any("0,32 mg/kg/ngày" in t or "0,09 mg/kg/ngày" in t for t in five)


def test_real_papaverine_injection_lines_are_injection_routes() -> None:
    tree = parse_dosage(real_field("497_papaverine", "lieu_dung"), drug_names=["Papaverine"])
    child = select(tree, _child(72, 20, route="im")).lines
    assert child and all("im" in line.routes for line in child)
    assert any("mg/kg/24 giờ" in line.text for line in child)


@pytest.mark.parametrize("stem", ["007_acetylsalicylic_acid"])
def test_real_juvenile_arthritis_heavier_child_band_is_read(stem: str) -> None:
    tree = parse_dosage(real_field(stem, "lieu_dung"), drug_names=["Acetylsalicylic acid"])
    chosen = select(tree, _child(144, 35, route="oral", indication="viêm khớp dạng thấp thiếu niên"))
    assert not chosen.exclusions
    assert any("2,4 - 3,6 g/ngày" in line.text for line in chosen.lines)


# --- the fixture's PDF-shaped monograph (synthetic) ---------------------------------------------------------------

def test_fixture_flattened_injection_block_reads_the_new_rules() -> None:
    from grounding.dosing_select import section_tree
    from tests.unit.grounding_fixtures import fixture_chunks

    chunks = [c for c in fixture_chunks("clindamycin") if c.section_key == "lieu_luong_cach_dung"]
    tree = section_tree(chunks, ["clindamycin"]).tree
    adult = _line(tree, "600 mg một liều trước phẫu thuật")
    assert adult.path == ("Dự phòng trong phẫu thuật", "Tiêm", "Người lớn") and set(adult.routes) == {"iv", "im"}
    assert [m.kind for m in adult.maxima] == ["absolute"] and adult.kind == "regimen"  # "không nên dùng liều quá"
    heavier = _line(tree, "trẻ nặng hơn")
    assert heavier.band.weight_kg is not None and heavier.band.weight_kg.contains(20)
    repeat = _line(tree, "Liều nhắc lại")
    assert repeat.band.age_months is not None and repeat.band.age_months.contains(66)  # "5 tuổi và 6 tuổi"
    chosen = [line.text for line in select(tree, _child(72, 25, route="im", indication="dự phòng phẫu thuật")).lines]
    assert any("300 mg một liều" in t for t in chosen) and not any("10 mg/kg một liều" in t for t in chosen)


# --- a dose under no lead-in is the adult default; a band on a note is not a dose band -----------------------------

DEFAULT = ("Cách dùng: Uống một lần mỗi ngày. Liều dùng: Liều bắt đầu thông thường là 4 mg, điều chỉnh theo xét "
           "nghiệm. Đối với người có nguy cơ (cân nặng dưới 50 kg), liều đầu tiên còn thấp hơn. Trẻ em: Trẻ 1 - 12 "
           "tuổi: 0,1 mg/kg/ngày.")


def test_a_dose_under_no_lead_in_is_the_adults_and_a_noted_band_does_not_hide_it() -> None:
    tree = parse_dosage(DEFAULT)
    adult = select(tree, Patient(population="adult", route="oral"))
    assert any("4 mg" in line.text for line in adult.lines)
    assert not adult.no_band  # the weight band is on a note, not on a dose: the adult is not "in no band"
    child = [line.text for line in select(tree, _child(60, 18)).lines]
    assert not any("4 mg" in t for t in child)  # near miss: never a child's dose


def test_near_miss_a_context_free_note_is_not_shown_as_the_adults_dose() -> None:
    tree = parse_dosage("Phải lắc kỹ trước khi dùng. Người lớn: 4 mg/ngày.")
    adult = [line.text for line in select(tree, Patient(population="adult")).lines]
    assert adult == ["4 mg/ngày."]


def test_a_line_opening_with_one_of_its_contexts_routes_is_that_routes_and_the_context_stays_open() -> None:
    tree = parse_dosage("Uống, đặt trực tràng: Giảm đau: Uống 300 mg/lần. Trẻ em: 10 mg/kg/lần.")
    oral = _line(tree, "Uống 300 mg/lần")
    assert oral.routes == ("oral",) and oral.context.indication == ("Giảm đau",)
    child = _line(tree, "10 mg/kg/lần")  # near miss: the next line is not narrowed, nor loses the indication
    assert set(child.routes) == {"oral", "rectal"} and child.context.indication == ("Giảm đau",)


# --- a renal band that states no amount modifies the usual dose; one with its own amount replaces it ---------------

RENAL_INTERVAL = ("Người lớn: Uống 250 - 500 mg/lần, cách 8 giờ một lần. Trẻ em: Uống 10 mg/kg/lần, cách 8 giờ. "
                  "Suy thận: Người lớn, Clcr 20 - 60 ml/phút, cho cách nhau 12 giờ/lần. Clcr < 20 ml/phút: 250 mg "
                  "mỗi 24 giờ.")


def _renal_adult(clcr: float) -> Patient:
    return Patient(population="adult", age_months=70 * 12, route="oral", renal=True, renal_ml_min=clcr)


def test_a_renal_band_that_only_changes_the_interval_is_shown_with_the_usual_dose() -> None:
    chosen = [line.text for line in select(parse_dosage(RENAL_INTERVAL), _renal_adult(40)).lines]
    assert any("Uống 250 - 500 mg/lần" in t for t in chosen)  # the dose the 12-hour interval applies to
    assert any("cho cách nhau 12 giờ/lần" in t for t in chosen)
    assert not any("mỗi 24 giờ" in t for t in chosen)  # the other renal band
    assert not any("10 mg/kg/lần" in t for t in chosen)  # the child's


def test_near_miss_a_renal_band_with_its_own_amount_replaces_the_usual_dose() -> None:
    chosen = [line.text for line in select(parse_dosage(RENAL_INTERVAL), _renal_adult(12)).lines]
    assert any("250 mg mỗi 24 giờ" in t for t in chosen)
    assert not any("Uống 250 - 500 mg/lần" in t for t in chosen)
    assert not any("12 giờ/lần" in t for t in chosen)


def test_real_paracetamol_adult_clcr_35_gets_the_usual_oral_dose_with_the_6_hour_interval() -> None:
    tree = parse_dosage(real_field("498_paracetamol", "lieu_dung"), drug_names=["Paracetamol"])
    chosen = [line.text for line in select(tree, _renal_adult(35)).lines]
    assert any("0,5 - 1 g/lần" in t for t in chosen) and any("cách nhau 6 giờ/lần" in t for t in chosen)
    assert not any("cách nhau 8 giờ/lần" in t for t in chosen)


# --- a child at the edge weight is in the heavier band only --------------------------------------------------------

EDGE = ("Trẻ em: Viêm khớp: Trẻ cân nặng dưới 20 kg uống liều ban đầu 50 - 100 mg/kg/ngày, chia nhiều lần; trẻ nặng "
        "hơn có thể bắt đầu bằng liều 2 - 3 g/ngày. Liều duy trì 60 - 80 mg/kg/ngày.")


def test_a_child_of_exactly_the_band_edge_weight_is_in_the_heavier_band_only() -> None:
    chosen = [line.text for line in select(parse_dosage(EDGE), _child(120, 20, route="oral",
                                                                      indication="viêm khớp")).lines]
    assert any("2 - 3 g/ngày" in t for t in chosen)
    assert not any("50 - 100 mg/kg/ngày" in t for t in chosen)  # "dưới 20 kg" is not a 20 kg child's


def test_near_miss_a_lighter_child_is_in_the_under_band_only() -> None:
    chosen = [line.text for line in select(parse_dosage(EDGE), _child(120, 19, route="oral",
                                                                      indication="viêm khớp")).lines]
    assert any("50 - 100 mg/kg/ngày" in t for t in chosen) and not any("2 - 3 g/ngày" in t for t in chosen)


# --- an indication matched with a dose of its own: no general dose of the same route beside it ----------------------

ROUTE_INDICATION = ("Liều tiêm: Tiêm tĩnh mạch: Tiêm chậm trong 3 phút. Trẻ em (từ 1 tháng - 12 tuổi): 80 - 160 "
                    "mg/kg/ngày. Dự phòng phẫu thuật: Trẻ em: Tiêm tĩnh mạch 30 mg/kg trước mổ.")


def test_a_matched_indication_on_a_route_drops_the_routes_general_dose() -> None:
    chosen = select(parse_dosage(ROUTE_INDICATION), _child(72, 20, route="iv", indication="dự phòng phẫu thuật"))
    texts = [line.text for line in chosen.lines]
    assert any("30 mg/kg trước mổ" in t for t in texts)
    assert not any("80 - 160 mg/kg/ngày" in t for t in texts)  # the dose of the indications not listed apart
    assert any("Tiêm chậm trong 3 phút" in t for t in texts)  # how the route is given stays
    assert not chosen.no_band  # the child is in the 1 month - 12 years band: no "no band" notice


def test_near_miss_without_an_indication_or_with_one_the_book_does_not_name_the_general_dose_stays() -> None:
    tree = parse_dosage(ROUTE_INDICATION)
    for indication in (None, "viêm phổi"):
        texts = [line.text for line in select(tree, _child(72, 20, route="iv", indication=indication)).lines]
        assert any("80 - 160 mg/kg/ngày" in t for t in texts), indication
    # An indication the book does not name: its general dose, not another indication's.
    texts = [line.text for line in select(tree, _child(72, 20, route="iv", indication="viêm phổi")).lines]
    assert not any("30 mg/kg trước mổ" in t for t in texts)


# --- a ceiling's label is no heading; a long-term phase opens its own lines; an injection heading owns its route -----

INJECTION_BLOCK = ("Bệnh loạn thần và rối loạn hành vi. Người lớn: Ban đầu 1 - 3 mg, 2 lần/ngày. Thuốc tiêm: Dùng trong "
                   "loạn thần cấp: Tiêm bắp ban đầu 1 - 4 mg. Liều giới hạn thông thường tiêm bắp cho người lớn: 50 "
                   "mg/ngày. Khi người bệnh đã ổn định và cần điều trị lâu dài, có thể tiêm bắp dạng tác dụng kéo dài. "
                   "Liều ban đầu 20 mg mỗi 4 tuần.")


def test_a_ceiling_label_keeps_its_context_and_a_long_term_phase_heads_the_depot_lines() -> None:
    tree = parse_dosage(INJECTION_BLOCK)
    ceiling = _line(tree, "Liều giới hạn thông thường tiêm bắp")
    assert ceiling.context.indication == ("Dùng trong loạn thần cấp",) and ceiling.routes == ("im",)
    depot = _line(tree, "Liều ban đầu 20 mg")
    assert "Dùng trong loạn thần cấp" not in depot.context.indication  # near miss: not the acute dose


def test_an_injection_question_gets_the_injection_block_and_not_the_routeless_oral_block() -> None:
    tree = parse_dosage(INJECTION_BLOCK)
    adult = Patient(population="adult", age_months=35 * 12, route="im", indication="loạn thần cấp")
    texts = [line.text for line in select(tree, adult).lines]
    assert any("Tiêm bắp ban đầu 1 - 4 mg" in t for t in texts)
    assert not any("Ban đầu 1 - 3 mg" in t for t in texts) and not any("20 mg mỗi 4 tuần" in t for t in texts)
    oral = Patient(population="adult", age_months=35 * 12, route="oral", indication="tâm thần phân liệt")
    texts = [line.text for line in select(tree, oral).lines]
    assert any("Ban đầu 1 - 3 mg" in t for t in texts) and not any("Tiêm bắp" in t for t in texts)
