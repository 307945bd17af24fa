"""core.dosage.purpose_sentences.case_clause: a line's own clause for the patient's case replaces the usual dose before
it, for every generator (it is part of the selection), and only for a case the patient has. SYNTHETIC line text."""

from __future__ import annotations

from core.dosage.model import RegimenLine
from core.dosage.parse import parse_dosage
from core.dosage.purpose_sentences import case_clause

SECTION = ("*Uống – Trẻ em:* Khởi đầu 0,2 mg/kg/ngày (tối đa 10 mg/ngày) vào ngày thứ nhất; dùng 0,1 mg/kg/ngày nếu "
           "có suy gan hoặc sau phẫu thuật Fontan. Từ ngày thứ hai điều chỉnh theo INR.")


def _line() -> RegimenLine:
    return next(line for line in parse_dosage(SECTION).lines if line.kind == "regimen")


def test_the_patients_case_narrows_the_line_to_its_clause_and_what_follows() -> None:
    narrowed = case_clause(_line(), ["sau mổ Fontan"], hepatic=False)
    assert narrowed.text.startswith("dùng 0,1 mg/kg/ngày nếu")
    assert "0,2 mg/kg/ngày" not in narrowed.text
    assert narrowed.text.endswith("điều chỉnh theo INR.")
    assert narrowed.rule is not None and narrowed.rule.low == 0.1


def test_a_hepatic_patient_is_the_case_of_suy_gan() -> None:
    assert case_clause(_line(), [], hepatic=True).text.startswith("dùng 0,1")


def test_another_case_or_none_keeps_the_whole_line() -> None:
    line = _line()
    assert case_clause(line, ["viêm phổi"], hepatic=False) is line
    assert case_clause(line, [], hepatic=False) is line
