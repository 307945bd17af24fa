"""Real-text hygiene, the JSON export and real-book names, on SYNTHETIC text shaped like PDF-extracted monographs
(no sentence of the real formulary is in the repository; tests/integration/test_realtext_ingest.py reads the real
text from ../shared/realtext and skips when it is absent)."""

from __future__ import annotations

import json
from pathlib import Path

from core.corpus import DrugNames
from retrieval.chunking import chunk_monograph
from retrieval.formats import detect_format
from retrieval.hygiene import quarantine_tables, remove_headers, titles_for
from retrieval.json_export_loader import load_json_export
from retrieval.monograph_names import name_forms
from retrieval.resolver import DrugResolver
from retrieval.section_router import rank_sections, route_section

# SYNTHETIC TEST DATA: invented sentences in the shape of extracted text (page headers, a flattened table).
TITLES = titles_for(name_forms("Zanofen"), [*name_forms("Zanofen"), *name_forms("Yelocaine hydrochloride")])


def test_a_page_number_and_title_inside_a_sentence_is_removed_and_the_sentence_kept() -> None:
    text, removed, _ = remove_headers("Uống sau bữa ăn. 1120 Zanofen (zanolin) Không dùng cho trẻ nhỏ.", TITLES)
    assert removed == ["1120 Zanofen (zanolin)"]
    assert text == "Uống sau bữa ăn. Không dùng cho trẻ nhỏ."


def test_the_synonym_in_a_removed_header_becomes_an_alias() -> None:
    _, _, aliases = remove_headers("Uống sau bữa ăn. 1120 Zanofen (zanolin) Không dùng cho trẻ nhỏ.", TITLES)
    assert aliases == ["zanolin"]


def test_a_title_between_lower_case_words_or_inside_a_range_is_a_header() -> None:
    text, removed, _ = remove_headers("liều có thể thay đổi Zanofen theo cân nặng, uống 1 - Zanofen 2,5 mg.", TITLES)
    assert removed == ["Zanofen", "Zanofen"]
    assert text == "liều có thể thay đổi theo cân nặng, uống 1 - 2,5 mg."


def test_a_neighbouring_title_between_two_sentences_or_ending_the_field_is_a_header() -> None:
    text, removed, _ = remove_headers("Uống với nước. Zebracil Trẻ em: 5 mg. Tránh ánh sáng. Zolmarin", TITLES)
    assert removed == ["Zebracil", "Zolmarin"]
    assert text == "Uống với nước. Trẻ em: 5 mg. Tránh ánh sáng."


def test_a_drug_name_that_begins_a_sentence_or_follows_a_label_is_content_not_a_header() -> None:
    for sentence in ("Mẫn cảm với thuốc. Zanofen làm tăng nồng độ lithi.", "Tương tác: Zanofen làm giảm tác dụng.",
                     "Đau Zanofen được dùng giảm đau.", "Bệnh nhân bị bệnh Zollinger, cần giảm liều.",
                     "*Cách dùng:* Zanofen uống sau ăn.", "Dùng cùng Amphotericin B và ketoconazol."):
        assert remove_headers(sentence, TITLES)[1] == [], sentence


def test_a_salt_or_acid_title_capitalised_mid_sentence_is_a_neighbours_header() -> None:
    # Running text writes "acid salicylic" in lower case; "Acid zetanoic" with a capital between two lower-case
    # Vietnamese words is the next page's title (synthetic names).
    text, removed, _ = remove_headers("thuốc thủy phân thành acid salicylic và có mùi giống như Acid zetanoic giấm; "
                                      "nhiệt làm tăng tốc độ.", TITLES)
    assert removed == ["Acid zetanoic"] and "giống như giấm;" in text
    for sentence in ("Pha với Natri clorid 0,9% rồi truyền.", "Dùng cùng acid zetanoic và thuốc khác.",
                     "Không dùng. Acid zetanoic làm tăng nồng độ."):
        assert remove_headers(sentence, TITLES)[1] == [], sentence


def test_an_all_capitals_title_is_a_header_but_an_abbreviation_is_not() -> None:
    text, removed, _ = remove_headers("Zeta; Zota. YELOCAINE HYDROCHLORID (Yelo)", TITLES)
    assert removed == ["YELOCAINE HYDROCHLORID (Yelo)"] and text == "Zeta; Zota."
    assert remove_headers("Theo dõi INR và HIV, tránh NSAID.", TITLES)[1] == []


def test_a_flattened_table_is_quarantined_and_a_lost_dash_is_not() -> None:
    flat = ("Uống 5 mg mỗi ngày. Người suy thận: Độ thanh thải (ml/phút) Liều > 50 Không đổi 10 - 50 5 mg 12 giờ "
            "< 10 2,5 mg 24 giờ 30 - 50 10 20 hết. Trẻ em 10 12 tuổi: 5 mg.")
    text, found = quarantine_tables(flat)
    lines = text.split("\n")
    assert lines[0] == "Uống 5 mg mỗi ngày."
    assert lines[1].startswith("<!-- QUARANTINED:") and lines[3] == "<!-- /QUARANTINED -->"
    assert lines[4] == "Trẻ em 10 12 tuổi: 5 mg."
    assert len(found) == 1
    assert quarantine_tables("Trẻ em 10 12 tuổi: 5 mg. Bảo quản ở 15 30 °C.")[1] == []


def test_a_table_of_labelled_target_cells_is_quarantined_from_its_sentence_to_the_end() -> None:
    # Synthetic: three "Đích <n>" cells whose rows ran together (the shape of an INR target table flattened into the
    # indications); the sentences before it stay readable.
    flat = ("Dự phòng huyết khối. Bảng mục tiêu theo bệnh: Loại A Đích 2,5; khoảng 2 - 3; Loại B Đích 3,5; "
            "khoảng 3 - 4; Loại C Đích 2,5; khoảng 2 - 3; suốt đời.")
    text, found = quarantine_tables(flat)
    lines = text.split("\n")
    assert lines[0] == "Dự phòng huyết khối."
    assert lines[1].startswith("<!-- QUARANTINED:") and lines[2].startswith("Bảng mục tiêu theo bệnh") and \
        lines[2].endswith("suốt đời.") and lines[3] == "<!-- /QUARANTINED -->"
    assert len(found) == 1
    # Two cells are a sentence that states two targets, not a table.
    assert quarantine_tables("Loại A Đích 2,5; loại B Đích 3,5.")[1] == []


EXPORT = {"meta": {"source": "SYNTHETIC TEST DATA for formulary-fsm", "count": 2}, "drugs": [
    {"id": 1, "name": "Zanofen (Zanolin)", "atc": "Z01", "flags": ["x"], "s": {
        "loai_thuoc": "Thuốc chống đông máu loại kháng vitamin Z.", "chi_dinh": "Dự phòng huyết khối.",
        "chong_chi_dinh": "Mẫn cảm với zanofen.", "mang_thai": "Không dùng.", "cho_con_bu": "Không dùng.",
        "lieu_dung": "Người lớn: 5 mg/ngày. Người suy thận: Độ thanh thải (ml/phút) Liều điều chỉnh 5 mg "
                     "> 10 0 - 10 Không cần điều chỉnh 2 mg > 25 10 - 25 0 - 10 Không cần điều chỉnh 1 mg.", "tuong_tac": "Yelocain làm tăng tác dụng.",
        "ghi_chu_rieng": "một trường không ai biết", "ten_thuong_mai": "Zanomax 250; Zanolex."}},
    {"id": 2, "name": "Yelocaine hydrochloride", "atc": "Y02", "tuong_tac": "Thuốc chống đông máu: tăng chảy máu.",
     "chi_dinh": "Gây tê tại chỗ. Zanofen"},
]}


def _export(tmp_path: Path) -> Path:
    path = tmp_path / "export.txt"  # the format is read from the content, not the name
    path.write_text(json.dumps(EXPORT, ensure_ascii=False), encoding="utf-8")
    return path


def test_the_json_export_is_detected_by_content_and_maps_fields_to_sections_by_name(tmp_path: Path) -> None:
    path = _export(tmp_path)
    assert detect_format(path) == "json_export"
    monographs, report = load_json_export(path)
    zanofen = {m.drug_id: m for m in monographs}["zanofen"]
    keys = {s.key for s in zanofen.sections}
    assert {"ma_atc", "loai_thuoc", "chi_dinh", "chong_chi_dinh", "thoi_ky_mang_thai", "thoi_ky_cho_con_bu",
            "lieu_luong_cach_dung", "tuong_tac_thuoc", "ten_thuong_mai"} == keys
    assert "Zanolin" in zanofen.aliases and "Zanomax" in zanofen.brands
    assert [str(i) for i in report.unknown_headings] == [
        f"{path}: record 0 (Zanofen (Zanolin)): unknown field 'ghi_chu_rieng'; its text was not loaded"]
    assert report.errors == []


def test_the_export_gets_the_same_hygiene_as_the_other_formats(tmp_path: Path) -> None:
    monographs, report = load_json_export(_export(tmp_path))
    by_id = {m.drug_id: m for m in monographs}
    chunks = chunk_monograph(by_id["zanofen"])
    assert any(c.has_quarantined_content and c.section_key == "lieu_luong_cach_dung" for c in chunks)
    yelo = next(h for h in report.hygiene if h.drug_id == "yelocaine_hydrochloride")
    assert yelo.headers_removed == ["Zanofen"]
    assert next(s for s in by_id["yelocaine_hydrochloride"].sections if s.key == "chi_dinh").text == "Gây tê tại chỗ."


def test_real_book_titles_resolve_the_way_people_write_them() -> None:
    names = [DrugNames(drug_id="papaverine_hydrochloride", name="Papaverine hydrochloride",
                       aliases=tuple(name_forms("Papaverine hydrochloride"))),
             DrugNames(drug_id="acetylsalicylic_acid", name="Acetylsalicylic acid",
                       aliases=tuple(name_forms("Acetylsalicylic acid"))),
             DrugNames(drug_id="amoxicillin", name="Amoxicillin", aliases=tuple(name_forms("Amoxicillin"))),
             DrugNames(drug_id="pantoprazole", name="Pantoprazole", aliases=tuple(name_forms("Pantoprazole"))),
             DrugNames(drug_id="paracetamol", name="Paracetamol", brands=("Hapacol", "Hapacol 250")),
             DrugNames(drug_id="ciprofloxacin", name="Ciprofloxacin")]
    resolver = DrugResolver(names)
    for typed, drug in [("papaverin", "papaverine_hydrochloride"), ("acid acetylsalicylic", "acetylsalicylic_acid"),
                        ("amoxicilin", "amoxicillin"), ("pantoprazol", "pantoprazole"), ("para", "paracetamol"),
                        ("amox", "amoxicillin"), ("cipro", "ciprofloxacin"), ("hapacol 250", "paracetamol")]:
        assert resolver.resolve(f"chống chỉ định của {typed}").drug_ids == [drug], typed


def test_shorthand_that_begins_two_drugs_names_neither() -> None:
    resolver = DrugResolver([DrugNames(drug_id="amlodipin", name="Amlodipin"),
                             DrugNames(drug_id="amlodipin_besilat", name="Amlodipine besilate")])
    assert resolver.resolve("amlo dùng thế nào").drug_ids == []


def test_a_free_form_question_is_answered_from_the_monograph_section_that_speaks_of_it() -> None:
    sections = {"chi_dinh": "Dự phòng huyết khối.", "than_trong": "Phải xét nghiệm INR đều đặn; INR trên 5 nguy hiểm.",
                "tac_dung_khong_mong_muon": "Chảy máu.", "lieu_luong_cach_dung": "Theo dõi INR hằng ngày, 5 mg."}
    assert route_section("Zanofen có cần theo dõi INR không?") is None
    ranked = rank_sections("Zanofen có cần theo dõi INR không?", sections, ["zanofen"])
    assert ranked[0].key == "than_trong"
    assert all(r.key != "lieu_luong_cach_dung" for r in ranked), "a free-form answer never quotes doses"
    allergy = rank_sections("bị dị ứng penicilin có dùng zanofen được không", {**sections, "chong_chi_dinh": "Mẫn cảm."})
    assert allergy[0].key == "chong_chi_dinh"


def test_a_class_written_another_way_still_names_the_drug_in_interaction_text() -> None:
    from retrieval.names import NameBook

    book = NameBook([DrugNames(drug_id="zanofen", name="Zanofen", classes=("Thuốc chống viêm không steroid",)),
                     DrugNames(drug_id="yelocain", name="Yelocain", classes=("Thuốc chống đông máu",))])
    assert book.mentions("Không phối hợp với các thuốc kháng viêm không steroid.", "zanofen")
    assert book.mentions("Tăng nguy cơ chảy máu khi dùng NSAID.", "zanofen")
    assert book.mentions("Các thuốc kháng đông máu: tăng tác dụng.", "yelocain")
    assert not book.mentions("Các thuốc kháng đông máu: tăng tác dụng.", "zanofen")
    assert not book.mentions("Làm tăng nhẹ tác dụng chống đông.", "yelocain"), "an effect is not the class"
    assert not book.mentions("Tăng nguy cơ chảy máu khi dùng NSAID.", "zanofen", with_classes=False)


def test_clinical_abbreviations_and_eponyms_are_not_unknown_drugs() -> None:
    resolver = DrugResolver([DrugNames(drug_id="paracetamol", name="Paracetamol")])
    result = resolver.resolve("Người lớn suy thận, ClCr 40 ml/phút, eGFR 35, bệnh Kawasaki, uống paracetamol?")
    assert result.drug_ids == ["paracetamol"] and result.unknown == []
    assert resolver.resolve("Zanoxifen dùng thế nào").unknown == ["Zanoxifen"]


def test_a_dosing_interval_question_is_a_dose_question_but_a_gap_between_two_drugs_is_not() -> None:
    interval = route_section("uống paracetamol cách nhau bao lâu?")
    assert interval is not None and interval.key == "lieu_luong_cach_dung"
    assert route_section("đang uống aspirin liều thấp, uống ibuprofen thì cách bao lâu?") is None


def test_a_class_the_monographs_own_text_states_is_a_class_of_the_drug() -> None:
    from retrieval.monograph_names import own_class_memberships
    from retrieval.names import NameBook

    texts = ["Zanofen và các chất chống đông máu thuộc nhóm coumarin qua được nhau thai.",
             "Zanofen là chất ức chế mạnh CYP3A4. Thuốc khác là chất ức chế CYP2D6."]
    classes = own_class_memberships("Zanofen", texts)
    assert classes == ["coumarin", "chat uc che cyp3a4"]
    book = NameBook([DrugNames(drug_id="zanofen", name="Zanofen", classes=tuple(classes))])
    assert book.mentions("Các chất ức chế CYP3A4 làm tăng nồng độ thuốc.", "zanofen")
    assert not book.mentions("Các chất ức chế CYP2D6 làm tăng nồng độ thuốc.", "zanofen")


def test_understanding_ranks_sections_without_touching_the_index() -> None:
    """An index outage is the retrieval step's to report (abstain/index_unavailable): understanding must not read
    the index, so the sections are a snapshot taken with the name book."""
    from core.corpus import Chunk
    from core.errors import IndexUnavailable
    from retrieval.memory_index import MemoryIndex
    from retrieval.service import RetrievalService
    from states.rules_understander import RulesUnderstander

    names = [DrugNames(drug_id="zanofen", name="Zanofen")]
    chunks = [Chunk(doc_id=f"zanofen__{k}__0", drug_id="zanofen", section_key=k, text=t) for k, t in (
        ("chi_dinh", "Dự phòng huyết khối."), ("than_trong", "Phải xét nghiệm INR đều đặn."),
        ("tac_dung_khong_mong_muon", "Chảy máu."))]
    index = MemoryIndex(chunks, names)
    understander = RulesUnderstander(RetrievalService(index).names)

    def down(*_: object) -> list[Chunk]:
        raise IndexUnavailable("injected")

    index.find_by_drug = down  # type: ignore[method-assign,assignment]
    frame = understander.parse("Zanofen có cần theo dõi INR không?", DrugResolver(names).resolve("Zanofen"))
    assert frame.section_key == "than_trong"


def test_a_snapshot_that_cannot_be_read_leaves_free_form_questions_to_be_asked() -> None:
    from core.errors import IndexUnavailable
    from retrieval.section_texts import section_snapshot

    class Down:
        def find_by_drug(self, drug_id: str) -> list[object]:
            raise IndexUnavailable("injected")

    texts = section_snapshot(Down(), [DrugNames(drug_id="zanofen", name="Zanofen")])  # type: ignore[arg-type]
    assert texts("zanofen") == {}


def test_a_neighbours_title_between_a_bands_colon_and_its_dose_is_a_header() -> None:
    # "… dưới 1 tháng tuổi: Zebracil 5 mg/kg …": the dose is this monograph's, the name the next page's (#18 H42).
    text, removed, _ = remove_headers("Sơ sinh đủ tháng dưới 1 tháng tuổi: Zebracil 5 mg/kg cách 6 giờ/lần.", TITLES)
    assert removed == ["Zebracil"] and text == "Sơ sinh đủ tháng dưới 1 tháng tuổi: 5 mg/kg cách 6 giờ/lần."
    for sentence in ("Phối hợp với Zebracil 200 mg làm tăng nồng độ.", "Tương tác: Zanofen 5 mg làm giảm tác dụng."):
        assert remove_headers(sentence, TITLES)[1] == [], sentence
