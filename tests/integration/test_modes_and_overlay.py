"""Retrieval-only mode is single-turn and verbatim; `review --conversation` draws a stored conversation's path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.config import Settings
from engine.wiring import build_engine

pytestmark = [pytest.mark.integration]


def test_retrieval_only_mode_quotes_whole_chunks_and_keeps_no_conversation_memory(tmp_path: Path) -> None:
    runtime = build_engine(Settings(data_dir=tmp_path, answer_provider="disabled"))
    try:
        engine = runtime.engine
        first = engine.handle("Chống chỉ định của paracetamol?")
        assert (first.outcome, first.reason) == ("answerable", "retrieval_only")
        chunks = runtime.index.find_by_section("paracetamol", "chong_chi_dinh")
        assert {c.doc_id for c in first.citations} == {c.doc_id for c in chunks if not c.has_quarantined_content}
        for chunk in chunks:
            assert chunk.text.splitlines()[0] in first.reply  # verbatim, not a selection of sentences
        # Single-turn, as the reference system's legacy mode: an elliptical follow-up does not inherit the drug.
        follow_up = engine.handle("còn ibuprofen thì sao?", first.conversation_id)
        assert follow_up.outcome != "answerable" or all(c.drug_id == "ibuprofen" for c in follow_up.citations)
        assert not any(c.drug_id == "paracetamol" for c in follow_up.citations)
    finally:
        runtime.close()


def test_review_overlay_highlights_the_path_a_stored_conversation_took(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    runtime = build_engine(Settings(data_dir=data_dir))
    try:
        cid = runtime.engine.handle("Liều paracetamol cho trẻ em?").conversation_id
        runtime.engine.handle("Bé nặng 18 kg", cid)
    finally:
        runtime.close()
    out = tmp_path / "overlay"
    env = {**os.environ, "DATA_DIR": str(data_dir)}
    env.pop("DATABASE_URL", None)
    done = subprocess.run([sys.executable, "-m", "engine.cli", "review", "--conversation", cid, "--out", str(out)],
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    path_md = (out / "path.md").read_text(encoding="utf-8")
    assert "Lượt 1" in path_md and "Lượt 2" in path_md and "missing_pediatric_age_or_weight" in path_md
    mermaid = (out / "path.mmd").read_text(encoding="utf-8")
    assert "class " in mermaid and "asking" in mermaid.split("class ")[-1]  # visited states highlighted
    assert "★ #3 route" in mermaid and "lượt 1, 2" in mermaid  # the row-3 transition, taken on both turns
    unknown = subprocess.run([sys.executable, "-m", "engine.cli", "review", "--conversation",
                              "00000000-0000-4000-8000-000000000000", "--out", str(out)],
                             env=env, capture_output=True, text=True, timeout=120, check=False)
    assert unknown.returncode == 2 and "no stored turns" in unknown.stderr
