"""The labelled understanding set (fixtures/labelled/understanding.jsonl), scored through the whole machine.

Each line's context turns run first through the Engine (rules understander, frame merge, the machine's own
clarify decisions, over the fixture formulary), and the last turn's frame is scored: turn type, drugs and
section key each ≥ 95% correct, and no drug id outside the expected set (precision 100%).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.understanding_kit import labelled_rows, score_labelled

MIN_ACCURACY = 0.95


def _rows() -> list[dict[str, Any]]:
    return labelled_rows("understanding.jsonl")


@pytest.fixture(scope="module")
def scored() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return score_labelled(_rows())


def test_the_labelled_set_is_large_and_varied_enough() -> None:
    rows = _rows()
    assert len(rows) >= 150
    assert sum(1 for r in rows if r.get("context")) >= 20
    assert sum(1 for r in rows if r["text"].isascii()) >= 40


def _accuracy(scored: list[tuple[dict[str, Any], dict[str, Any]]], field: str) -> tuple[float, list[str]]:
    wrong = []
    for row, frame in scored:
        want, got = row["expect"][field], frame[field]
        if field == "drugs":
            want, got = set(want), set(got)
        if want != got:
            wrong.append(f"{row.get('context', [])} {row['text']!r}: {field} {got} != {want}")
    return 1 - len(wrong) / len(scored), wrong


@pytest.mark.parametrize("field", ["turn_type", "drugs", "section_key"])
def test_each_field_is_correct_on_at_least_95_percent(scored, field: str) -> None:
    accuracy, wrong = _accuracy(scored, field)
    assert accuracy >= MIN_ACCURACY, "\n".join(wrong)


def test_no_drug_is_ever_invented(scored) -> None:
    invented = [f"{row['text']!r}: {sorted(set(frame['drugs']) - set(row['expect']['drugs']))}"
                for row, frame in scored if set(frame["drugs"]) - set(row["expect"]["drugs"])]
    assert invented == []
