"""The review export is drawn from the running spec, lists the routing table in order, and detects drift."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.fingerprint import spec_fingerprint
from engine.review.dot import render_dot
from engine.review.export import DETERMINISTIC_FILES, drift, render_all, write_export
from engine.review.labels import guard_labels, row_labels
from engine.review.mermaid import render_mermaid
from engine.review.tables import render_routing
from engine.spec import MachineSpec, build_spec
from states.reason_labels import reason_label

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def spec() -> MachineSpec:
    return build_spec()


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_every_transition_appears_in_mermaid_and_dot_with_all_its_guard_labels(spec: MachineSpec, lang: str) -> None:
    mermaid = render_mermaid(spec, lang)  # type: ignore[arg-type]
    dot = render_dot(spec, lang)  # type: ignore[arg-type]
    mermaid_edges = [line for line in mermaid.splitlines() if " --> " in line and "[*]" not in line]
    dot_edges = [line for line in dot.splitlines() if " -> " in line]
    assert len(mermaid_edges) == len(spec.transitions) == len(dot_edges)
    for t, m_line, d_line in zip(spec.transitions, mermaid_edges, dot_edges, strict=True):
        assert m_line.strip().startswith(f"{t.source} --> {t.dest} : ")
        assert d_line.strip().startswith(f"{t.source} -> {t.dest} ")
        for label in guard_labels(spec, t, lang):  # type: ignore[arg-type]
            assert label.replace(";", "#59;").replace(":", "#58;") in m_line
            assert label in d_line


def test_routing_table_lists_the_sixteen_clinical_rows_in_order(spec: MachineSpec) -> None:
    table = render_routing(spec)
    routing = table.split("## ", 1)[0]
    rows = [line.split("|")[1].strip() for line in routing.splitlines() if line.startswith("| ") and
            line.split("|")[1].strip()[:1].isdigit()]
    assert list(dict.fromkeys(r.rstrip("ab") for r in rows)) == [str(n) for n in range(1, 17)]
    assert len(rows) == len(set(rows)) == sum(1 for t in spec.transitions if t.row), "4a/4b, 8a/8b: no row twice"
    assert "Đường dùng KHÔNG phải lúc nào cũng phải hỏi" in table  # why route is not required
    assert "CẢ tuổi và cân nặng" in table  # why paediatric needs both


def test_diagram_title_carries_the_fingerprint(spec: MachineSpec) -> None:
    fp = spec_fingerprint(spec)
    assert fp[:12] in render_mermaid(spec).splitlines()[1]
    assert fp[:12] in render_dot(spec).splitlines()[1]


def test_fingerprint_is_stable_across_processes(spec: MachineSpec) -> None:
    code = "from engine.spec import build_spec; from engine.fingerprint import spec_fingerprint; " \
           "print(spec_fingerprint(build_spec()))"
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert other == spec_fingerprint(spec) == spec_fingerprint(build_spec())


def test_fingerprint_changes_with_a_limit(spec: MachineSpec) -> None:
    assert spec_fingerprint(build_spec(max_clarify=5)) != spec_fingerprint(spec)
    assert spec_fingerprint(build_spec(max_calls=9)) != spec_fingerprint(spec)


def test_fingerprint_changes_when_guard_or_transition_order_changes(spec: MachineSpec) -> None:
    swapped_guards = dataclasses.replace(spec, guards=(spec.guards[1], spec.guards[0], *spec.guards[2:]))
    routing = [i for i, t in enumerate(spec.transitions) if t.row]
    ts = list(spec.transitions)
    ts[routing[1]], ts[routing[2]] = ts[routing[2]], ts[routing[1]]
    swapped_rows = dataclasses.replace(spec, transitions=tuple(ts))
    assert spec_fingerprint(swapped_guards) != spec_fingerprint(spec)
    assert spec_fingerprint(swapped_rows) != spec_fingerprint(spec)


def test_committed_review_export_matches_the_running_spec(spec: MachineSpec) -> None:
    problems = drift(spec, REPO / "docs" / "review")
    assert problems == [], f"docs/review is stale — run `make review`: {problems}"


def test_drift_is_detected_when_the_spec_changes(tmp_path: Path, spec: MachineSpec) -> None:
    write_export(spec, tmp_path)
    assert drift(spec, tmp_path) == []
    changed = build_spec(max_clarify=3)
    assert {p.split(":")[0] for p in drift(changed, tmp_path)} >= {"spec.json", "guards.md"}


def test_drift_is_detected_when_the_export_is_edited(tmp_path: Path, spec: MachineSpec) -> None:
    write_export(spec, tmp_path)
    routing = tmp_path / "routing.md"
    routing.write_text(routing.read_text(encoding="utf-8").replace("missing_population", "population?"),
                       encoding="utf-8")
    assert drift(spec, tmp_path) == ["routing.md: differs from the running spec (run `make review`)"]


def test_spec_json_has_markup_guard_labels_and_fingerprint(spec: MachineSpec) -> None:
    doc = json.loads(render_all(spec)["spec.json"])
    assert doc["fingerprint"] == spec_fingerprint(spec)
    assert doc["markup"]["auto_transitions"] is False
    assert len(doc["markup"]["transitions"]) == len(spec.transitions)
    assert {g["name"] for g in doc["guards"]} == {g.name for g in spec.guards}
    assert all(g["label_vi"] and g["label_en"] for g in doc["guards"])
    assert set(DETERMINISTIC_FILES) == set(render_all(spec))


def test_routing_diagram_lists_every_row_in_table_order_with_its_guard_labels(spec: MachineSpec) -> None:
    from engine.review.dot import render_routing_dot

    dot = render_routing_dot(spec)
    boxes = [line for line in dot.splitlines() if line.strip().startswith("row_") and "[label=" in line]
    numbers = row_labels(spec)
    rows = [(numbers[i], t) for i, t in enumerate(spec.transitions) if t.row and t.source == "routing"]
    assert len(boxes) == len(rows)
    for box, (number, t) in zip(boxes, rows, strict=True):
        assert f'label="#{number}  ' in box
        for label in guard_labels(spec, t, "vi"):
            assert label in box
        if t.reason:
            assert reason_label(t.reason) in box and t.reason not in box, "plain words, no code, in the diagram"
