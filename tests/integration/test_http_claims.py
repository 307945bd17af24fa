"""Turn claims, provider-call accounting, provider readiness and ownership across an auth change (issue #19,
items 7, 8 and 10), against a real `formulary-fsm serve` subprocess and, where a provider is involved, the
real SDK talking to the fake Messages server over a socket."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import httpx
import pytest
from starlette.testclient import TestClient

from engine.config import Settings
from engine.http.app import create_app
from engine.store.faults import FaultyStore
from engine.store.memory import MemoryStore
from engine.wiring import build_engine
from grounding.fake_messages import FakeMessages, FakeMessagesServer, RecordedRequest, Reply, ToolReply
from tests.integration.http_support import ServeProcess, ask, free_port

pytestmark = pytest.mark.integration

SMALLTALK = {"turn_type": "smalltalk"}


def _slow_smalltalk(request: RecordedRequest) -> Reply:
    # Slow enough that every racing turn loads the conversation while the first one is still understanding.
    return ToolReply(SMALLTALK, delay_s=1.5)


@pytest.fixture()
def provider() -> Iterator[FakeMessagesServer]:
    with FakeMessagesServer(FakeMessages(fallback=_slow_smalltalk)) as server:
        yield server


def _provider_requests(metrics: str) -> int:
    return sum(int(n) for n in re.findall(r"^formulary_provider_requests_total\{[^}]*\} (\d+)$", metrics, re.M))


def test_of_ten_simultaneous_turns_on_one_conversation_only_the_winner_calls_the_provider(
    tmp_path: Path, provider: FakeMessagesServer
) -> None:
    backend = ServeProcess(tmp_path / "serve", UNDERSTANDING_PROVIDER="anthropic", ANTHROPIC_API_KEY="test-key",
                           ANTHROPIC_BASE_URL=provider.url)
    with backend, httpx.Client(base_url=backend.url, timeout=60) as http:
        cid = ask(http, "Xin chào")["conversation_id"]
        before = len(provider.requests)
        statuses: list[int] = []
        start = threading.Barrier(10)

        def turn(n: int) -> None:
            start.wait(timeout=30)
            with httpx.Client(base_url=backend.url, timeout=60) as own:
                response = own.post("/v1/rag/query", json={"message": f"Chào lần {n}", "conversation_id": cid})
                statuses.append(response.status_code)

        threads = [threading.Thread(target=turn, args=(n,)) for n in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        metrics = http.get("/metrics").text
        turns = http.get(f"/v1/conversations/{cid}").json()["turns"]

    accepted = statuses.count(200)
    assert accepted >= 1 and statuses.count(409) == 10 - accepted
    # One provider call per accepted turn: a refused turn spent nothing.
    assert len(provider.requests) - before == accepted
    assert len(turns) == 1 + accepted
    assert _provider_requests(metrics) == len(provider.requests)  # /metrics counts every call sent


def test_ready_says_the_providers_are_not_ok_when_the_anthropic_url_is_unreachable(tmp_path: Path) -> None:
    class HealthOnly(ServeProcess):
        def _wait_ready(self, within_s: float) -> None:
            deadline = time.monotonic() + within_s
            while time.monotonic() < deadline:
                try:
                    if httpx.get(f"{self.url}/health", timeout=2).status_code == 200:
                        return
                except httpx.HTTPError:
                    time.sleep(0.2)
            raise AssertionError(self.log())

    nobody = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    backend = HealthOnly(tmp_path / "serve", UNDERSTANDING_PROVIDER="anthropic", ANTHROPIC_API_KEY="test-key",
                         ANTHROPIC_BASE_URL=nobody)
    with backend:
        started = time.monotonic()
        ready = httpx.get(f"{backend.url}/ready", timeout=30)
        took = time.monotonic() - started

    assert ready.status_code == 503 and "providers" in ready.json()["failing"]
    assert "cannot reach" in ready.json()["checks"]["provider.understanding"]
    assert took < 5


def test_ready_says_ok_when_the_anthropic_url_answers(tmp_path: Path, provider: FakeMessagesServer) -> None:
    backend = ServeProcess(tmp_path / "serve", UNDERSTANDING_PROVIDER="anthropic", ANTHROPIC_API_KEY="test-key",
                           ANTHROPIC_BASE_URL=provider.url)
    with backend:
        ready = httpx.get(f"{backend.url}/ready", timeout=30)
    assert ready.status_code == 200 and ready.json()["checks"]["provider.understanding"].endswith("ok")
    assert provider.requests == []  # the probe never sends a Messages request


# ---------------------------------------------------------------------------- item 8: auth change


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], env=env, capture_output=True, text=True,
                          timeout=120)


def test_a_conversation_from_before_api_keys_is_visible_to_no_key_until_an_admin_claims_it(tmp_path: Path) -> None:
    alice, bob = "alice-key-0123456789", "bob-key-9876543210"
    open_server = ServeProcess(tmp_path / "data")
    with open_server, httpx.Client(base_url=open_server.url, timeout=30) as http:
        cid = ask(http, "Liều paracetamol cho trẻ em?")["conversation_id"]

    keyed = ServeProcess(tmp_path / "data", port=open_server.port, API_KEYS=f"{alice},{bob}")
    with keyed, httpx.Client(base_url=keyed.url, timeout=30) as http:
        as_alice = {"Authorization": f"Bearer {alice}"}
        as_bob = {"Authorization": f"Bearer {bob}"}
        assert http.get(f"/v1/conversations/{cid}", headers=as_alice).status_code == 404
        continued = http.post("/v1/rag/query", json={"message": "Bé 5 tuổi", "conversation_id": cid},
                              headers=as_bob)
        assert continued.status_code == 404
        assert http.delete(f"/v1/conversations/{cid}", headers=as_bob).status_code == 404

        listed = _cli(keyed.env, "claim", "--key-ids")
        assert listed.returncode == 0, listed.stderr
        alice_id = next(line.split()[0] for line in listed.stdout.splitlines() if line.endswith(alice[-4:]))
        assert alice not in listed.stdout  # ids and hints only, never a key
        wrong = _cli(keyed.env, "claim", "--conversation", cid, "--key-id", "key:not-a-key")
        assert wrong.returncode != 0 and "not the id of a key" in wrong.stderr
        claimed = _cli(keyed.env, "claim", "--conversation", cid, "--key-id", alice_id)
        assert claimed.returncode == 0, claimed.stderr
        again = _cli(keyed.env, "claim", "--conversation", cid, "--key-id", alice_id)
        assert again.returncode != 0 and "no ownerless conversation" in again.stderr

        assert http.get(f"/v1/conversations/{cid}", headers=as_alice).status_code == 200
        assert http.get(f"/v1/conversations/{cid}", headers=as_bob).status_code == 404
        turn = http.post("/v1/rag/query", json={"message": "Bé 5 tuổi", "conversation_id": cid}, headers=as_alice)
        assert turn.status_code == 200 and turn.json()["turn"] == 2


def test_purge_with_an_absurd_number_of_days_says_what_to_give_instead(tmp_path: Path) -> None:
    env = ServeProcess(tmp_path / "data").env
    result = _cli(env, "purge", "--days", "800000")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "--days 800000" in result.stderr and "give at most" in result.stderr


# ---------------------------------------------------------------- item 10: fail-open turn numbers


class HistoryFails(FaultyStore):
    """The turn's own read (load_with_history) fails; the entry's count of turns still works."""

    def load_with_history(self, conversation_id: str, owner: str | None, lines: int = 12) -> NoReturn:
        from core.errors import StoreUnavailable

        raise StoreUnavailable("injected: history unreadable")


def test_a_fail_open_turn_on_an_existing_conversation_reports_its_real_turn_number(tmp_path: Path) -> None:
    store = HistoryFails(MemoryStore())
    runtime = build_engine(Settings(data_dir=tmp_path), store=store)
    try:
        with TestClient(create_app(runtime=runtime)) as client:
            cid = ask(client, "Xin chào")["conversation_id"]
            reply = ask(client, "Liều paracetamol cho trẻ em?", cid)
    finally:
        runtime.close()
    assert reply["memory_loaded"] is False and reply["turn"] == 2
