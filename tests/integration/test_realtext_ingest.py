"""Ingest of the real extracted formulary text (../shared/realtext, never in the repository; skipped, saying so,
when absent): what hygiene removes is only running page headers, the three formats agree, and the real book's
names and class terms answer questions the fixture never asked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.text import fold
from engine.runner import Engine
from engine.store import MemoryStore
from retrieval.formats import detect_format
from retrieval.ingest import ingest, load_corpus
from retrieval.monograph_names import name_forms
from tests.engine_kit import EngineKit

pytestmark = pytest.mark.integration

REALTEXT = Path(__file__).resolve().parents[2].parent / "shared" / "realtext"
JSONL = REALTEXT / "dtqg_real.jsonl"
EXPORT = REALTEXT / "source" / "drugapp_subset.json"
MARKDOWN = REALTEXT / "md"

if not JSONL.is_file():
    pytest.skip(f"real formulary text not found at {REALTEXT} (never in the repository; CI provides it)",
                allow_module_level=True)


def _is_page_header(span: str, titles: list[str]) -> bool:
    """A removed span is a page number and/or monograph title(s), with at most a bracketed synonym: every word is
    a digit run, a word of a title in the book, or bracketed — never a word of a sentence."""
    words = [w for w in fold(span).replace("(", " ( ").replace(")", " ) ").split() if w not in "()"]
    title_words = {w for t in titles for w in t.split()}
    inside, continuation = False, 0
    for raw in span.replace("(", " ( ").replace(")", " ) ").split():
        if raw in "()":
            inside = raw == "("
            continue
        if inside or raw.isdigit():
            continue
        if fold(raw) in title_words or raw[:1].isupper():
            continue_allowed = 3  # a title's own lower-case words follow it: "Parafin lỏng", "… và kali clavulanat"
            continuation = continue_allowed
        elif continuation and raw.isalpha():
            continuation -= 1
        else:
            return False
    return bool(words) and not any(ch in span for ch in ".;:")


def test_every_span_hygiene_removes_from_the_real_text_is_a_page_header() -> None:
    monographs, report = load_corpus([EXPORT])
    titles = [f for m in monographs for f in name_forms(m.title)]
    removed = [(h.drug_id, span) for h in report.hygiene for span in h.headers_removed]
    assert len(removed) >= 20, "the ten real monographs carry at least twenty running headers"
    for drug_id, span in removed:
        # Capitalised words outside the loaded titles are neighbours' titles ("Acarbose", "Halothan"): one or two
        # words, capitalised, never a Vietnamese sentence.
        assert _is_page_header(span, titles) and len(span.split()) <= 5, (drug_id, span)
    assert any(span.startswith("1120 ") for _, span in removed), "page number + title is found"


def test_the_flattened_renal_table_is_quarantined_and_nothing_else_is() -> None:
    _, report = load_corpus([EXPORT])
    tables = {h.drug_id: h.tables_quarantined for h in report.hygiene if h.tables_quarantined}
    # aciclovir's renal table, and warfarin's INR target table flattened into its indications (session 14: its
    # "Đích <n>" cells read as text answered a mechanical valve "INR đích 2,5").
    assert sorted(tables) == ["aciclovir", "warfarin"]
    assert all(t.startswith("lieu_luong_cach_dung:") for t in tables["aciclovir"])
    assert [t.split(":")[0] for t in tables["warfarin"]] == ["chi_dinh"]


def test_misfiled_adverse_effects_and_a_cut_off_section_are_reported() -> None:
    _, report = load_corpus([EXPORT])
    notes = {h.drug_id: " | ".join(h.misplaced) for h in report.hygiene}
    assert "thoi_ky_cho_con_bu" in notes["pantoprazole"] and "tac_dung_khong_mong_muon" in notes["pantoprazole"]
    assert "qua_lieu_xu_tri: ends mid-sentence" in notes["warfarin"]
    assert "tuong_tac_thuoc: a sentence starts in lower case" in notes["warfarin"]


def test_the_export_jsonl_and_markdown_give_the_same_monographs() -> None:
    assert detect_format(EXPORT) == "json_export" and detect_format(JSONL) == "jsonl"
    loaded = {name: load_corpus([path])[0] for name, path in (("export", EXPORT), ("jsonl", JSONL))}
    assert [m.drug_id for m in loaded["export"]] == [m.drug_id for m in loaded["jsonl"]]
    for a, b in zip(loaded["export"], loaded["jsonl"], strict=True):
        assert [(s.key, s.text) for s in a.sections] == [(s.key, s.text) for s in b.sections], a.drug_id
    md, report = load_corpus([MARKDOWN])
    assert len(md) == 10 and report.errors == []


@pytest.fixture(scope="module")
def engine_kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngineKit]:
    data_dir = tmp_path_factory.mktemp("realtext-ingest")
    ingest([EXPORT], data_dir)
    kit = EngineKit(data_dir)
    yield kit
    kit.close()


def _ask(kit: EngineKit, text: str) -> tuple[str, list[str], str]:
    engine: Engine = kit.engine(MemoryStore())
    reply = engine.handle(text, None)
    return reply.outcome, [c.doc_id for c in reply.citations], reply.reply


def test_real_titles_salts_word_order_and_shorthand_resolve(engine_kit: EngineKit) -> None:
    for question, drug in [("papaverin chỉ định gì", "papaverine_hydrochloride"),
                           ("chống chỉ định của acid acetylsalicylic", "acetylsalicylic_acid"),
                           ("pantoprazol chống chỉ định", "pantoprazole"), ("amoxicilin chống chỉ định", "amoxicillin"),
                           ("para chống chỉ định", "paracetamol"), ("amox chống chỉ định", "amoxicillin"),
                           ("hapacol 250 chống chỉ định", "paracetamol"), ("acetaminophen chống chỉ định", "paracetamol")]:
        outcome, cited, _ = _ask(engine_kit, question)
        assert outcome == "answerable" and cited and all(c.startswith(drug) for c in cited), question


def test_paracetamol_and_warfarin_is_answered_from_both_monographs(engine_kit: EngineKit) -> None:
    outcome, cited, reply = _ask(engine_kit, "Paracetamol và warfarin có tương tác không?")
    assert outcome == "answerable"
    assert any(c.startswith("paracetamol__tuong_tac_thuoc") for c in cited)  # names warfarin by class: coumarin
    assert any(c.startswith("warfarin__tuong_tac_thuoc") for c in cited)  # names paracetamol as Acetaminophen
    assert "coumarin" in reply


def test_a_pair_neither_monograph_names_or_classes_still_abstains(engine_kit: EngineKit) -> None:
    outcome, _, _ = _ask(engine_kit, "Pantoprazol và haloperidol có tương tác không?")
    assert outcome == "abstain"


def test_the_quarantined_renal_table_gives_check_the_pdf_not_a_jumble(engine_kit: EngineKit) -> None:
    from retrieval.service import RetrievalService

    chunks = RetrievalService(engine_kit.index).find_by_section("aciclovir", "lieu_luong_cach_dung")
    flagged = [c for c in chunks if c.has_quarantined_content]
    assert flagged and all("> 10 0 - 10" not in c.text for c in chunks if not c.has_quarantined_content)
