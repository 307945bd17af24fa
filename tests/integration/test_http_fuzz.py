"""Fuzzing the HTTP API: whatever a client sends, the answer is never a 5xx.

Two generators: hypothesis over raw and structured query bodies (the endpoint that takes input), and
schemathesis over every operation of the app's own OpenAPI schema (positive and negative cases).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from engine.http.app import create_app
from engine.http.openapi import OPENAPI
from engine.wiring import Runtime
from tests.integration.http_support import default_runtime

pytestmark = pytest.mark.integration

OUTCOMES = {"answerable", "verify_pdf", "clarify", "abstain"}


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runtime]:
    rt = default_runtime(tmp_path_factory.mktemp("http-fuzz"))
    yield rt
    rt.close()


@pytest.fixture(scope="module")
def client(runtime: Runtime) -> Iterator[TestClient]:
    with TestClient(create_app(runtime=runtime)) as c:
        yield c


# Text that exercises the validator: Vietnamese, control characters, surrogate escapes, very long runs.
_texts = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1990, max_size=2010),
    st.sampled_from(["Liều paracetamol cho trẻ em?", "Bé nặng 18 kg", "5 tuổi", "Uống", " ", "\t\n", "a\u0000b",
                     "\u202eparacetamol", "'; DROP TABLE conversations; --", "{{7*7}}", "<script>x</script>"]),
)
_ids = st.one_of(st.none(), st.uuids().map(str), st.text(max_size=40), st.integers(), st.booleans(),
                 st.lists(st.integers(), max_size=2))
_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
_bodies = st.one_of(
    st.binary(max_size=200),
    _json_values.map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({"message": st.one_of(_texts, _json_values)},
                          optional={"conversation_id": _ids, "extra": _json_values}).map(
        lambda d: json.dumps(d).encode()),
    _texts.map(lambda t: json.dumps({"message": t}, ensure_ascii=False).encode("utf-8", "surrogatepass")),
)
_content_types = st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain",
                                  "application/json; charset=latin-1", ""])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(body=_bodies, content_type=_content_types)
def test_no_query_body_gets_a_server_error(client: TestClient, body: bytes, content_type: str) -> None:
    headers = {"content-type": content_type} if content_type else {}
    response = client.post("/v1/rag/query", content=body, headers=headers)
    assert response.status_code < 500, response.text
    payload: dict[str, Any] = response.json()
    if response.status_code == 200:
        assert payload["outcome"] in OUTCOMES and payload["reply"]
    else:
        assert payload["status"] == response.status_code and payload["error"] and payload["message"]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(conversation_id=st.text(min_size=1, max_size=60))
def test_no_conversation_path_gets_a_server_error(client: TestClient, conversation_id: str) -> None:
    for method in ("GET", "DELETE"):
        response = client.request(method, f"/v1/conversations/{quote(conversation_id, safe='')}")
        assert response.status_code < 500, response.text


@pytest.fixture(scope="module")
def app(runtime: Runtime) -> Any:
    return create_app(runtime=runtime)


# The schema the app serves, loaded from the same object (no app or runtime is needed to collect the tests).
schema = schemathesis.openapi.from_dict(OPENAPI)


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_operation_of_the_openapi_schema_answers_with_a_server_error(case: Any, app: Any) -> None:
    response = case.call(app=app, base_url="http://127.0.0.1")
    if case.path == "/v1/machine/diagram" and shutil.which("dot") is None:
        assert response.status_code != 500  # without Graphviz the SVG is a 503 naming it
        return
    assert response.status_code < 500, response.text
