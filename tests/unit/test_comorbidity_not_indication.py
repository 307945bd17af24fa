"""A condition a dose question states that a caution names and the dosage section never does is the patient's
comorbidity, not what the dose is for (issue 17: "Liều haloperidol uống cho người cao tuổi 80 tuổi bị sa sút trí tuệ"
showed the warning and no dose — the elderly line was dropped as "another indication"). Synthetic sections in the
book's shape (own sentences, own numbers)."""

from __future__ import annotations

from core.budget import RequestBudget
from core.corpus import Chunk
from grounding.answer import GenerationRequest
from grounding.extractive import ExtractiveGenerator
from grounding.patient_safety import PatientSafety, is_comorbidity
from grounding.verify import verify_grounding

DOSING = ("Bệnh loạn thần: Người lớn: Ban đầu 1 - 3 mg, 2 lần/ngày. Người cao tuổi: 0,3 mg cho tới 1 mg, chia 2 "
          "lần/ngày. Hội chứng Y: Liều uống bắt đầu 0,4 mg/lần, 3 lần/ngày.")
CAUTION = "Thận trọng với người cao tuổi bị sa sút trí tuệ vì tăng nguy cơ tử vong."


def _chunk(section: str, text: str) -> Chunk:
    return Chunk(doc_id=f"x__{section}__0", drug_id="x", section_key=section, text=text)


def test_an_elderly_patients_comorbidity_named_by_a_caution_gets_the_warning_then_the_elderly_line() -> None:
    evidence = [_chunk("than_trong", CAUTION), _chunk("lieu_luong_cach_dung", DOSING)]
    request = GenerationRequest(query="Liều x uống cho người cao tuổi 80 tuổi bị sa sút trí tuệ?", evidence=evidence,
                                section_key="lieu_luong_cach_dung", drug_ids=["x"], population="adult",
                                age_months=960, route="oral", condition="sa sút trí tuệ")
    answer = ExtractiveGenerator().generate(request, RequestBudget())
    assert verify_grounding(answer, evidence, request=request).ok
    assert "tử vong" in answer.claims[0].text
    text = " ".join(c.text for c in answer.claims)
    assert "0,3 mg" in text and "1 - 3 mg" not in text


def test_a_condition_the_dosage_section_names_is_what_the_dose_is_for() -> None:
    safety = PatientSafety(named_conditions={"bệnh Kawasaki"})
    assert not is_comorbidity("bệnh Kawasaki", safety, "Trẻ em: Chỉ dùng trong bệnh Kawasaki: 80 mg/kg/ngày.")
    assert is_comorbidity("bệnh Kawasaki", safety, "Người lớn: 500 mg/lần.")
    assert not is_comorbidity("bệnh Kawasaki", PatientSafety(), "Người lớn: 500 mg/lần.")
