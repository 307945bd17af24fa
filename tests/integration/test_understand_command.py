"""`formulary-fsm understand` prints the frame as JSON with the issue's field names, over the real index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main

pytestmark = pytest.mark.integration


def _run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
         *argv: str) -> dict[str, object]:
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("UNDERSTANDING_PROVIDER", "rules")
    assert main(["understand", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_understand_prints_the_frame_with_the_issue_field_names(capsys, monkeypatch, tmp_path) -> None:
    out = _run(capsys, monkeypatch, tmp_path, "Liều paracetamol cho bé 5 tuổi 18kg")
    assert list(out)[:11] == ["turn_type", "drugs", "unknown_drugs", "section_key", "population", "age_months",
                              "weight_kg", "route", "condition", "needs_clarify", "confidence"]
    assert (out["turn_type"], out["drugs"], out["population"], out["age_months"], out["weight_kg"]) == (
        "dosing_calc", ["paracetamol"], "pediatric", 60.0, 18.0)


def test_understand_after_earlier_turns_prints_the_merged_frame(capsys, monkeypatch, tmp_path) -> None:
    out = _run(capsys, monkeypatch, tmp_path, "Bé nặng 18 kg", "--after", "Liều paracetamol cho trẻ em?",
               "--candidates")
    assert (out["drugs"], out["weight_kg"], out["population"]) == (["paracetamol"], 18.0, "pediatric")
    assert out["resolver"] == {"candidates": [], "unknown": [], "ambiguous": []}
