"""Free-form questions about one drug that name no section (issue 17, item 7): the monograph's sentence that best
matches the question decides the section and is what the answer quotes; the dosage section answers only through its
sentences without a number. Synthetic monograph text, written for these tests (not clinical guidance)."""

from __future__ import annotations

from core.budget import RequestBudget
from core.corpus import Chunk
from core.sentence_match import asked_words, best_matches
from grounding.answer import GenerationRequest
from grounding.extractive import ExtractiveGenerator
from retrieval.free_form_route import best_sentence_section
from retrieval.section_router import route_section

SECTIONS = {
    "chi_dinh": "Giảm đau nhẹ và vừa. Hạ sốt.",
    "chong_chi_dinh": "Mẫn cảm với zanofen. Người có tiền sử bệnh hen.",
    "than_trong": "Thận trọng ở người cao tuổi, dễ quên liều và uống nhầm liều.",
    "tuong_tac_thuoc": "Phối hợp với rượu làm tăng độc tính. Không phối hợp với thuốc chống đông.",
    "lieu_luong_cach_dung": ("Người lớn: uống 500 mg, 3 lần/ngày. Trẻ em: 10 mg/kg/lần. Viên bao tan trong ruột phải "
                             "nuốt cả viên, không được bẻ, nhai. Dung dịch uống không được pha vào cà phê hoặc nước chè. "
                             "Nếu quên thì uống ngay khi nhớ; không uống gấp đôi liều."),
    "do_on_dinh_bao_quan": "Bảo quản nơi khô mát. Không dùng nếu thuốc có mùi giống như giấm.",
}


def test_a_question_naming_no_section_goes_to_the_section_of_its_best_sentence() -> None:
    cases = {
        "Viên zanofen bẻ đôi hay nhai ra được không?": "lieu_luong_cach_dung",
        "Zanofen dạng nước pha vào cà phê cho dễ uống được không?": "lieu_luong_cach_dung",
        "Lọ zanofen thấy mùi giấm còn uống được không?": "do_on_dinh_bao_quan",
        "zanofen uong cung ruou co sao khong": "tuong_tac_thuoc",
    }
    for question, section in cases.items():
        route = best_sentence_section(question, SECTIONS, ["zanofen"])
        assert route is not None and route.key == section, (question, route)


def test_asked_what_to_do_a_tie_goes_to_the_sentence_that_says_what_to_do() -> None:
    adverse = " ".join(f"Tác dụng số {n} hiếm gặp ở da." for n in range(1, 11))  # a monograph's usual length
    sections = {**SECTIONS, "tac_dung_khong_mong_muon": adverse,
                "chong_chi_dinh": "Mẫn cảm với zanofen. Suy gan nặng. Khi chụp có thuốc cản quang chứa iod.",
                "than_trong": "Thận trọng ở người cao tuổi. Tạm ngừng zanofen trước khi chụp có thuốc cản quang; dùng "
                              "lại sau 48 giờ."}
    asked = "chụp CT có tiêm thuốc cản quang, đang uống zanofen thì làm sao"
    route = best_sentence_section(asked, sections, ["zanofen"])
    assert route is not None and route.key == "than_trong"
    # Not asked what to do: the tie stays in book order, the contraindication first.
    route = best_sentence_section("chụp CT có tiêm thuốc cản quang, đang uống zanofen", sections, ["zanofen"])
    assert route is not None and route.key == "chong_chi_dinh"


def test_a_tie_between_sections_goes_to_the_section_that_says_most_about_it() -> None:
    adverse = " ".join(f"Tác dụng số {n} hiếm gặp ở da." for n in range(1, 31))  # a long monograph: "bia" is rare
    sections = {**SECTIONS, "tac_dung_khong_mong_muon": adverse,
                "than_trong": "Thận trọng ở người cao tuổi. Không uống bia trong thời gian điều trị.",
                "tuong_tac_thuoc": "Bia: gây đỏ bừng mặt, nôn. Không uống bia trong và 3 ngày sau khi ngừng thuốc."}
    route = best_sentence_section("đang uống zanofen mà tối nay uống bia thì sao", sections, ["zanofen"])
    assert route is not None and route.key == "tuong_tac_thuoc"


def test_nothing_matching_well_gives_no_section_so_the_engine_asks() -> None:
    assert best_sentence_section("Zanofen có tốt không?", SECTIONS, ["zanofen"]) is None


def test_a_missed_dose_names_no_section_and_is_no_dose_question() -> None:
    for question in ("Quên mất một liều zanofen thì phải làm sao?", "bo lo 1 lieu zanofen thi sao",
                     "quên uống zanofen một liều hôm qua"):
        assert route_section(question) is None, question
    assert route_section("Liều zanofen cho người lớn?") is not None


def test_the_dosage_section_answers_a_free_form_question_with_no_number() -> None:
    chunk = Chunk(doc_id="zanofen__lieu_luong_cach_dung__0", drug_id="zanofen", drug_title="Zanofen",
                  section_key="lieu_luong_cach_dung", text=SECTIONS["lieu_luong_cach_dung"])
    request = GenerationRequest(query="Quên một liều zanofen thì sao?. Mục: Liều lượng và cách dùng.", evidence=[chunk],
                                section_key="lieu_luong_cach_dung", drug_ids=["zanofen"], free_form=True,
                                drug_names={"zanofen": ["zanofen"]})
    answer = ExtractiveGenerator().generate(request, RequestBudget())
    texts = [c.text for c in answer.claims]
    assert texts and all("quên" in t for t in texts)
    assert not any(ch.isdigit() for t in texts for ch in t), "a free-form answer never quotes a dose"


def test_the_engines_own_words_of_a_synthesized_query_are_not_the_question() -> None:
    query = "Quên một liều thì sao?. Thuốc: zanofen. Mục: Liều lượng và cách dùng. Đối tượng: người lớn."
    assert asked_words(query) == "Quên một liều thì sao?."
    sentences = ["Nếu quên thì uống ngay khi nhớ.", "Cách dùng theo đối tượng và đường dùng."]
    assert [m.index for m in best_matches(asked_words(query), sentences, strong=False)] == [0]
    assert [m.index for m in best_matches(query, sentences, strong=False)] == [1], "the labels would match instead"


def test_a_free_form_dosage_answer_carrying_a_number_fails_verification() -> None:
    from grounding.answer import Answer, Claim
    from grounding.verify import verify_grounding

    chunk = Chunk(doc_id="zanofen__lieu_luong_cach_dung__0", drug_id="zanofen", drug_title="Zanofen",
                  section_key="lieu_luong_cach_dung", text=SECTIONS["lieu_luong_cach_dung"])
    request = GenerationRequest(query="Zanofen uống thế nào?", evidence=[chunk], section_key="lieu_luong_cach_dung",
                                drug_ids=["zanofen"], free_form=True)
    dose = Answer(claims=[Claim(text="Người lớn: uống 500 mg, 3 lần/ngày.", citations=[chunk.doc_id])])
    assert not verify_grounding(dose, [chunk], request=request).ok
    usage = Answer(claims=[Claim(text="Nếu quên thì uống ngay khi nhớ; không uống gấp đôi liều.",
                                 citations=[chunk.doc_id])])
    assert verify_grounding(usage, [chunk], request=request).ok
