"""Two selection rules from the session-4 held-out sets (issue 17/18): a lead-in line that states doses of its own
above the bands is not a banded patient's dose; a disease's phase named in a follow-up replaces the phase the
carried condition named. Section text here is written for the test (synthetic)."""

from __future__ import annotations

from core.dosage.model import Patient
from core.dosage.parse import parse_dosage
from core.dosage.select import select
from states.frame import QueryFrame
from states.merge import _phase_now

CHILD_SECTION = (
    "*Uống – Trẻ em:* Khởi đầu 6 mg/kg/ngày chia 2 lần; duy trì 3–7 mg/kg/ngày; tối đa 250 mg/ngày:\n"
    "- Trẻ 1 tháng tuổi – 12 tuổi: khởi đầu 6 mg/kg/ngày chia 2 lần; duy trì 3–7 mg/kg/ngày.\n"
    "- Trẻ 12–18 tuổi: khởi đầu 120–280 mg/ngày chia 2 lần; duy trì 280–380 mg/ngày (tối đa 550 mg/ngày).\n"
)


def test_a_lead_in_with_doses_of_its_own_is_not_shown_to_a_child_in_one_of_its_bands() -> None:
    tree = parse_dosage(CHILD_SECTION, drug_names=["thuốc"])
    teen = Patient(population="pediatric", age_months=168.0, weight_kg=45.0, route="oral")
    shown = " ".join(line.text for line in select(tree, teen).lines)
    assert "280–380 mg/ngày" in shown
    assert "tối đa 250 mg/ngày" not in shown  # the head's ceiling contradicts the 12–18 band's 550 mg


def test_a_phase_said_in_a_follow_up_replaces_the_phase_the_condition_named() -> None:
    before = QueryFrame(condition="bệnh Kawasaki đang sốt")
    after = _phase_now(before, before, "Bé hết sốt rồi, giai đoạn dưỡng bệnh thì uống bao nhiêu?")
    assert after.condition == "bệnh Kawasaki giai đoạn dưỡng bệnh"
    assert _phase_now(before, before, "hết sốt rồi thì sao").condition == "bệnh Kawasaki giai đoạn hồi phục"
    plain = QueryFrame(condition="bệnh Kawasaki")  # no phase named before: left as it was
    assert _phase_now(plain, plain, "hết sốt rồi thì sao").condition == "bệnh Kawasaki"
