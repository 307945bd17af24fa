"""The labelled patient set (fixtures/labelled/patient.jsonl, issue #18), scored through the whole machine.

Beyond turn type, drugs and section key, each row labels the patient slots that matter for who the patient
is (population, age, weight, person, condition, pregnancy, renal, unknown drugs). A field a row labels must be
right: a wrong person's weight is the dangerous turn, so the patient fields must all be right, not 95%.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.text import fold
from states.conditions import condition_spellings
from tests.unit.understanding_kit import labelled_rows, score_labelled

QUESTION_FIELDS = ("turn_type", "drugs", "section_key")
PATIENT_FIELDS = ("population", "age_months", "weight_kg", "person", "condition", "pregnant", "renal",
                  "unknown_drugs", "non_human")
FILES = ("patient.jsonl", "patient_blind.jsonl")


def _rows() -> list[dict[str, Any]]:
    return [row for name in FILES for row in labelled_rows(name)]


@pytest.fixture(scope="module")
def scored() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return score_labelled(_rows())


def _same(field: str, want: Any, got: Any) -> bool:
    if field == "drugs":
        return set(want) == set(got)
    if field == "condition" and want and got:
        # The frame may name the condition as the book spells it ("mề đay" asked, "mày đay" in the book).
        return fold(got).replace(" - ", " ") in {fold(s) for s in condition_spellings(want)}
    if isinstance(want, float) and got is not None:
        return abs(want - got) < 0.05
    return bool(want == got)


def _wrong(scored: list[tuple[dict[str, Any], dict[str, Any]]], field: str) -> list[str]:
    return [f"{row.get('context', [])} {row['text']!r}: {field} {frame[field]!r} != {row['expect'][field]!r}"
            for row, frame in scored if field in row["expect"] and not _same(field, row["expect"][field], frame[field])]


@pytest.mark.parametrize("field", QUESTION_FIELDS)
def test_the_question_is_understood_on_at_least_95_percent(scored, field: str) -> None:
    wrong = _wrong(scored, field)
    assert 1 - len(wrong) / len(scored) >= 0.95, "\n".join(wrong)


@pytest.mark.parametrize("field", PATIENT_FIELDS)
def test_every_labelled_patient_value_is_right(scored, field: str) -> None:
    assert _wrong(scored, field) == []


def test_no_drug_is_ever_invented(scored) -> None:
    assert [r["text"] for r, f in scored if set(f["drugs"]) - set(r["expect"]["drugs"])] == []
