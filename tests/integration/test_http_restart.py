"""A real server process on SQLite, SIGKILLed between the turns of a paediatric dose conversation.

Nothing of the conversation lives in the process: after a restart the weight given before the kill is still
known, the turn numbers continue, and the clarify streak keeps counting — so a crash cannot be used to
reset the bound of 4 consecutive clarifying questions.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.integration.http_support import PAEDIATRIC_QUESTION, ServeProcess, ask

pytestmark = pytest.mark.integration


def test_a_paediatric_dose_conversation_survives_sigkill_between_turns(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "data")
    try:
        server.start()
        with httpx.Client(base_url=server.url, timeout=70) as client:
            first = ask(client, PAEDIATRIC_QUESTION)
            assert (first["outcome"], first["reason"]) == ("clarify", "missing_pediatric_age_or_weight")
            cid = first["conversation_id"]
            second = ask(client, "Bé nặng 18 kg", cid)
            assert second["outcome"] == "clarify" and "18 kg" in second["reply"]

        server.kill()  # SIGKILL: no shutdown hook, no flush
        server.start()

        with httpx.Client(base_url=server.url, timeout=70) as client:
            third = ask(client, "5 tuổi", cid)
            assert third["conversation_id"] == cid and third["turn"] == 3
            # Age and weight are both known now (the weight from before the kill), so only the route is asked.
            assert (third["outcome"], third["reason"]) == ("clarify", "ambiguous_route")
            stored = client.get(f"/v1/conversations/{cid}").json()
            assert stored["frame"]["weight_kg"] == 18 and stored["frame"]["age_months"] == 60
            assert stored["clarify_streak"] == 1  # first ask counted; the two answers were progress (states/streak.py), and it survived the kill
            assert [t["user_text"] for t in stored["turns"]] == [PAEDIATRIC_QUESTION, "Bé nặng 18 kg", "5 tuổi"]

        server.kill()
        server.start()

        with httpx.Client(base_url=server.url, timeout=70) as client:
            # Turns that answer nothing count: streak 2, 3, 4 (across two restarts), then the breaker.
            for _ in range(3):
                assert ask(client, "không biết", cid)["outcome"] == "clarify"
            last = ask(client, "không biết", cid)
            assert (last["outcome"], last["reason"]) == ("abstain", "clarify_loop_exhausted")
            assert last["turn"] == 7
    finally:
        server.stop()
