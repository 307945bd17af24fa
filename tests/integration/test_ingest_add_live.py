"""`ingest --add` against a running server: the added monograph is answered without a restart, the rest kept;
a run with errors leaves the serving index alone unless --allow-errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from retrieval.ingest import FIXTURE_FORMULARY, current_shard, ingest
from tests.integration.http_support import ServeProcess, ask

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
ADDED = FIXTURE_FORMULARY / "cetirizin.md"
QUESTION = "Cetirizin có chỉ định gì?"


def _cli(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATA_DIR": str(data_dir)}
    return subprocess.run([sys.executable, "-m", "engine.cli", "ingest", "--no-progress", *args], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=300, check=False)


def _serving_version(client: httpx.Client, expected: str, within_s: float = 30.0) -> str:
    # Polling, not a timed assertion: the server checks for a swapped index about once a second.
    deadline = time.monotonic() + within_s
    version = ""
    while time.monotonic() < deadline:
        version = client.get("/ready").json()["index_version"]
        if version == expected:
            return version
        time.sleep(0.2)
    return version


def test_a_monograph_added_while_the_server_runs_is_answered_without_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    ingest([p for p in sorted(FIXTURE_FORMULARY.glob("*.md")) if p != ADDED], data)
    with ServeProcess(data) as server, httpx.Client(base_url=server.url, timeout=60) as client:
        before = client.get("/ready").json()
        assert before["index_version"] == current_shard(data).name  # type: ignore[union-attr]
        assert ask(client, QUESTION)["outcome"] != "answerable"

        result = _cli("--add", str(ADDED), "--json", data_dir=data)
        assert result.returncode == 0, result.stderr
        summary = json.loads(result.stdout)
        assert summary["swapped"] and summary["kept_monographs"] == 29 and summary["drug_ids"] == ["cetirizin"]

        assert _serving_version(client, summary["index_version"]) == summary["index_version"]
        answer = ask(client, QUESTION)
        assert answer["outcome"] == "answerable", answer["reply"]
        assert any(c["doc_id"].startswith("cetirizin__chi_dinh") for c in answer["citations"])
        kept = ask(client, "Paracetamol có chỉ định gì?")
        assert kept["outcome"] == "answerable" and kept["citations"][0]["drug_id"] == "paracetamol"


def test_an_add_replaces_the_monograph_of_the_same_drug_id_and_keeps_the_others(tmp_path: Path) -> None:
    data = tmp_path / "data"
    ingest([FIXTURE_FORMULARY], data)
    revised = tmp_path / "cetirizin.md"
    revised.write_text(ADDED.read_text(encoding="utf-8").replace(
        "## **Chỉ định**", "## **Chỉ định**\nMày đay mạn tính vô căn (dòng thêm trong bản sửa, dữ liệu thử nghiệm)."),
        encoding="utf-8")
    result = _cli("--add", str(revised), "--json", data_dir=data)
    assert result.returncode == 0, result.stderr
    from retrieval.edge_index import EdgeIndex

    index = EdgeIndex.open(current_shard(data))  # type: ignore[arg-type]
    try:
        assert len(index.drug_names()) == 30
        indication = "\n".join(c.text for c in index.find_by_section("cetirizin", "chi_dinh"))
        assert "dòng thêm trong bản sửa" in indication
        assert sum(n.drug_id == "cetirizin" for n in index.drug_names()) == 1
        assert index.is_synthetic()
    finally:
        index.close()


def test_a_run_with_errors_does_not_swap_the_index_unless_allowed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    ingest([FIXTURE_FORMULARY / "paracetamol.md"], data)
    serving = current_shard(data)
    broken = tmp_path / "broken.md"
    broken.write_text("no title here\n## **Chỉ định**\n", encoding="utf-8")

    refused = _cli("--add", str(ADDED), str(broken), data_dir=data)
    assert refused.returncode == 1
    assert "index NOT swapped" in refused.stdout and "--allow-errors" in refused.stdout
    assert current_shard(data) == serving

    allowed = _cli("--add", "--allow-errors", str(ADDED), str(broken), "--json", data_dir=data)
    assert allowed.returncode == 1, "skipped input still exits non-zero"
    summary = json.loads(allowed.stdout)
    assert summary["swapped"] and summary["errors"]
    assert current_shard(data) != serving and current_shard(data).name == summary["index_version"]  # type: ignore[union-attr]
