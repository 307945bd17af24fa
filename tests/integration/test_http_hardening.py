"""The HTTP server under abuse and retries (issue #19, items 4, 5, 6 and 10), against a real
`formulary-fsm serve` (uvicorn) subprocess on loopback: bounded counts and times throughout."""

from __future__ import annotations

import socket
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.integration.http_support import PAEDIATRIC_QUESTION, ServeProcess

pytestmark = pytest.mark.integration

MAX_TURNS = 3
HEAD_TIMEOUT_S = 2
MAX_CONNECTIONS = 60
ALLOWED_ORIGIN = "https://allowed.example"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    backend = ServeProcess(tmp_path_factory.mktemp("hardening"), MAX_TURNS_PER_CONVERSATION=str(MAX_TURNS),
                           REQUEST_HEAD_TIMEOUT_S=str(HEAD_TIMEOUT_S), MAX_CONNECTIONS=str(MAX_CONNECTIONS),
                           CORS_ORIGINS=ALLOWED_ORIGIN)
    with backend:
        yield backend


@pytest.fixture()
def http(server: ServeProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        yield client


def _post(http: httpx.Client, message: str, cid: str | None = None, key: str | None = None) -> httpx.Response:
    headers = {"Idempotency-Key": key} if key else {}
    return http.post("/v1/rag/query", json={"message": message, "conversation_id": cid}, headers=headers)


def _turns(http: httpx.Client, cid: str, **params: Any) -> dict[str, Any]:
    response = http.get(f"/v1/conversations/{cid}", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


# ------------------------------------------------------------------------------------- item 6: retries


def test_a_retried_turn_with_the_same_idempotency_key_is_stored_once_and_gets_the_same_reply(
    http: httpx.Client,
) -> None:
    key = str(uuid.uuid4())
    first = _post(http, PAEDIATRIC_QUESTION, key=key)
    retry = _post(http, PAEDIATRIC_QUESTION, key=key)  # the client timed out and resent: no conversation id yet

    assert first.status_code == retry.status_code == 200
    assert retry.headers.get("idempotent-replayed") == "true" and "idempotent-replayed" not in first.headers
    assert retry.json() == first.json()
    cid = first.json()["conversation_id"]

    second_key = str(uuid.uuid4())
    follow_up = _post(http, "Bé 5 tuổi", cid, key=second_key)
    for _ in range(3):
        again = _post(http, "Bé 5 tuổi", cid, key=second_key)
        assert again.status_code == 200 and again.json()["reply"] == follow_up.json()["reply"]
        assert again.json()["turn"] == 2

    body = _turns(http, cid)
    assert [t["user_text"] for t in body["turns"]] == [PAEDIATRIC_QUESTION, "Bé 5 tuổi"]
    assert body["turn_count"] == 2


def test_an_idempotency_key_reused_for_another_message_is_refused(http: httpx.Client) -> None:
    key = str(uuid.uuid4())
    assert _post(http, "Xin chào", key=key).status_code == 200

    reused = _post(http, "Liều ibuprofen cho người lớn?", key=key)

    assert reused.status_code == 422 and reused.json()["error"] == "idempotency_key_reused"
    bad = _post(http, "Xin chào", key="has spaces in it")
    assert bad.status_code == 400 and bad.json()["error"] == "invalid_idempotency_key"


# ---------------------------------------------------------------------------- item 5: bounded reads


def test_a_conversation_is_read_a_page_at_a_time_and_stops_at_its_turn_limit(http: httpx.Client) -> None:
    cid = _post(http, PAEDIATRIC_QUESTION).json()["conversation_id"]
    for turn in ("Bé 5 tuổi", "18 kg"):
        assert _post(http, turn, cid).status_code == 200

    first = _turns(http, cid, limit=2)
    rest = _turns(http, cid, offset=2, limit=2)
    assert [t["seq"] for t in first["turns"]] == [1, 2] and first["next_offset"] == 2
    assert [t["seq"] for t in rest["turns"]] == [3] and rest["next_offset"] is None
    assert "trace" not in first["turns"][0]
    traced = _turns(http, cid, trace=1, limit=1)
    assert len(traced["turns"]) == 1 and traced["turns"][0]["trace"]["states"]
    for params in ({"limit": 10_000}, {"trace": 1, "limit": 200}, {"offset": -1}, {"limit": "x"}):
        refused = http.get(f"/v1/conversations/{cid}", params=params)
        assert refused.status_code == 400, params

    over = _post(http, "Còn người lớn thì sao?", cid)

    assert over.status_code == 200
    reply = over.json()
    assert (reply["outcome"], reply["reason"], reply["persisted"]) == ("abstain", "conversation_too_long", False)
    assert f"giới hạn {MAX_TURNS} lượt" in reply["reply"] and "cuộc trò chuyện mới" in reply["reply"]
    assert _turns(http, cid)["turn_count"] == MAX_TURNS  # nothing stored beyond the limit


# ----------------------------------------------------------------------------------- item 10: smaller


def test_a_json_integer_of_five_thousand_digits_is_a_400_not_a_500(http: httpx.Client) -> None:
    body = '{"message": "Xin chào", "conversation_id": null, "n": ' + "9" * 5000 + "}"
    response = http.post("/v1/rag/query", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and response.json()["error"] == "invalid_json"


def test_a_rejected_cors_preflight_answers_json(http: httpx.Client) -> None:
    headers = {"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}
    refused = http.options("/v1/rag/query", headers=headers)
    allowed = http.options("/v1/rag/query", headers={**headers, "Origin": ALLOWED_ORIGIN,
                                                     "Access-Control-Request-Headers": "Idempotency-Key"})

    assert refused.status_code == 400 and refused.headers["content-type"].startswith("application/json")
    assert refused.json()["error"] == "cors_rejected" and "origin" in refused.json()["message"]
    assert allowed.status_code == 200


# ------------------------------------------------------------------------ item 4: connection abuse


def _partial(server: ServeProcess) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # the head never completes
    return s


def _closed_by_server(s: socket.socket, within_s: float) -> bool:
    s.settimeout(within_s)
    try:
        return s.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_normal_requests_are_served_during_a_slow_connection_flood_and_stalled_heads_time_out(
    server: ServeProcess, http: httpx.Client
) -> None:
    flood = [_partial(server) for _ in range(MAX_CONNECTIONS + 40)]  # more than the cap: the oldest are evicted
    try:
        started = time.monotonic()
        statuses = [http.get("/health").status_code for _ in range(10)]
        statuses.append(_post(http, "Xin chào").status_code)
        assert statuses == [200] * 11
        assert all(_closed_by_server(s, HEAD_TIMEOUT_S + 3) for s in flood)
        assert time.monotonic() - started < HEAD_TIMEOUT_S + 6
    finally:
        for s in flood:
            s.close()
    assert "no complete request head" in server.log()


def test_an_oversized_or_overcrowded_request_head_is_refused(server: ServeProcess, http: httpx.Client) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200_000 + b"\r\n\r\n")
        answer = b""
        try:
            while chunk := s.recv(4096):
                answer += chunk
        except ConnectionResetError:
            pass
    assert not answer.startswith(b"HTTP/1.1 200"), answer[:80]

    crowded = http.get("/health", headers={f"X-H{i}": "1" for i in range(100)})
    assert crowded.status_code == 431 and crowded.json()["error"] == "too_many_headers"


def test_a_body_dripped_slower_than_the_request_timeout_gets_408(server: ServeProcess) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=HEAD_TIMEOUT_S + 5) as s:
        s.sendall(b"POST /v1/rag/query HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 40\r\n\r\n{\"message\"")
        started = time.monotonic()
        answer = s.recv(4096)
        took = time.monotonic() - started
        # The head and the body may arrive as separate segments; the server closes the connection after the 408.
        try:
            while chunk := s.recv(4096):
                answer += chunk
        except ConnectionResetError:
            pass
    assert answer.startswith(b"HTTP/1.1 408") and b"request_timeout" in answer
    assert took < HEAD_TIMEOUT_S + 2


def test_a_client_disconnect_is_logged_as_one_line_without_a_traceback(server: ServeProcess) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /v1/rag/query HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 1000\r\n\r\n{\"message\": ")
        time.sleep(0.3)
    deadline = time.monotonic() + 5
    while "client disconnected" not in server.log() and time.monotonic() < deadline:
        time.sleep(0.1)
    log = server.log()
    assert "client disconnected during POST /v1/rag/query" in log
    assert "Traceback" not in log


# ---------------------------------------------------------------------- item 9: the store file removed


def test_removing_the_data_directory_makes_turns_unpersisted_and_the_server_not_ready(tmp_path: Path) -> None:
    import shutil

    data = tmp_path / "data"
    backend = ServeProcess(data)
    backend.log_path = tmp_path / "serve.log"  # the log outlives the data directory
    with backend, httpx.Client(base_url=backend.url, timeout=30) as http:
        before = _post(http, "Xin chào").json()
        assert before["persisted"] is True
        shutil.rmtree(data)

        after = _post(http, "Xin chào").json()
        ready = http.get("/ready")

    assert after["persisted"] is False
    assert ready.status_code == 503 and "store" in ready.json()["failing"]
    assert "removed" in ready.json()["checks"]["store"]
