"""A target-INR or INR-schedule question is answered from the sentences stating them, never from the dose path
(issue 17). Synthetic text in the book's flattened shape, not the book's own."""

from __future__ import annotations

from core.budget import RequestBudget
from core.corpus import Chunk
from core.dosage.parse import parse_dosage
from core.inr_monitoring import asks_inr_monitoring, inr_monitoring_sentence
from grounding.answer import Answer, Claim, GenerationRequest
from grounding.extractive import ExtractiveGenerator
from grounding.verify import check_free_form

SECTION = (
    "Liều dùng: Liều bắt đầu thường là 4 mg, chỉnh theo INR. Thường INR đích là 2,5 (giữa 2 và 3). "
    "Trẻ em: Liều duy trì: 0,2 mg/kg/ngày cho trẻ dưới 12 tháng. Khi đạt INR đích, khoảng cách giữa hai INR "
    "không quá 14 ngày. Theo dõi INR và điều chỉnh liều: INR của người chưa điều trị là 1. "
    "Tần suất kiểm tra sinh học: Lần đầu kiểm tra trong vòng 48 giờ sau liều đầu tiên. Các lần sau cách nhau "
    "3 - 5 ngày cho tới khi INR ổn định.")
CHUNK = Chunk(doc_id="thuocw__lieu_luong_cach_dung__0", drug_id="thuocw", section_key="lieu_luong_cach_dung",
              text=SECTION, page=1)


def _request(query: str) -> GenerationRequest:
    return GenerationRequest(query=query, evidence=[CHUNK], section_key="lieu_luong_cach_dung",
                             drug_ids=["thuocw"], free_form=True)


def test_target_and_schedule_questions_are_recognised_but_a_measured_inr_is_not_one() -> None:
    assert asks_inr_monitoring("INR mục tiêu bao nhiêu?")
    assert asks_inr_monitoring("bao lâu thử INR một lần")
    assert asks_inr_monitoring("mấy ngày phải xét nghiệm INR")
    assert not asks_inr_monitoring("INR đo được 7 thì sao")
    assert not asks_inr_monitoring("liều bao nhiêu")


def test_a_monitoring_lead_in_after_the_childrens_block_is_not_the_childrens() -> None:
    tree = parse_dosage(SECTION)
    schedule = next(line for line in tree.lines if line.text.startswith("Lần đầu kiểm tra"))
    child = next(line for line in tree.lines if line.text.startswith("Liều duy trì") or "0,2 mg/kg" in line.text)
    assert child.context.population == "pediatric"
    assert schedule.context.population is None
    assert "Trẻ em" not in schedule.path


def test_the_target_question_quotes_the_target_sentence_and_no_dose() -> None:
    answer = ExtractiveGenerator().generate(_request("INR mục tiêu bao nhiêu?"), _budget())
    text = " ".join(c.text for c in answer.claims)
    assert "INR đích là 2,5" in text
    assert "mg" not in text


def test_the_schedule_question_quotes_the_general_schedule_not_the_childrens_interval() -> None:
    answer = ExtractiveGenerator().generate(_request("bao lâu thử INR một lần?"), _budget())
    text = " ".join(c.text for c in answer.claims)
    assert "48 giờ" in text and "3 - 5 ngày" in text
    assert "14 ngày" not in text and "mg" not in text


def test_a_free_form_answer_may_quote_an_inr_sentence_but_never_a_dose_line() -> None:
    request = _request("INR mục tiêu bao nhiêu?")
    target = Claim(text="Thường INR đích là 2,5 (giữa 2 và 3).", citations=[CHUNK.doc_id])
    dose = Claim(text="Liều bắt đầu thường là 4 mg, chỉnh theo INR.", citations=[CHUNK.doc_id])
    assert check_free_form(Answer(claims=[target], generator="test"), request) == []
    assert check_free_form(Answer(claims=[dose], generator="test"), request) != []
    assert not inr_monitoring_sentence("INR mục tiêu?", "INR đích đạt với 4 mg/ngày.")


def _budget() -> RequestBudget:
    return RequestBudget()


def test_a_schedule_written_as_every_n_weeks_is_a_schedule_sentence() -> None:
    assert inr_monitoring_sentence("bao lâu thử INR một lần",
                                   "Kiểm tra INR cách ngày lúc đầu, sau đó thưa dần tới mỗi 3 tuần.")
