"""Two uvicorn workers on one PostgreSQL database: alternate turns of one conversation on each of them.

The two servers are separate `formulary-fsm serve` processes on two ports sharing DATABASE_URL (and the
DATA_DIR holding the index, as `--workers 2` would), so each turn's worker is known. The conversation's
resting state, frame, pending question and streak live only in PostgreSQL. Under CI a PostgreSQL that does
not answer fails these tests instead of skipping them.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.integration.http_support import PAEDIATRIC_QUESTION, ServeProcess, ask
from tests.integration.sql_support import fresh_postgres_schema

pytestmark = [pytest.mark.integration, pytest.mark.postgres]


def test_alternate_turns_on_two_workers_continue_one_conversation(tmp_path: Path) -> None:
    with fresh_postgres_schema() as database_url:
        data = tmp_path / "data"
        # Started one after the other: the first builds the index, the second finds it.
        with ServeProcess(data, DATABASE_URL=database_url) as a, ServeProcess(data, DATABASE_URL=database_url) as b, \
                httpx.Client(base_url=a.url, timeout=70) as on_a, httpx.Client(base_url=b.url, timeout=70) as on_b:
            first = ask(on_a, PAEDIATRIC_QUESTION)
            cid = first["conversation_id"]
            second = ask(on_b, "Bé nặng 18 kg", cid)
            assert second["outcome"] == "clarify" and "18 kg" in second["reply"] and second["turn"] == 2
            third = ask(on_a, "5 tuổi", cid)
            assert (third["outcome"], third["reason"]) == ("clarify", "ambiguous_route")
            assert "Uống" in third["quick_replies"]
            answer = ask(on_b, "Uống", cid)
            assert answer["outcome"] == "answerable" and answer["turn"] == 4
            assert any(c["doc_id"].startswith("paracetamol__lieu_luong_cach_dung") for c in answer["citations"])

            seen_by_a = on_a.get(f"/v1/conversations/{cid}").json()
            seen_by_b = on_b.get(f"/v1/conversations/{cid}").json()
            assert seen_by_a == seen_by_b
            assert [t["seq"] for t in seen_by_a["turns"]] == [1, 2, 3, 4]
            assert seen_by_a["state"] == "ready" and seen_by_a["clarify_streak"] == 0


def test_serve_with_two_worker_processes_answers_whole_conversations(tmp_path: Path) -> None:
    with fresh_postgres_schema() as database_url, \
            ServeProcess(tmp_path / "data", workers=2, DATABASE_URL=database_url) as server, \
            httpx.Client(base_url=server.url, timeout=70) as client:
        for _ in range(3):  # several conversations, each turn taken by whichever worker accepts it
            cid = ask(client, PAEDIATRIC_QUESTION)["conversation_id"]
            assert "18 kg" in ask(client, "Bé nặng 18 kg", cid)["reply"]
            assert ask(client, "5 tuổi", cid)["reason"] == "ambiguous_route"
            assert ask(client, "Uống", cid)["outcome"] == "answerable"
            assert len(client.get(f"/v1/conversations/{cid}").json()["turns"]) == 4
