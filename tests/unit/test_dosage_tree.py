"""The dosage tree places each line of a dosage section under its route, indication, population and band.

Real-text expectations are written from the source text (../shared/realtext, read at test time, never copied
into the repository); they skip, saying so, when that folder is absent.
"""

from __future__ import annotations

import math

import pytest

from core.dosage.bands import read_band, renal_value, repair_lost_dashes
from core.dosage.model import DosageTree, Patient, RegimenLine
from core.dosage.parse import parse_dosage, placement
from core.dosage.select import select
from grounding.dosing_select import section_tree
from states.dosing import indication_ambiguous, indications_in_evidence, routes_in_evidence
from states.frame import QueryFrame
from tests.unit.grounding_fixtures import fixture_chunks
from tests.unit.realtext import real_field, real_stems

FIXTURE_LABELLED = (
    "*Cách dùng:* Thuốc dùng đường uống.\n\n"
    "*Uống – Người lớn:* 500 mg – 1 g/lần, mỗi 4–6 giờ nếu cần; tối đa 4 g/ngày.\n\n"
    "*Uống – Trẻ em:* Liều theo tuổi, mỗi 4–6 giờ, không quá 4 lần trong 24 giờ:\n"
    "- Trẻ 3–6 tháng tuổi: 60 mg/lần.\n"
    "- Trẻ 4–6 tuổi: 240 mg/lần.\n"
    "Liều theo cân nặng: 10–15 mg/kg/lần, mỗi 4–6 giờ; tối đa 60 mg/kg/ngày.\n"
)


def _tree(stem: str, name: str) -> DosageTree:
    return parse_dosage(real_field(stem, "lieu_dung"), drug_names=[name])


def _line(tree: DosageTree, starts: str, *, after: str = "") -> RegimenLine:
    """The first placed line starting with `starts` (after the first line containing `after`, if given)."""
    lines = tree.lines
    if after:
        first = next(i for i, line in enumerate(lines) if after in line.text or after in " ".join(line.path))
        lines = lines[first:]
    found = [line for line in lines if line.text.startswith(starts)]
    assert found, f"no placed line starts with {starts!r}; unplaced: {[u.text[:60] for u in tree.unplaced]}"
    return found[0]


# --- bands -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("phrase", "dimension", "low", "high"), [
    ("Trẻ em 3 - 6 tháng tuổi", "age_months", 3, 6),
    ("Trẻ em 6 tháng - 2 tuổi", "age_months", 6, 24),
    ("Trẻ em 10 12 tuổi", "age_months", 120, 144),  # the dash the extraction lost
    ("Với trẻ cân nặng ≥ 14 kg - 21 kg", "weight_kg", 14, 21),
    ("Với trẻ cân nặng > 21 kg - dưới 30 kg", "weight_kg", 21, 30),
    ("Trẻ em cân nặng < 10 kg", "weight_kg", 0, 10),
    ("Clcr 10 - 50 ml/phút", "renal_ml_min", 10, 50),
    ("eGFR 30–44 ml/phút/1,73 m²", "renal_ml_min", 30, 44),
    ("Sơ sinh 28 - 32 tuần", "gestation_weeks", 28, 32),
    ("Trên 50 kg", "weight_kg", 50, math.inf),
])
def test_a_band_phrase_reads_as_its_range(phrase: str, dimension: str, low: float, high: float) -> None:
    bound = getattr(read_band(phrase).band, dimension)
    assert bound is not None and (bound.low, bound.high) == (low, high)


def test_the_ge_a_to_b_style_closes_the_top_so_the_next_band_can_open_above_it() -> None:
    first = read_band("≥ 14 kg - 21 kg").band.weight_kg
    second = read_band("> 21 kg - dưới 30 kg").band.weight_kg
    assert first is not None and second is not None
    assert first.contains(21) and not second.contains(21) and second.contains(21.5)


def test_a_lost_dash_is_restored_only_between_an_ascending_pair() -> None:
    assert repair_lost_dashes("tre em 10 12 tuoi") == "tre em 10 - 12 tuoi"
    assert repair_lost_dashes("uong 2 1 tuoi") == "uong 2 1 tuoi"


def test_a_phrase_naming_several_bands_is_ambiguous_not_joined() -> None:
    assert read_band("trẻ < 12 tháng tuổi, 12 tháng tuổi - 10 tuổi và 11 tuổi - 18 tuổi").ambiguous


def test_a_users_renal_value_is_read_from_clcr_or_egfr() -> None:
    assert renal_value("suy thận, eGFR 25") == 25
    assert renal_value("độ thanh thải creatinin 40 ml/phút") == 40
    assert renal_value("suy thận") is None


# --- the fixture's labelled Markdown ------------------------------------------------------------------------

def test_labelled_markdown_places_each_list_item_under_its_label_and_band() -> None:
    tree = parse_dosage(FIXTURE_LABELLED)
    band = _line(tree, "Trẻ 3–6 tháng tuổi")
    assert band.routes == ("oral",) and band.population == "pediatric"
    assert band.band.age_months is not None and (band.band.age_months.low, band.band.age_months.high) == (3, 6)
    assert band.path == ("Uống", "Trẻ em")
    weight_rule = _line(tree, "Liều theo cân nặng")
    assert weight_rule.band.empty and weight_rule.population == "pediatric"  # a new line closes the band above
    assert any(m.kind == "per_kg_day" and m.low == 60 for m in weight_rule.maxima)
    adult = _line(tree, "500 mg – 1 g/lần")
    assert adult.population == "adult" and adult.maxima[0].kind == "per_day" and adult.maxima[0].low == 4000
    assert adult.rule is not None and adult.rule.kind == "fixed" and (adult.rule.low, adult.rule.high) == (500, 1000)


def test_each_line_is_an_exact_span_of_the_section() -> None:
    tree = parse_dosage(FIXTURE_LABELLED)
    assert all(FIXTURE_LABELLED[line.start:line.end] == line.text for line in tree.lines)


def test_placement_counts_placed_and_seen_lines() -> None:
    placed, seen = placement(FIXTURE_LABELLED)
    assert placed == seen and placed >= 5
    table = "Với người suy thận: Độ thanh thải creatinin (ml/phút) Liều > 50 10 - 50 < 10 200 mg 100 mg 50 mg 25 mg."
    assert placement(table) == (0, 1)


# --- real monographs ----------------------------------------------------------------------------------------

def test_real_paracetamol_3_to_6_month_oral_band_is_60_mg_under_oral_child_pain_fever() -> None:
    tree = _tree("498_paracetamol", "Paracetamol")
    line = _line(tree, "Trẻ em 3 - 6 tháng tuổi")
    assert "60 mg" in line.text and line.routes == ("oral",) and line.population == "pediatric"
    assert line.context.indication == ("Đau, sốt",)
    assert line.rule is not None and (line.rule.kind, line.rule.low) == ("fixed", 60)


def test_real_paracetamol_lost_dash_band_reads_as_10_to_12_years() -> None:
    line = _line(_tree("498_paracetamol", "Paracetamol"), "Trẻ em 10 12 tuổi")
    assert line.band.age_months is not None and (line.band.age_months.low, line.band.age_months.high) == (120, 144)


def test_real_paracetamol_12_to_18_rectal_post_operative_line_sits_under_its_indication_and_route() -> None:
    tree = _tree("498_paracetamol", "Paracetamol")
    post_op_rectal = _line(tree, "Trẻ em 12 - 18 tuổi", after="Đường trực tràng")
    assert post_op_rectal.routes == ("rectal",)
    assert post_op_rectal.context.indication == ("Đau sau phẫu thuật",)
    assert "1 g" in post_op_rectal.text
    fever_rectal = _line(tree, "Trẻ em 12 - 18 tuổi")
    assert fever_rectal.context.indication == ("Đau, sốt",) and fever_rectal.routes == ("rectal",)
    assert "500 mg" in fever_rectal.text


def test_real_paracetamol_elided_rectal_bands_keep_their_population() -> None:
    line = _line(_tree("498_paracetamol", "Paracetamol"), "1 - 5 tuổi")
    assert line.population == "pediatric" and line.routes == ("rectal",)
    assert line.band.age_months is not None and (line.band.age_months.low, line.band.age_months.high) == (12, 60)


def test_real_paracetamol_a_14_year_old_gets_one_oral_fever_band_not_the_rectal_or_post_operative_ones() -> None:
    tree = _tree("498_paracetamol", "Paracetamol")
    patient = Patient(population="pediatric", age_months=14 * 12, weight_kg=45, route="oral", indication="sốt")
    chosen = select(tree, patient).lines
    texts = [line.text for line in chosen]
    assert any(t.startswith("Trẻ em 12 - 16 tuổi: 480 - 750 mg") for t in texts)
    assert not any(line.routes == ("rectal",) for line in chosen)
    assert not any("Đau sau phẫu thuật" in line.context.indication for line in chosen)
    assert any(m.kind == "doses_per_day" for line in chosen for m in line.maxima)  # "tối đa 4 liều/24 giờ"


def test_real_paracetamol_a_four_month_old_gets_the_60_mg_band() -> None:
    tree = _tree("498_paracetamol", "Paracetamol")
    chosen = select(tree, Patient(population="pediatric", age_months=4, weight_kg=6.5, route="oral")).lines
    assert any(line.text.startswith("Trẻ em 3 - 6 tháng tuổi: 60 mg") for line in chosen)
    assert not any(line.text.startswith(("Trẻ em 1 - 3 tháng", "Trẻ em 6 tháng - 2 tuổi")) for line in chosen)


def test_real_ibuprofen_a_three_year_old_gets_the_1_to_4_year_band_with_its_ceiling() -> None:
    tree = _tree("333_ibuprofen", "Ibuprofen")
    line = _line(tree, "Trẻ 1 - 4 tuổi")
    assert "100 mg x 3 lần/ngày" in line.text and line.population == "pediatric"
    assert any(m.kind == "per_kg_day" and m.low == 30 for m in line.maxima)
    chosen = select(tree, Patient(population="pediatric", age_months=36, weight_kg=14, route="oral")).lines
    assert line in chosen
    assert not any(t.text.startswith(("Trẻ 4 - 7", "Ibuprofen Trẻ 4 - 7", "Trẻ 6 - 12 tháng")) for t in chosen)


def test_real_ibuprofen_under_7_kg_is_an_exclusion_with_no_dose() -> None:
    tree = _tree("333_ibuprofen", "Ibuprofen")
    selection = select(tree, Patient(population="pediatric", age_months=4, weight_kg=6, route="oral"))
    assert selection.exclusions and not selection.lines
    assert "dưới 7 kg" in selection.exclusions[0].text


def test_real_amoxicillin_otitis_child_gets_the_ent_dose_not_lyme() -> None:
    tree = _tree("046_amoxicillin", "Amoxicillin")
    ent = _line(tree, "20 mg/kg/ngày cách 8 giờ")
    assert ent.context.indication[0].startswith("Nhiễm vi khuẩn nhạy cảm ở tai")
    lyme = _line(tree, "Trẻ em dưới 8 tuổi")
    assert lyme.context.indication[0] == "Bệnh Lyme"
    patient = Patient(population="pediatric", age_months=60, weight_kg=20, route="oral", indication="viêm tai giữa")
    chosen = select(tree, patient).lines
    assert ent in chosen and lyme not in chosen
    assert all("Lyme" not in " ".join(line.context.indication) for line in chosen)


def test_real_amoxicillin_adult_gets_its_usual_oral_dose() -> None:
    tree = _tree("046_amoxicillin", "Amoxicillin")
    chosen = select(tree, Patient(population="adult", route="oral", indication="viêm họng")).lines
    assert any(line.text.startswith("250 mg cách 8 giờ/lần") for line in chosen)


def test_real_abacavir_weight_bands_read_the_ge_range() -> None:
    line = _line(_tree("000_abacavir", "Abacavir"), "Với trẻ cân nặng ≥ 14 kg - 21 kg")
    assert line.band.weight_kg is not None and (line.band.weight_kg.low, line.band.weight_kg.high) == (14, 21)
    assert line.band.age_months is None  # the age band of the line before does not leak into it


def test_real_aciclovir_flattened_renal_table_is_reported_not_placed() -> None:
    tree = _tree("006_aciclovir", "Aciclovir")
    assert any("table" in u.reason and "Độ thanh thải creatinin" in u.text for u in tree.unplaced)
    assert not any("> 10 0 - 10" in line.text for line in tree.lines)


def test_real_warfarin_the_11_to_18_dose_is_not_given_the_band_of_the_line_before() -> None:
    tree = _tree("678_warfarin", "Warfarin")
    line = _line(tree, "0,09 mg/kg/ngày")
    assert line.band.age_months is not None and (line.band.age_months.low, line.band.age_months.high) == (132, 216)


@pytest.mark.parametrize("stem", real_stems() or ["(absent)"])
def test_every_real_dosage_section_is_mostly_placed_and_every_line_is_an_exact_span(stem: str) -> None:
    text = real_field(stem, "lieu_dung")
    tree = parse_dosage(text, drug_names=[stem.split("_", 1)[1]])
    placed, seen = tree.placement()
    assert seen and placed / seen >= 0.8, [u.reason for u in tree.unplaced]
    assert all(text[line.start:line.end] == line.text for line in tree.lines)


# --- the fixture's monographs in the PDF-extracted shape (synthetic test data) ------------------------------

def _fixture_tree(drug: str) -> DosageTree:
    return section_tree([c for c in fixture_chunks(drug) if c.section_key == "lieu_luong_cach_dung"],
                        [drug]).tree


def test_flattened_fixture_lost_dash_band_and_page_header_are_read() -> None:
    tree = _fixture_tree("cefalexin")
    band = _line(tree, "Trẻ em 5 12 tuổi")
    assert band.band.age_months is not None and (band.band.age_months.low, band.band.age_months.high) == (60, 144)
    otitis = _line(tree, "75 - 100 mg/kg/ngày")
    assert otitis.context.indication == ("Viêm tai giữa",)  # "413 Cefalexin" (the running header) is not in it
    assert otitis.population == "pediatric"
    assert any("table" in u.reason for u in tree.unplaced)
    assert not any("1,5 g 750 mg" in line.text for line in tree.lines)


def test_flattened_fixture_severity_does_not_carry_over_to_the_age_bands_after_it() -> None:
    line = _line(_fixture_tree("cefalexin"), "Trẻ em dưới 1 tuổi")
    assert line.context.indication == ()


def test_flattened_fixture_weight_ranges_and_gestational_bands() -> None:
    tree = _fixture_tree("clindamycin")
    light = _line(tree, "Với trẻ cân nặng ≥ 10 kg - 20 kg")
    assert light.band.weight_kg is not None and light.band.weight_kg.contains(20)
    heavy = _line(tree, "Với trẻ cân nặng > 20 kg - dưới 40 kg")
    assert heavy.band.weight_kg is not None and not heavy.band.weight_kg.contains(20)
    preterm = _line(tree, "Sơ sinh 28 - 37 tuần")
    assert preterm.context.neonate and preterm.routes == ("iv", "im")
    lost = _line(tree, "Trẻ em 1 tháng 16 tuổi")
    assert lost.band.age_months is not None and (lost.band.age_months.low, lost.band.age_months.high) == (1, 192)


def test_flattened_fixture_renal_bands_keep_the_population_their_first_line_names() -> None:
    tree = _fixture_tree("levetiracetam")
    line = _line(tree, "Clcr 30 - 49 ml/phút")
    assert line.population == "adult" and line.context.renal
    assert line.band.renal_ml_min is not None and line.band.renal_ml_min.contains(40)
    exclusion = _line(tree, "Không dùng cho trẻ dưới 1 tháng tuổi")
    assert exclusion.kind == "exclusion"


def test_routes_offered_come_from_lines_for_this_patient() -> None:
    paracetamol = [c for c in fixture_chunks("paracetamol") if c.section_key == "lieu_luong_cach_dung"]
    ibuprofen = [c for c in fixture_chunks("ibuprofen") if c.section_key == "lieu_luong_cach_dung"]
    assert routes_in_evidence(paracetamol, "pediatric", age_months=60, weight_kg=18) == ["oral", "rectal", "iv"]
    assert routes_in_evidence(ibuprofen, "pediatric", age_months=60, weight_kg=18) == ["oral"]
    clindamycin = [c for c in fixture_chunks("clindamycin") if c.section_key == "lieu_luong_cach_dung"]
    # A newborn: the child's oral line (the text sets no age on it) and the neonatal injection lines; the
    # 1-month-to-16-year injection band is not what offers the injection routes.
    assert routes_in_evidence(clindamycin, "pediatric", age_months=0.5, weight_kg=3) == ["oral", "iv", "im"]
    assert routes_in_evidence(clindamycin, "pediatric", age_months=60, weight_kg=40.5) == ["oral", "iv", "im"]


def test_indications_offered_for_a_clarify_are_those_of_the_patients_own_lines() -> None:
    # The child has a general dose line of their own ("Trẻ em 1 - 5 tuổi: 125 mg", the usual dose by age): answered
    # with the indication lines labelled beside it (golden transcript tree-flattened-age-band-only-the-patients), so
    # nothing is offered for a clarify.
    cefalexin = [c for c in fixture_chunks("cefalexin") if c.section_key == "lieu_luong_cach_dung"]
    child = QueryFrame(turn_type="dosing_calc", drugs=["cefalexin"], section_key="lieu_luong_cach_dung",
                       population="pediatric", age_months=36, weight_kg=14)
    assert indications_in_evidence(cefalexin, child) == []
    # No general dose line for an adult, three indications: asked; a condition named in the question is not asked.
    carbamazepin = [c for c in fixture_chunks("carbamazepin") if c.section_key == "lieu_luong_cach_dung"]
    adult = QueryFrame(turn_type="dosing_calc", drugs=["carbamazepin"], section_key="lieu_luong_cach_dung",
                       population="adult")
    found = indications_in_evidence(carbamazepin, adult)
    assert found == ["Động kinh", "Dây thần kinh sinh ba", "Rối loạn lưỡng cực"]
    assert indication_ambiguous(adult, found)
    assert not indication_ambiguous(adult.model_copy(update={"condition": "động kinh"}), found)
    # Severity sub-bands are one indication ("Nhiễm khuẩn nhẹ và vừa" / "Nhiễm khuẩn nặng" of one infection).
    amoxicilin = [c for c in fixture_chunks("amoxicilin") if c.section_key == "lieu_luong_cach_dung"]
    kid = child.model_copy(update={"drugs": ["amoxicilin"], "route": "oral"})
    assert not indication_ambiguous(kid, indications_in_evidence(amoxicilin, kid))


def test_a_day_of_treatment_is_a_phase_of_the_indication_above_it_never_an_indication_of_its_own() -> None:
    # Written before running: "Những ngày sau:" is when in the course of the same indication the dose is given, for
    # every band of the first day; the indications offered are the disease only.
    section = ("*Uống – Trẻ em:* Viêm ruột cấp, liều ngày đầu:\n"
               "- Trẻ 2–5 tuổi: 1 mg/lần, 3 lần/ngày.\n"
               "- Trẻ 6–12 tuổi: 2 mg/lần, 3 lần/ngày.\n"
               "Những ngày sau: 0,1 mg/kg/lần, tối đa 3 lần/ngày.\n")
    tree = parse_dosage(section, drug_names=["thuốc thử"])
    later = next(line for line in tree.lines if line.text.startswith("0,1 mg/kg"))
    assert later.context.indication == ("Viêm ruột cấp",)
    assert later.path[-1] == "Những ngày sau" and later.band.empty
    first_day = {tuple(line.context.indication) for line in tree.lines if line.kind == "regimen"}
    assert first_day == {("Viêm ruột cấp",)}


def test_a_lead_in_naming_the_drugs_salt_form_is_no_indication_and_its_equivalence_no_dose() -> None:
    """'X được dùng dưới dạng muối …: 20,6 mg X magnesi tương đương với 20 mg X' says how the salt converts: read as
    an indication lead-in with a dose, it was offered as an indication to choose ('which indication?')."""
    tree = parse_dosage("Cách dùng: Omeprazol được dùng dưới dạng muối magnesi: 20,6 mg omeprazol magnesi tương "
                        "đương với 20 mg omeprazol. Liều dùng: Loét tá tràng: Uống mỗi ngày một lần 20 mg trong 4 "
                        "tuần.", drug_names=["omeprazol"])
    equivalence = next(line for line in tree.lines if "tương đương" in line.text)
    assert equivalence.kind == "note"
    regimen = [line for line in tree.lines if line.kind == "regimen"]
    assert [line.context.indication for line in regimen] == [("Loét tá tràng",)]


def test_a_strength_to_dilute_to_is_a_note_and_the_sentence_after_it_a_line_of_its_own() -> None:
    # Synthetic text in the real book's shape: a concentration is no dose, so the obesity note after it is not glued
    # to it (as one "dose" line it was dropped with the general doses when an indication was named).
    tree = parse_dosage("Tiêm truyền tĩnh mạch: Dung dịch để truyền được pha tới nồng độ khoảng 5 mg/ml. Ở người béo "
                        "phì, liều tính theo cân nặng lý tưởng. Người lớn: 5 mg/kg/lần, cách 8 giờ/lần.")
    by_text = {line.text: line for line in tree.lines}
    assert by_text["Dung dịch để truyền được pha tới nồng độ khoảng 5 mg/ml."].kind == "note"
    assert by_text["Ở người béo phì, liều tính theo cân nặng lý tưởng."].kind == "note"


def test_a_form_forbidden_below_a_renal_value_is_a_note_of_that_band_not_a_clause_of_the_line_before() -> None:
    tree = parse_dosage("Suy thận: Độ thanh thải creatinin dưới 10 ml/phút: 250 mg/lần, mỗi 24 giờ. Không dùng viên "
                        "875 mg khi độ thanh thải creatinin dưới 30 ml/phút.")
    forbidden = next(line for line in tree.lines if line.text.startswith("Không dùng viên 875 mg"))
    assert forbidden.kind == "note"
    renal = forbidden.band.renal_ml_min
    assert renal is not None and renal.high == 30.0
    twenty = Patient(population="adult", renal_ml_min=20.0, renal=True)
    assert forbidden in select(tree, twenty).lines


def test_the_inhaler_asked_is_the_inhalers_line_and_the_nebuliser_asked_the_nebulisers() -> None:
    # Synthetic text in the fixture's shape: one route ("Khí dung"), two devices under the population.
    tree = parse_dosage("*Khí dung – Trẻ em:* Bình xịt định liều (qua buồng đệm): 100–200 mcg khi cần, tối đa 4 "
                        "lần/ngày. Dung dịch khí dung qua máy phun, liều theo tuổi:\n"
                        "- Trẻ 1 tháng tuổi – 5 tuổi: 2,5 mg/lần, nhắc lại đến 4 lần/ngày.\n")
    child = Patient(population="pediatric", age_months=48, weight_kg=16, route="inhaled")

    def doses(patient: Patient) -> set[str]:
        return {line.text for line in select(tree, patient).lines if line.kind == "regimen"}

    assert doses(child) == {"100–200 mcg khi cần, tối đa 4 lần/ngày.",
                            "Trẻ 1 tháng tuổi – 5 tuổi: 2,5 mg/lần, nhắc lại đến 4 lần/ngày."}
    assert doses(Patient(**{**child.__dict__, "device": "metered"})) == {"100–200 mcg khi cần, tối đa 4 lần/ngày."}
    assert doses(Patient(**{**child.__dict__, "device": "nebulizer"})) == {
        "Trẻ 1 tháng tuổi – 5 tuổi: 2,5 mg/lần, nhắc lại đến 4 lần/ngày."}


def test_a_purpose_lead_in_after_a_phase_sentence_is_not_under_it_and_keeps_the_route_it_names() -> None:
    # Synthetic text in the real book's shape (haloperidol's injection block): the depot sentence opens a phase on
    # the route it names; the antiemetic lead-in after it is another purpose, intramuscular as its line says.
    tree = parse_dosage("Haloperidol lactat có thể tiêm tĩnh mạch. Thuốc tiêm: Dùng trong loạn thần cấp: Tiêm bắp ban "
                        "đầu 2 - 5 mg. Khi người bệnh đã ổn định với liều uống và cần điều trị lâu dài, có thể tiêm bắp "
                        "sâu dạng decanoat. Liều ban đầu tương đương 10 đến 15 lần tổng liều uống hàng ngày. Điều trị "
                        "buồn nôn và nôn do các nguyên nhân: Liều thông thường: 1 - 2 mg tiêm bắp, cách nhau 12 giờ.")
    depot = _line(tree, "Liều ban đầu tương đương")
    assert depot.routes == ("im",) and any("lâu dài" in p for p in depot.path)
    antiemetic = _line(tree, "Liều thông thường: 1 - 2 mg")
    assert antiemetic.routes == ("im",) and not any("lâu dài" in p for p in antiemetic.path)
    # The purpose is the line's indication: "chống nôn sau mổ" finds it (#17 held-out H164).
    assert antiemetic.context.indication == ("Điều trị buồn nôn và nôn do các nguyên nhân",)
