"""`formulary-fsm chat`: the same engine in the terminal, one turn per line of standard input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.http_support import PAEDIATRIC_QUESTION

pytestmark = pytest.mark.integration


def test_terminal_chat_clarifies_a_paediatric_dose_then_prints_the_cited_answer(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "QDRANT_URL", "ANSWER_PROVIDER")}
    env["DATA_DIR"] = str(tmp_path / "data")
    done = subprocess.run(
        [sys.executable, "-m", "engine.cli", "chat"],
        input=f"{PAEDIATRIC_QUESTION}\nBé nặng 18 kg\n\n5 tuổi\nUống\n",
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "[clarify / missing_pediatric_age_or_weight] (lượt 1)" in out
    assert "18 kg" in out.split("(lượt 2)")[1]
    assert "Gợi ý: " in out and "Uống" in out.split("(lượt 3)")[1]
    answer = out.split("(lượt 4)")[0].rsplit("\n[", 1)[-1] + out.split("(lượt 4)")[1]
    assert answer.startswith("answerable /") and "paracetamol__lieu_luong_cach_dung" in answer
    assert "conversation: " in done.stderr
