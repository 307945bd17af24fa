"""A dose line whose lead-in names a state of the patient ("Nếu suy giảm miễn dịch nặng …:"), right after a line that
opens with its own purpose, is that purpose's line for those patients — not an indication of its own (issue 17).
Synthetic text in the book's flattened shape, not the book's own."""

from __future__ import annotations

from core.dosage.model import Patient
from core.dosage.parse import parse_dosage
from core.dosage.select import select

SECTION = (
    "Uống: Liều uống thay đổi theo chỉ định: Điều trị nhiễm virus X tiên phát bao gồm cả thể ở da và niêm mạc: "
    "Liều thông thường uống 150 mg/lần, ngày 4 lần. "
    "Nếu suy giảm miễn dịch nặng hoặc hấp thu kém: 300 mg/lần, ngày 4 lần, trong 6 ngày. "
    "Loại bỏ tái phát ở người có khả năng miễn dịch: 700 mg/ngày chia 2 lần. "
    "Dự phòng virus X ở người suy giảm miễn dịch: 100 - 300 mg/lần, ngày 3 lần.")


def _texts(patient: Patient) -> str:
    return " ".join(line.text for line in select(parse_dosage(SECTION), patient).lines)


def test_the_subcase_line_sits_under_the_purpose_of_the_line_before() -> None:
    tree = parse_dosage(SECTION)
    subcase = next(line for line in tree.lines if line.text.startswith("Nếu suy giảm"))
    assert subcase.path[-1].startswith("Điều trị nhiễm virus X tiên phát")


def test_an_immunocompromised_adult_asking_for_the_primary_infection_sees_the_subcase() -> None:
    shown = _texts(Patient(population="adult", route="oral", indication="nhiễm virus X tiên phát",
                           immunocompromised=True))
    assert "300 mg/lần, ngày 4 lần" in shown
    assert "700 mg/ngày" not in shown and "100 - 300 mg/lần" not in shown


def test_an_adult_of_unstated_immune_status_gets_the_usual_primary_line() -> None:
    shown = _texts(Patient(population="adult", route="oral", indication="nhiễm virus X tiên phát"))
    assert "150 mg/lần" in shown
    assert "700 mg/ngày" not in shown and "100 - 300 mg/lần" not in shown


def test_a_lead_in_naming_a_disease_is_not_read_as_a_subcase() -> None:
    tree = parse_dosage(SECTION)
    suppression = next(line for line in tree.lines if line.text.startswith("Loại bỏ tái phát"))
    assert not any(label.startswith("Điều trị") for label in suppression.path)
