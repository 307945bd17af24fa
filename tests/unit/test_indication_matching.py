"""The indication a question names against the book's lead-ins (core.dosage.indication, core.dosage.select): matched
loosely (synonyms, the book's own words, no diacritics typed) and safely (one shared word, a symptom a lead-in merely
mentions, a word that differs only by its diacritics — none is a match). The lead-ins below are written for these
tests in the book's style; none is quoted from the real text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.dosage.indication import match_score, severity_admits
from core.dosage.model import Band, Patient
from core.dosage.parse import parse_dosage
from core.dosage.select import (
    band_admits,
    context_admits,
    indication_key,
    indication_labels,
    indication_matches,
    narrow_to_indication,
    select,
)
from states.slots import dose_indication
from tests.unit.test_dosage_selection_properties import _trees

MATCHES = [
    ("đau sau phẫu thuật", ["Đau sau phẫu thuật"]),
    ("đau sau mổ", ["Đau sau phẫu thuật"]),
    ("giảm đau", ["Giảm đau/giảm sốt"]),
    ("hạ sốt", ["Giảm đau và hạ sốt"]),
    ("sốt", ["Đau, sốt"]),
    ("trào ngược dạ dày thực quản", ["Bệnh trào ngược dạ dày - thực quản"]),
    ("hội chứng Zollinger-Ellison", ["Loét tá tràng", "Tăng tiết acid trong hội chứng Zollinger Ellison"]),
    ("viêm tai giữa", ["Nhiễm khuẩn ở tai, mũi, họng"]),
    ("viêm họng nhiễm khuẩn nặng", ["Nhiễm khuẩn ở tai, mũi, họng", "Nhiễm khuẩn nặng"]),
    ("đau bụng kinh", ["Thống kinh"]),
    # Period pain where no lead-in names it is pain: the analgesic lead-in (#18 held-out H104, ibuprofen).
    ("đau bụng kinh", ["Giảm đau, hạ sốt"]),
    ("đau bụng kinh", ["Đau, sốt"]),
    ("bệnh Lyme viêm tim", ["Bệnh Lyme", "Viêm tim nhẹ"]),
    ("viem tai giua", ["Nhiễm khuẩn ở tai, mũi, họng"]),  # typed without diacritics: compared folded
    ("Chống viêm (viêm khớp dạng thấp)", ["Chống viêm (viêm khớp dạng thấp)"]),  # a quick reply, word for word
    # Thrush is Candida of a mucosa.
    ("tưa miệng", ["Nhiễm Candida niêm mạc"]),
    ("nhiễm nấm candida ở lưỡi", ["Nhiễm Candida niêm mạc"]),
    # Prevention of an ulcer caused by the drugs the patient takes, said as users say it.
    ("ngừa loét tá tràng do dùng thuốc kháng viêm", ["Dự phòng loét đường tiêu hóa do thuốc chống viêm không steroid"]),
]

NEAR_MISSES = [
    # One word of the question inside another indication's lead-in is not that indication.
    ("đau sau phẫu thuật", ["Đau, sốt"]),
    ("trào ngược dạ dày thực quản", ["Loét dạ dày - tá tràng"]),
    ("dự phòng viêm nội tâm mạc", ["Dự phòng nhiễm khuẩn tiết niệu tái phát"]),
    # A symptom a lead-in merely mentions ("… giai đoạn có sốt" of another disease) is not named by it.
    ("sốt", ["Bệnh Kawasaki", "Trong giai đoạn đầu có sốt"]),
    ("đau", ["Chống viêm (viêm khớp dạng thấp, đau khớp)"]),
    # Diacritics respected: "tái phát" is not "tai", "sót" is not "sốt".
    ("viêm tai giữa", ["Dự phòng nhiễm khuẩn tiết niệu tái phát"]),
    ("sót nhau thai", ["Đau, sốt"]),
    # Nothing that can tell indications apart.
    ("nhiễm khuẩn nặng", ["Bệnh Lyme"]),
    # To prevent a disease is not to treat it: the treatment lead-in is another indication's dose.
    ("phòng ngừa loét dạ dày", ["Loét dạ dày - tá tràng"]),
    ("dự phòng tái phát viêm tai giữa", ["Nhiễm khuẩn ở tai, mũi, họng"]),
]


@pytest.mark.parametrize(("asked", "labels"), MATCHES)
def test_the_indication_the_question_names_matches_its_lead_ins(asked: str, labels: list[str]) -> None:
    assert match_score(asked, labels) > 0


@pytest.mark.parametrize(("asked", "labels"), NEAR_MISSES)
def test_near_misses_do_not_match(asked: str, labels: list[str]) -> None:
    assert match_score(asked, labels) == 0


def test_the_books_opening_words_name_the_purpose_of_a_line_without_a_lead_in() -> None:
    opening = "Khi dùng lâu dài để dự phòng biến chứng tim mạch ở người nguy cơ cao, dùng"
    assert match_score("dự phòng biến chứng tim mạch", ["Chống kết tập tiểu cầu"], [opening]) > 0
    assert match_score("dự phòng biến chứng tim mạch", ["Chống kết tập tiểu cầu"]) == 0


def test_where_and_why_the_patient_is_says_nothing_of_the_indication() -> None:
    # "(bà) ấy nhập viện vì …" (the person's word is read apart): the acute line's opening names the disease; where
    # and why the patient is are no other indication.
    opening = "Trong trường hợp cấp tính như đột quỵ do nhồi máu não, cơn đau thắt ngực, dùng"
    assert match_score("ấy nhập viện vì nhồi máu não cấp", ["Chống kết tập tiểu cầu"], [opening]) > 0


def test_severity_sub_bands() -> None:
    assert severity_admits("viêm tai giữa nhẹ", ["Nhiễm khuẩn tai", "Nhiễm khuẩn nhẹ, vừa"])
    assert not severity_admits("viêm tai giữa nhẹ", ["Nhiễm khuẩn tai", "Nhiễm khuẩn nặng"])
    assert severity_admits("nhiễm khuẩn nặng", ["Nhiễm khuẩn nặng"])
    assert not severity_admits("nhiễm khuẩn nặng", ["Nhiễm khuẩn nhẹ, vừa"])
    assert severity_admits("viêm tai giữa", ["Nhiễm khuẩn nặng"])  # none named: every severity, each labelled
    assert severity_admits("bệnh Lyme nặng", ["Bệnh Lyme"])  # the lines name no severity


# A section in the PDF-extracted shape, written for this test (synthetic; no sentence of the real book).
SECTION = (
    "Người lớn Giảm đau, hạ sốt: Uống 500 mg mỗi 6 giờ, tối đa 3 g/ngày. Chống viêm khớp: Uống 2 g/ngày chia 3 lần. "
    "Chống kết tập tiểu cầu: Khi dùng lâu dài để dự phòng biến chứng tim mạch, dùng 100 mg/ngày. "
    "Trẻ em: Đau, sốt: Uống: Trẻ 6 - 12 tuổi: 250 mg mỗi 6 giờ. Đau sau phẫu thuật: Uống: Trẻ 6 - 12 tuổi: 15 mg/kg "
    "một lần. Nhiễm khuẩn tai, mũi, họng: Nhiễm khuẩn nhẹ, vừa: 20 mg/kg/ngày. Nhiễm khuẩn nặng: 40 mg/kg/ngày."
)
ADULT = Patient(population="adult")
CHILD = Patient(population="pediatric", age_months=96, weight_kg=25, route="oral")


def _doses(patient: Patient) -> str:
    return " | ".join(line.text for line in select(parse_dosage(SECTION), patient).lines)


def test_a_population_glued_to_an_indication_is_read_as_two() -> None:
    tree = parse_dosage(SECTION)
    antiplatelet = next(line for line in tree.lines if "100 mg/ngày" in line.text)
    assert antiplatelet.context.indication == ("Chống kết tập tiểu cầu",)  # not nested under "Giảm đau, hạ sốt"
    assert antiplatelet.context.population == "adult"


def test_only_the_named_indications_lines_are_selected() -> None:
    assert _doses(Patient(population="adult", indication="giảm đau")) == "Uống 500 mg mỗi 6 giờ, tối đa 3 g/ngày."
    assert "100 mg/ngày" in _doses(Patient(population="adult", indication="dự phòng biến chứng tim mạch"))
    assert "500 mg" not in _doses(Patient(population="adult", indication="dự phòng biến chứng tim mạch"))
    postop = _doses(Patient(**{**CHILD.__dict__, "indication": "đau sau phẫu thuật"}))
    assert "15 mg/kg" in postop and "250 mg" not in postop
    otitis = _doses(Patient(**{**CHILD.__dict__, "indication": "viêm tai giữa nhẹ"}))
    assert "20 mg/kg/ngày" in otitis and "40 mg/kg/ngày" not in otitis and "250 mg" not in otitis


def test_an_indication_the_book_does_not_have_keeps_every_line_labelled() -> None:
    tree = parse_dosage(SECTION)
    selection = select(tree, Patient(population="adult", indication="mất ngủ"))
    assert selection.indication_unmatched
    assert {line.context.indication for line in selection.lines} >= {("Giảm đau, hạ sốt",), ("Chống viêm khớp",)}
    assert all(line.context.indication[0] in line.quoted() for line in selection.lines if line.context.indication)
    kept, matched = narrow_to_indication(list(tree.lines), "mất ngủ")
    assert not matched and kept == list(tree.lines)


@pytest.mark.parametrize(("question", "names", "expected"), [
    ("Liều aspirin giảm đau cho người lớn?", ["aspirin"], "giảm đau"),
    ("Bé 8 tuổi nặng 25 kg đau sau phẫu thuật, liều paracetamol uống?", ["paracetamol"], "đau sau phẫu thuật"),
    ("Người lớn viêm họng nhiễm khuẩn nặng, uống amoxicillin liều bao nhiêu?", ["amoxicillin"],
     "viêm họng nhiễm khuẩn nặng"),
    ("lieu aspirin chong ket tap tieu cau cho nguoi lon", ["aspirin"], "chong ket tap tieu cau"),
    ("Liều paracetamol cho bé 5 tuổi nặng 18 kg", ["paracetamol"], None),
    ("Liều haloperidol uống cho người cao tuổi?", ["haloperidol"], None),
    ("liều amoxicilin cho trẻ 20 kg là bao nhiêu", ["amoxicilin"], None),
    # The patient's state, a unit, a form or a person is not an indication.
    ("Liều metformin cho người lớn suy thận eGFR 25", ["metformin"], None),
    ("liều paracetamol cho bé 5 tuổi nặng 40 lbs", ["paracetamol"], None),
    ("Liều paracetamol đặt trực tràng (thuốc đạn) cho bé 3 tuổi nặng 14 kg", ["paracetamol"], None),
    ("thế mẹ bé uống thì bao nhiêu?", [], None),
    ("Liều warfarin uống ban đầu cho bé 5 tuổi nặng 18 kg?", ["warfarin"], None),
    ("Liều salbutamol cho bé 3 tuổi nặng 14 kg khi dùng ở nhà", ["salbutamol"], None),
])
def test_the_indication_words_of_a_dose_question(question: str, names: list[str], expected: str | None) -> None:
    assert dose_indication(question, names) == expected


# --- property: a selected line under an indication is of the indication the question names ---------------------

@st.composite
def named_indications(draw: st.DrawFn) -> tuple[int, str]:
    index = draw(st.integers(min_value=0, max_value=10_000))
    tree = _trees()[index % len(_trees())]
    labels = sorted({label for line in tree.lines for label in indication_labels(line)})
    words = draw(st.sampled_from(["sốt", "đau", "viêm tai giữa", "mất ngủ", "nhiễm khuẩn nặng", "dự phòng"]))
    asked = draw(st.one_of(st.just(words), st.sampled_from(labels) if labels else st.just(words)))
    return index, asked


@settings(max_examples=300, deadline=None)
@given(named=named_indications(), population=st.sampled_from(["adult", "pediatric"]),
       age=st.floats(min_value=1, max_value=18 * 12 - 1), weight=st.floats(min_value=3, max_value=80))
def test_a_selected_line_is_of_the_named_indication_or_every_one_is_shown_labelled(
        named: tuple[int, str], population: str, age: float, weight: float) -> None:
    index, asked = named
    tree = _trees()[index % len(_trees())]
    patient = Patient(population=population,  # type: ignore[arg-type]
                      age_months=age if population == "pediatric" else None,
                      weight_kg=weight if population == "pediatric" else None, indication=asked)
    selection = select(tree, patient)
    under_an_indication = [line for line in selection.lines if indication_key(line)]
    if selection.indication_unmatched:
        # No lead-in of the patient's band matches (another band's indication is another patient's, however well
        # its words match): every indication's lines stay, each quoted with its path (the notice says so).
        assert all(label in line.quoted() for line in under_an_indication for label in line.context.indication)
        assert not any(indication_matches(line, asked) for line in tree.lines if context_admits(line, patient)
                       and band_admits(Band(age_months=line.band.age_months, weight_kg=line.band.weight_kg),
                                       patient, closed=True))
    else:
        assert all(indication_matches(line, asked) for line in under_an_indication), [
            (line.path, line.text[:60]) for line in under_an_indication if not indication_matches(line, asked)]


EXCLUDED_FOR_A_PURPOSE = ("Không dùng cho trẻ em dưới 16 tuổi để giảm đau, hạ sốt. Trẻ em: Bệnh Kawasaki: Uống "
                          "80 mg/kg/ngày chia 4 lần.")


def test_an_exclusion_for_a_purpose_is_lifted_only_by_an_indication_the_section_names() -> None:
    tree = parse_dosage(EXCLUDED_FOR_A_PURPOSE)
    child = Patient(population="pediatric", age_months=60, weight_kg=18)
    assert select(tree, Patient(**{**child.__dict__, "indication": "sốt"})).exclusions
    # A stray word of the question (not an indication the section names) never lifts the exclusion.
    assert select(tree, Patient(**{**child.__dict__, "indication": "dạng siro"})).exclusions
    kawasaki = select(tree, Patient(**{**child.__dict__, "indication": "bệnh Kawasaki"}))
    assert not kawasaki.exclusions and any("80 mg/kg/ngày" in line.text for line in kawasaki.lines)


# Synthetic, in the shape of a flattened adult paragraph whose sentences each name their own purpose.
PURPOSES = ("Người lớn: Liều uống thông thường để giảm đau: 1 - 2 g/ngày, chia nhiều lần. Liều khuyến cáo giảm sốt là "
            "300 mg mỗi 6 giờ, tối đa 1 g/ngày. Liều thông thường trong đau bụng kinh là 250 mg mỗi 8 giờ. Liều tối đa "
            "là 3 g/ngày. Trẻ em: 10 mg/kg mỗi 8 giờ.")


def test_a_sentence_naming_its_own_purpose_is_a_line_of_that_indication() -> None:
    lines = [line for line in parse_dosage(PURPOSES).lines if line.population == "adult"]
    assert [line.context.indication for line in lines][:3] == [("để giảm đau",), ("giảm sốt",), ("đau bụng kinh",)]
    assert lines[0].routes == ("oral",) and "Liều uống thông thường" in lines[1].path  # the route carries on
    # "Liều tối đa là …" names a ceiling, not a purpose: it is not an indication of its own.
    assert all("tối đa" not in " ".join(line.context.indication) for line in lines)
    fever = select(parse_dosage(PURPOSES), Patient(population="adult", indication="sốt")).lines
    assert [line.text for line in fever if line.kind == "regimen"][0].startswith("Liều khuyến cáo giảm sốt")
    assert not any("1 - 2 g/ngày" in line.text or "250 mg" in line.text for line in fever)
    cramps = select(parse_dosage(PURPOSES), Patient(population="adult", indication="thống kinh")).lines
    assert any("250 mg" in line.text for line in cramps) and not any("300 mg" in line.text for line in cramps)


def test_a_purpose_is_the_questions_and_survives_a_person_switch_a_disease_is_the_patients() -> None:
    from states.frame import QueryFrame
    from states.merge import forget_person

    dose = QueryFrame(turn_type="dosing_calc", drugs=["ibuprofen"], section_key="lieu_luong_cach_dung")
    assert forget_person(dose.model_copy(update={"condition": "hạ sốt"})).condition == "hạ sốt"
    assert forget_person(dose.model_copy(update={"condition": "viêm tai giữa"})).condition is None


def test_a_symptom_then_a_dose_word_asks_the_dose_not_what_to_do() -> None:
    from retrieval.section_router import route_section

    asked = route_section("Người lớn bị đau bụng kinh, uống ibuprofen liều thế nào?")
    assert asked is not None and asked.key == "lieu_luong_cach_dung"
    what_to_do = route_section("uống ibuprofen xong bị đau bụng thì làm sao?")
    assert what_to_do is not None and what_to_do.key == "huong_dan_xu_tri_adr"


def test_dosage_form_lead_ins_are_formulations_not_indications() -> None:
    # Written before running: the fixture's metformin splits the adult dose by "Viên giải phóng nhanh" / "Viên giải
    # phóng kéo dài"; a disease lead-in is no formulation.
    from core.dosage.indication import is_formulation_label

    assert is_formulation_label("Viên giải phóng kéo dài") and is_formulation_label("Chỉ dùng viên giải phóng nhanh")
    assert not is_formulation_label("Tiêu chảy cấp") and not is_formulation_label("Viêm phổi mắc phải cộng đồng")
