"""Each rule of the patient's context on the dose path (issue 17 item 3), with its near-misses.

The dosage and safety texts here are SYNTHETIC TEST DATA written for these tests in the shape the real extracted
book has (flattened paragraphs, lead-ins inside running text); they are not clinical guidance.
"""

from __future__ import annotations

import pytest

from core.corpus import Chunk
from core.dosage.model import Patient
from core.dosage.parse import parse_dosage
from core.dosage.select import select
from grounding.answer import GenerationRequest
from grounding.dosing_select import immune_status, patient_of_request
from grounding.patient_safety import excludes_child, patient_safety
from retrieval.decide import Decision, decide, quarantine_topic
from states.slots import extract_slots

# --- renal capture in the user's words -----------------------------------------------------------------------


@pytest.mark.parametrize(("turn", "renal"), [
    ("Người lớn suy thận ClCr 20 ml/phút, liều thuốc X?", "suy thận ClCr 20 ml/phút"),
    ("suy thận nặng, eGFR 25", "suy thận nặng, eGFR 25"),
    ("bị suy thận có độ thanh thải creatinin 28 ml/phút", "suy thận có độ thanh thải creatinin 28 ml/phút"),
    ("ClCr 40 ml/phút", "ClCr 40 ml/phút"),
    ("suy thận, uống thuốc gì", "suy thận"),  # no value: the words only, no number is invented
])
def test_the_renal_phrase_keeps_the_value_that_follows_the_words(turn: str, renal: str) -> None:
    assert extract_slots(turn).renal == renal


@pytest.mark.parametrize("turn", ["Người lớn bị zona, chức năng thận bình thường", "không suy thận, liều X?",
                                  "chưa bị suy thận"])
def test_normal_or_denied_renal_function_is_no_renal_impairment(turn: str) -> None:
    assert extract_slots(turn).renal is None


def test_the_request_reads_the_patient_context_from_its_fields_not_from_the_query_text() -> None:
    def patient(query: str, renal: str | None = None, hepatic: str | None = None) -> Patient:
        return patient_of_request(GenerationRequest(query=query, evidence=[], section_key="lieu_luong_cach_dung",
                                                    population="adult", renal=renal, hepatic=hepatic))

    normal = patient("Người lớn, chức năng thận bình thường, liều X?")
    assert not normal.renal and normal.renal_ml_min is None
    renal = patient("liều X?", renal="suy thận ClCr 20 ml/phút")
    assert renal.renal and renal.renal_ml_min == 20
    dialysis = patient("liều X?", renal="lọc máu")
    assert dialysis.renal and dialysis.renal_ml_min is None
    assert patient("liều X?", hepatic="suy gan nặng").hepatic == "severe"
    assert patient("liều X?", hepatic="xơ gan").hepatic == "any"


# --- a renal adjustment band replaces the usual doses ---------------------------------------------------------

RENAL_TEXT = (
    "Liều dùng: Người lớn: 500 mg cách 12 giờ/lần; nhiễm khuẩn nặng 750 mg cách 12 giờ/lần. "
    "Người suy thận: Clcr 30 - 50 ml/phút: 250 mg cách 12 giờ/lần. Clcr 10 - 30 ml/phút: 250 mg cách 24 giờ/lần. "
    "Người bệnh thẩm phân máu: 250 mg sau mỗi lần thẩm phân."
)


def _texts(patient: Patient, text: str = RENAL_TEXT) -> list[str]:
    return [line.text for line in select(parse_dosage(text), patient).lines]


def test_a_value_in_an_adjustment_band_gets_that_band_and_not_the_usual_dose() -> None:
    texts = " ".join(_texts(Patient(population="adult", renal=True, renal_ml_min=20)))
    assert "250 mg cách 24 giờ" in texts
    assert "500 mg" not in texts and "750 mg" not in texts  # the usual doses are another patient's
    assert "30 - 50" not in texts  # a disjoint band
    assert "thẩm phân" not in texts  # a patient known by a value is not on dialysis


def test_a_value_in_no_band_keeps_the_usual_lines() -> None:
    texts = " ".join(_texts(Patient(population="adult", renal=True, renal_ml_min=70)))
    assert "500 mg" in texts and "250 mg cách" not in texts


def test_renal_impairment_without_a_value_gets_the_adjustment_lines_only_and_the_question() -> None:
    selection = select(parse_dosage(RENAL_TEXT), Patient(population="adult", renal=True))
    texts = " ".join(line.text for line in selection.lines)
    assert selection.needs_renal_value
    assert "30 - 50" in texts and "10 - 30" in texts and "500 mg" not in texts


def test_a_patient_who_stated_no_renal_impairment_gets_no_renal_or_dialysis_line() -> None:
    texts = " ".join(_texts(Patient(population="adult")))
    assert "500 mg" in texts and "250 mg" not in texts


def test_lines_given_for_normal_renal_function_are_not_a_renal_patients() -> None:
    text = ("Liều cho người có chức năng thận bình thường: Người lớn: 400 mg/lần, 3 lần/ngày. "
            "Người suy thận: Clcr dưới 30 ml/phút: 200 mg/lần, 2 lần/ngày.")
    assert "400 mg" in " ".join(_texts(Patient(population="adult"), text))
    renal = " ".join(_texts(Patient(population="adult", renal=True, renal_ml_min=20), text))
    assert "200 mg" in renal and "400 mg" not in renal


def test_a_renal_exclusion_band_excludes_a_patient_inside_it_only() -> None:
    text = ("Người lớn: 300 mg/lần, 2 lần/ngày. Người suy thận: Không cần chỉnh liều khi suy thận nhẹ. "
            "Không nên dùng khi Clcr dưới 50 ml/phút.")
    inside = select(parse_dosage(text), Patient(population="adult", renal=True, renal_ml_min=40))
    assert inside.exclusions and not inside.lines
    outside = select(parse_dosage(text), Patient(population="adult", renal=True, renal_ml_min=60))
    assert not outside.exclusions


# --- immune status ---------------------------------------------------------------------------------------------

IMMUNE_TEXT = ("Người lớn: Nhiễm virus X ở người có khả năng miễn dịch: 5 mg/kg/lần, cách 8 giờ/lần. "
               "Nhiễm virus X ở người suy giảm miễn dịch: 10 mg/kg/lần, cách 8 giờ/lần.")


@pytest.mark.parametrize(("immune", "shown", "hidden"), [
    (None, "5 mg/kg", "10 mg/kg"), (False, "5 mg/kg", "10 mg/kg"), (True, "10 mg/kg", "5 mg/kg/lần")])
def test_lines_for_immunocompromised_patients_are_for_a_patient_who_said_so(immune: bool | None, shown: str,
                                                                            hidden: str) -> None:
    texts = " ".join(_texts(Patient(population="adult", immunocompromised=immune), IMMUNE_TEXT))
    assert shown in texts and hidden not in texts


@pytest.mark.parametrize(("text", "status"), [("miễn dịch bình thường", False), ("bị suy giảm miễn dịch", True),
                                              ("không suy giảm miễn dịch", False), ("bé 5 tuổi bị zona", None)])
def test_the_immune_status_is_read_only_when_stated(text: str, status: bool | None) -> None:
    assert immune_status(text) is status


# --- a child's exclusion stated in the safety sections ---------------------------------------------------------

CHILD_8Y = Patient(population="pediatric", age_months=96, weight_kg=25)


@pytest.mark.parametrize(("sentence", "patient", "excluded"), [
    ("Không dùng thuốc X cho trẻ em dưới 12 tuổi.", CHILD_8Y, True),
    ("Không dùng thuốc X cho trẻ em dưới 12 tuổi.", Patient(population="pediatric", age_months=150), False),
    ("Không dùng thuốc X cho trẻ em dưới 12 tuổi.", Patient(population="adult"), False),
    ("Không dùng cho trẻ sơ sinh vì nguy cơ chảy máu.", Patient(population="pediatric", age_months=0.3), True),
    ("Không dùng cho trẻ sơ sinh vì nguy cơ chảy máu.", Patient(population="pediatric", age_months=2), False),
    # Names children with no band: the dosage section may still dose them.
    ("Độ an toàn của thuốc X ở trẻ em chưa được xác định.", CHILD_8Y, False),
    # A form restriction is not an exclusion of the child.
    ("Không dùng viên nén cho trẻ dưới 12 tuổi.", CHILD_8Y, False),
    ("Cần hạn chế hoàn toàn chỉ định thuốc X cho trẻ em dưới 16 tuổi.", CHILD_8Y, True),
    ("Dùng thận trọng cho trẻ em dưới 12 tuổi.", CHILD_8Y, False),  # a caution, not an exclusion
    # A pregnancy's months are no child's age band.
    ("Không dùng cho phụ nữ mang thai 3 tháng cuối.", Patient(population="pediatric", age_months=3), False),
])
def test_a_safety_sentence_excludes_the_child_its_band_holds(sentence: str, patient: Patient, excluded: bool) -> None:
    assert excludes_child(sentence, patient) is excluded


def test_a_contraindication_line_naming_a_group_excludes_it_unless_it_names_a_form() -> None:
    assert excludes_child("Trẻ em dưới 16 tuổi, vì nguy cơ hội chứng Reye.", CHILD_8Y, contraindication=True)
    assert not excludes_child("Trẻ em dưới 16 tuổi, vì nguy cơ hội chứng Reye.", CHILD_8Y)  # in Thận trọng
    assert not excludes_child("Trẻ dưới 12 tuổi (dạng viên nén).", CHILD_8Y, contraindication=True)


def test_named_exceptions_and_purposes_leave_a_child_with_another_indication_undecided_by_the_sentence() -> None:
    exception = "Cần hạn chế hoàn toàn chỉ định thuốc X cho trẻ em dưới 16 tuổi, chỉ trừ bệnh Kawasaki."
    assert excludes_child(exception, CHILD_8Y, "sốt")
    assert excludes_child(exception, CHILD_8Y, None)  # an indication not given: the exclusion stands
    assert not excludes_child(exception, CHILD_8Y, "bệnh Kawasaki")
    purpose = "Không dùng thuốc X để giảm đau, hạ sốt cho trẻ em dưới 16 tuổi."
    assert excludes_child(purpose, CHILD_8Y, "hạ sốt")
    assert not excludes_child(purpose, CHILD_8Y, "bệnh Kawasaki")


def _chunk(section: str, text: str, n: int = 0, *, quarantined: bool = False) -> Chunk:
    return Chunk(doc_id=f"thuoc_x__{section}__{n}", drug_id="thuoc_x", section_key=section, text=text,
                 has_quarantined_content=quarantined)


def test_a_childs_exclusion_in_than_trong_means_no_dose() -> None:
    evidence = [_chunk("than_trong", "Phải theo dõi chức năng gan. Không dùng thuốc X cho trẻ em dưới 12 tuổi.")]
    safety = patient_safety(evidence, CHILD_8Y)
    assert safety.contraindicated and safety.not_recommended
    assert [c.text for c in safety.claims] == ["Không dùng thuốc X cho trẻ em dưới 12 tuổi."]
    assert not patient_safety(evidence, Patient(population="pediatric", age_months=156)).contraindicated


# --- hepatic (and renal) adjustments stated outside the dosage section -----------------------------------------

HEPATIC = ("Trước khi dùng phải loại trừ bệnh Y. Ở người suy gan nặng, cần giảm liều. Có thể dùng tối đa 20 mg/ngày. "
           "Phải theo dõi enzym gan. Ở người suy thận: không cần chỉnh liều, tối đa 40 mg.")


def test_the_dose_sentence_after_a_hepatic_one_is_the_patients_hepatic_adjustment() -> None:
    safety = patient_safety([_chunk("than_trong", HEPATIC)], Patient(population="adult", hepatic="severe"))
    assert [c.text for c in safety.adjustments] == ["Có thể dùng tối đa 20 mg/ngày."]
    assert safety.adjusts == {"hepatic"} and not safety.contraindicated
    assert safety.claims[0].text == "Ở người suy gan nặng, cần giảm liều."  # stated first, cited


def test_a_hepatic_adjustment_for_another_grade_is_not_this_patients() -> None:
    safety = patient_safety([_chunk("than_trong", HEPATIC)], Patient(population="adult", hepatic="mild"))
    assert not safety.adjustments


def test_a_sentence_naming_another_group_does_not_continue_the_hepatic_one() -> None:
    text = "Ở người suy gan, cần thận trọng. Trẻ em: tối đa 10 mg/ngày."
    assert not patient_safety([_chunk("than_trong", text)], Patient(population="adult", hepatic="any")).adjustments


# --- quarantined tables: escalate only when the patient's context points at them --------------------------------

RENAL_TABLE = "[bảng bị dàn phẳng]\nVới người bệnh suy thận: Độ thanh thải creatinin (ml/phút) > 50 25 - 50 < 25 200 mg"


@pytest.mark.parametrize(("text", "section", "topic"), [
    (RENAL_TABLE, "lieu_luong_cach_dung", "renal"),
    ("Liều ở người suy thận như sau: Clcr (ml/phút) 10 - 50 5 mg/kg < 10 2,5 mg/kg Tiêm tĩnh mạch: 25 - 50 5 mg/kg",
     "lieu_luong_cach_dung", "renal"),
    ("Ở người suy gan: Child-Pugh A 10 mg B 5 mg", "lieu_luong_cach_dung", "hepatic"),
    # Headed by the measurement only: a > 80 ml/phút row may be every patient's dose.
    ("| Độ thanh thải creatinin (ml/phút) | Liều duy trì |\n| > 50 | 0,25 mg |", "lieu_luong_cach_dung", None),
    # A dialysis heading glued to a ClCr table is not a table for dialysis patients only.
    ("Thẩm phân máu: Độ thanh thải creatinin (ml/phút) > 80 50 - 79 1 000 500", "lieu_luong_cach_dung", None),
    # Another lead-in inside the block: it is not only about renal patients.
    ("Người suy thận: Clcr 10 - 50 200 mg Trẻ em 2 - 6 tuổi: 100 mg 6 - 12 tuổi: 200 mg", "lieu_luong_cach_dung",
     None),
    (RENAL_TABLE, "tuong_tac_thuoc", None),  # only dosage blocks are read so
    ("[bảng]\n10 20 30 40 50 60", "lieu_luong_cach_dung", None),
])
def test_the_topic_of_a_quarantined_block_is_read_only_where_certain(text: str, section: str,
                                                                     topic: str | None) -> None:
    assert quarantine_topic(_chunk(section, text, quarantined=True)) == topic


def test_a_renal_table_escalates_for_a_renal_patient_only_and_an_unknown_block_always() -> None:
    readable = _chunk("lieu_luong_cach_dung", "Người lớn: 200 mg/lần, 5 lần/ngày.")
    renal_table = _chunk("lieu_luong_cach_dung", RENAL_TABLE, 1, quarantined=True)
    unknown = _chunk("lieu_luong_cach_dung", "[bảng]\n10 20 30 40 50 60", 2, quarantined=True)
    assert decide([readable, renal_table], renal=False, hepatic=False) is Decision.ANSWERABLE
    assert decide([readable, renal_table], renal=True, hepatic=False) is Decision.VERIFY_PDF
    assert decide([readable, renal_table]) is Decision.VERIFY_PDF  # the default assumes every context
    assert decide([readable, unknown], renal=False, hepatic=False) is Decision.VERIFY_PDF


# --- verification binds a quoted usual dose to the patient's adjustment --------------------------------------------

def test_a_usual_dose_quoted_beside_the_renal_adjustment_is_not_bound() -> None:
    from grounding.answer import Answer, Claim
    from grounding.verify import verify_grounding
    from tests.unit.grounding_fixtures import fixture_chunks, has_fixture

    if not has_fixture("ciprofloxacin"):
        pytest.skip("fixture monograph ciprofloxacin absent")
    evidence = [c for c in fixture_chunks("ciprofloxacin") if c.section_key == "lieu_luong_cach_dung"]
    usual = next(c for c in evidence if "250–750 mg/lần" in c.text)
    renal = next(c for c in evidence if "5–29 ml/phút" in c.text)

    def request(renal_phrase: str | None) -> GenerationRequest:
        return GenerationRequest(query="Liều ciprofloxacin", evidence=evidence, section_key="lieu_luong_cach_dung",
                                 drug_ids=["ciprofloxacin"], population="adult", route="oral", renal=renal_phrase)

    quoted_usual = Answer(claims=[Claim(text="250–750 mg/lần, mỗi 12 giờ, tùy loại và mức độ nhiễm khuẩn.",
                                        citations=[usual.doc_id])])
    problems = verify_grounding(quoted_usual, evidence, request=request("ClCr 25 ml/phút")).problems
    assert any("replaces" in p for p in problems), problems
    assert verify_grounding(quoted_usual, evidence, request=request(None)).ok  # no renal context: the usual dose
    quoted_band = Answer(claims=[Claim(text="Độ thanh thải creatinin 5–29 ml/phút: uống 250–500 mg/lần, mỗi 18 giờ, "
                                            "hoặc truyền tĩnh mạch 200–400 mg/lần, mỗi 18–24 giờ.",
                                       citations=[renal.doc_id])])
    assert verify_grounding(quoted_band, evidence, request=request("ClCr 25 ml/phút")).ok
