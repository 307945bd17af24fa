"""Session 10 blind testers, dose path: pure functions of the dosage tree and the indication words (synthetic text
in the shape of the fixture formulary; not clinical guidance)."""

from __future__ import annotations

from core.dosage.model import Patient
from core.dosage.parse import parse_dosage
from core.dosage.select import select
from states.slots import dose_indication

LOSARTAN_LIKE = (
    "*Uống – Trẻ em:* Tăng huyết áp ở trẻ 6–16 tuổi, 1 lần/ngày:\n"
    "- Trẻ 20–50 kg: 25 mg/lần; tối đa 50 mg/ngày.\n"
    "Liều theo cân nặng: 0,7 mg/kg/lần (tối đa 50 mg/lần), 1 lần/ngày. "
    "Không khuyến cáo cho trẻ dưới 6 tuổi hoặc trẻ có eGFR dưới 30 ml/phút/1,73 m².\n"
)


def test_either_or_exclusion_is_one_line_per_band() -> None:
    tree = parse_dosage(LOSARTAN_LIKE)
    exclusions = [line for line in tree.lines if line.kind == "exclusion"]
    assert len(exclusions) == 2 and all(line.either for line in exclusions)
    assert {(line.band.age_months is not None, line.band.renal_ml_min is not None) for line in exclusions} == {
        (True, False), (False, True)}


def test_child_under_the_age_alternative_gets_the_exclusion_and_no_dose() -> None:
    tree = parse_dosage(LOSARTAN_LIKE)
    selection = select(tree, Patient(population="pediatric", age_months=48, weight_kg=16, route="oral"))
    assert selection.exclusions and not selection.lines


def test_child_in_band_is_not_excluded_without_an_egfr() -> None:
    tree = parse_dosage(LOSARTAN_LIKE)
    selection = select(tree, Patient(population="pediatric", age_months=96, weight_kg=25, route="oral"))
    assert not selection.exclusions and any("25 mg/lần" in line.text for line in selection.lines)


IV_LIKE = ("*Truyền tĩnh mạch – Người lớn:* 1 g/lần, mỗi 6 giờ; tối đa 4 g/ngày. "
           "Người lớn cân nặng 33–50 kg: 15 mg/kg/lần, tối đa 60 mg/kg/ngày và không quá 3 g/ngày.\n")


def test_light_adult_gets_the_weight_band_not_the_default_dose() -> None:
    tree = parse_dosage(IV_LIKE)
    texts = [line.text for line in select(tree, Patient(population="adult", age_months=65 * 12, weight_kg=45,
                                                         route="iv")).lines]
    assert any("15 mg/kg/lần" in t for t in texts) and not any(t.startswith("1 g/lần") for t in texts)
    heavy = [line.text for line in select(tree, Patient(population="adult", age_months=40 * 12, weight_kg=70,
                                                        route="iv")).lines]
    assert any(t.startswith("1 g/lần") for t in heavy)


def test_a_ceiling_band_does_not_replace_the_usual_dose() -> None:
    tree = parse_dosage("*Uống – Người lớn:* 500 mg – 1 g/lần, mỗi 4–6 giờ; tối đa 4 g/ngày. "
                        "Người nghiện rượu hoặc cân nặng dưới 50 kg: không quá 3 g/ngày.\n")
    texts = [line.text for line in select(tree, Patient(population="adult", age_months=40 * 12, weight_kg=45,
                                                         route="oral")).lines]
    assert any(t.startswith("500 mg") for t in texts)


def test_a_note_naming_an_inhaler_device_is_the_inhaled_route() -> None:
    tree = parse_dosage("*Cách dùng:* Trẻ nhỏ dùng bình xịt qua buồng đệm có mặt nạ.\n"
                        "*Uống – Trẻ em:* Trẻ 2–6 tuổi: 1–2 mg/lần, 3–4 lần/ngày.\n")
    note = next(line for line in tree.lines if "buồng đệm" in line.text)
    assert note.routes == ("inhaled",)
    oral = select(tree, Patient(population="pediatric", age_months=48, weight_kg=16, route="oral"))
    assert note not in oral.lines


def test_a_negated_qualifier_is_not_the_indication() -> None:
    assert dose_indication("bé sơ sinh nhiễm HSV (không lan tỏa), truyền aciclovir liều bao nhiêu", ["aciclovir"]) \
        == "nhiễm HSV"
    assert dose_indication("nhiễm HSV chưa lan tỏa", []) == "nhiễm HSV"
    assert dose_indication("nhiễm HSV lan tỏa", []) == "nhiễm HSV lan tỏa"


KAWASAKI_LIKE = ("*Uống – Trẻ em:* Chỉ dùng trong bệnh Kawasaki, dưới sự giám sát của thầy thuốc chuyên khoa. "
                 "Giai đoạn cấp: 80–100 mg/kg/ngày, chia 4 lần.\n")


def test_a_block_restricted_to_the_disease_asked_is_that_indications() -> None:
    tree = parse_dosage(KAWASAKI_LIKE)
    selection = select(tree, Patient(population="pediatric", age_months=60, weight_kg=18, route="oral",
                                     indication="Kawasaki"))
    assert not selection.indication_unmatched and any("80–100" in line.text for line in selection.lines)
    other = select(tree, Patient(population="pediatric", age_months=60, weight_kg=18, route="oral",
                                 indication="viêm phổi"))
    assert other.indication_unmatched
