"""Chunking: sections → citable chunks that keep each dosing block whole."""

from __future__ import annotations

from core.corpus import Monograph, Section
from retrieval.chunking import chunk_monograph, chunk_section
from retrieval.jsonl_loader import load_jsonl
from retrieval.markdown_loader import parse_markdown

DOSAGE = """*Cách dùng:* Uống hoặc đặt trực tràng.

*Uống – Người lớn:* 500 mg – 1 g/lần, mỗi 4–6 giờ.

*Uống – Trẻ em:* Liều theo tuổi:
- Trẻ 2–4 tuổi: 180 mg/lần.
- Trẻ 4–6 tuổi: 240 mg/lần.
Liều theo cân nặng: 10–15 mg/kg/lần.
*Suy thận:* Kéo dài khoảng cách giữa các liều.
<!-- page: 1024 -->

*Suy gan:* Giảm liều.
"""


def _chunks(text: str, key: str = "lieu_luong_cach_dung", page: int | None = 1023):
    return chunk_section("paracetamol", "PARACETAMOL (Acetaminophen)", Section(key=key, heading="", text=text, page=page))


def test_each_italic_label_starts_its_own_chunk_and_keeps_its_list_lines() -> None:
    chunks = _chunks(DOSAGE)
    assert [c.text.split(":*")[0] for c in chunks] == ["*Cách dùng", "*Uống – Người lớn", "*Uống – Trẻ em",
                                                       "*Suy thận", "*Suy gan"]
    child = chunks[2].text
    assert "- Trẻ 2–4 tuổi: 180 mg/lần." in child and "10–15 mg/kg/lần" in child
    assert "Suy thận" not in child


def test_doc_ids_number_chunks_within_the_section_in_book_order() -> None:
    chunks = _chunks(DOSAGE)
    assert [c.doc_id for c in chunks] == [f"paracetamol__lieu_luong_cach_dung__{n}" for n in range(5)]
    assert all(c.drug_title == "PARACETAMOL (Acetaminophen)" for c in chunks)


def test_page_markers_move_the_page_of_later_chunks() -> None:
    chunks = _chunks(DOSAGE)
    assert [c.page for c in chunks] == [1023, 1023, 1023, 1023, 1024]
    assert all("<!--" not in c.text for c in chunks)


def test_a_quarantined_block_is_its_own_flagged_chunk() -> None:
    text = ("Warfarin: tăng nguy cơ chảy máu.\n<!-- QUARANTINED: bảng không trích xuất được -->\n"
            "| amiodar0n | Nặ ng |\n<!-- /QUARANTINED -->\nOmeprazol: tăng nhẹ INR.")
    chunks = _chunks(text, key="tuong_tac_thuoc")
    assert [c.has_quarantined_content for c in chunks] == [False, True, False]
    assert "amiodar0n" in chunks[1].text and "amiodar0n" not in chunks[0].text + chunks[2].text


def test_plain_paragraphs_share_a_chunk_until_it_is_full() -> None:
    short = "Đau đầu.\n\nĐau răng."
    assert [c.text for c in _chunks(short, key="chi_dinh")] == ["Đau đầu.\n\nĐau răng."]
    long_paras = "\n\n".join(f"Câu số {i} " + "x" * 500 + "." for i in range(3))
    assert len(_chunks(long_paras, key="chi_dinh")) == 3


def test_a_long_paragraph_is_split_at_sentence_boundaries() -> None:
    sentences = [f"Câu thứ {i} nói về một tác dụng không mong muốn khá dài dòng của thuốc." for i in range(40)]
    chunks = _chunks(" ".join(sentences), key="than_trong")
    assert len(chunks) > 1
    assert all(len(c.text) <= 900 for c in chunks)
    assert all(c.text.endswith(".") for c in chunks)
    assert " ".join(c.text for c in chunks) == " ".join(sentences)


def test_pieces_of_a_long_labelled_block_repeat_its_label() -> None:
    lines = "\n".join(f"- Trẻ {i}–{i + 1} tuổi: {100 + i} mg/lần, mỗi 4–6 giờ, không quá 4 lần/ngày." for i in range(30))
    chunks = _chunks(f"*Uống – Trẻ em:* Liều theo tuổi:\n{lines}")
    assert len(chunks) > 1
    assert all(c.text.startswith("*Uống – Trẻ em:*") for c in chunks)


def test_a_repeated_section_key_keeps_numbering_on() -> None:
    m = Monograph(drug_id="x", title="X", name="X", sections=[
        Section(key="chi_dinh", heading="", text="A."), Section(key="chi_dinh", heading="", text="B.")])
    assert [c.doc_id for c in chunk_monograph(m)] == ["x__chi_dinh__0", "x__chi_dinh__1"]


def test_markdown_and_json_lines_give_the_same_chunks(tmp_path) -> None:
    md = "# **IBUPROFEN**\n<!-- page: 760 -->\n## **Chỉ định**\nĐau, sốt.\n## **Tên thương mại**\nBrufen; Advil.\n"
    jsonl = tmp_path / "c.jsonl"
    jsonl.write_text('{"title": "IBUPROFEN", "sections": [{"key": "chi_dinh", "text": "Đau, sốt.", "page": 760},'
                     ' {"heading": "Tên thương mại", "text": "Brufen; Advil.", "page": 760}]}\n', encoding="utf-8")
    from_md = chunk_monograph(parse_markdown(md, "i.md")[0][0])
    from_jsonl = chunk_monograph(load_jsonl(jsonl)[0][0])
    assert [(c.doc_id, c.text, c.page) for c in from_md] == [(c.doc_id, c.text, c.page) for c in from_jsonl]
