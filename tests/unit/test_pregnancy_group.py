"""A dose the book gives a pregnant woman inside an indication is hers, and its sibling groups are not (#17)."""

from __future__ import annotations

from core.dosage.model import Patient
from core.dosage.parse import parse_dosage
from core.dosage.select import select
from grounding.dosing_select import patient_of

# Synthetic, in the real book's shape (numbers changed): one indication, three patient groups by inline lead-in.
SECTION = (
    "Tiêm truyền tĩnh mạch: Người lớn: Nhiễm VZV: Ở người có khả năng miễn dịch: 6 mg/kg/lần, cách 8 giờ/lần; "
    "Ở người suy giảm miễn dịch: 11 mg/kg/lần, cách 8 giờ/lần; Ở phụ nữ mang thai: 16 mg/kg/lần, cách 8 giờ/lần."
)
ADULT_IV = dict(population="adult", weight_kg=60.0, route="iv", indication="thủy đậu")


def _shown(patient: Patient) -> str:
    return " ".join(line.text for line in select(parse_dosage(SECTION), patient).lines)


def test_a_pregnant_woman_gets_her_own_group_only() -> None:
    shown = _shown(Patient(**ADULT_IV, pregnant=True))  # type: ignore[arg-type]
    assert "16 mg/kg" in shown
    assert "6 mg/kg/lần" not in shown.replace("16 mg/kg/lần", "")
    assert "11 mg/kg" not in shown


def test_a_patient_not_said_to_be_pregnant_never_gets_the_pregnancy_dose() -> None:
    shown = _shown(Patient(**ADULT_IV))  # type: ignore[arg-type]
    assert "16 mg/kg" not in shown
    assert "6 mg/kg" in shown


def test_pregnancy_is_read_from_the_patient_context() -> None:
    assert patient_of("adult", None, 60.0, "iv", "thủy đậu", "Bệnh nền: đang mang thai.").pregnant
    assert not patient_of("pediatric", 60.0, 18.0, "iv", "thủy đậu", "mẹ bé đang mang thai").pregnant
    assert not patient_of("adult", None, 60.0, "iv", "thủy đậu", "").pregnant
