"""Sign-off binds: with REQUIRE_SIGNOFF=true a real server refuses an unsigned spec, naming the fingerprint and the
command that signs it, and starts once `formulary-fsm signoff` recorded a sign-off; /v1/machine reports it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from engine.config import Settings
from engine.fingerprint import spec_fingerprint
from engine.wiring import spec_from
from tests.integration.http_support import ServeProcess

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]


def _cli(*args: str, data_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "DATA_DIR": str(data_dir), **env}
    full_env.pop("DATABASE_URL", None)
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], cwd=REPO, env=full_env,
                          capture_output=True, text=True, timeout=300, check=False)


def test_a_server_requiring_signoff_refuses_an_unsigned_spec_and_starts_once_signed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    fingerprint = spec_fingerprint(spec_from(Settings(data_dir=data)))
    server = ServeProcess(data, REQUIRE_SIGNOFF="true")
    with pytest.raises(AssertionError) as refused:
        server.start(ready_within_s=120)
    message = str(refused.value)
    assert "serve exited with" in message
    assert fingerprint in message and "formulary-fsm signoff" in message

    signed = _cli("signoff", "--by", "DS. Trần Thị B", "--role", "Dược sĩ lâm sàng", "--fingerprint", fingerprint,
                  data_dir=data)
    assert signed.returncode == 0, signed.stderr
    assert "DS. Trần Thị B" in signed.stdout

    with server, httpx.Client(base_url=server.url, timeout=30) as client:  # __enter__ starts it, __exit__ stops it
        machine = client.get("/v1/machine").json()
        assert machine["fingerprint"] == fingerprint
        assert [(s["signed_by"], s["role"]) for s in machine["signoffs"]] == [("DS. Trần Thị B", "Dược sĩ lâm sàng")]


def test_a_signoff_of_another_fingerprint_does_not_open_the_gate(tmp_path: Path) -> None:
    data = tmp_path / "data"
    # Signed under one clarify limit; the server runs another: a different machine, a different fingerprint.
    assert _cli("signoff", "--by", "BS. C", data_dir=data, MAX_CONSECUTIVE_CLARIFY="3").returncode == 0
    refused = _cli("serve", "--port", "1", data_dir=data, REQUIRE_SIGNOFF="true")
    assert refused.returncode == 2
    assert spec_fingerprint(spec_from(Settings(data_dir=data))) in refused.stderr


def test_signoff_refuses_a_fingerprint_that_is_not_the_running_spec(tmp_path: Path) -> None:
    result = _cli("signoff", "--by", "BS. C", "--fingerprint", "0" * 64, data_dir=tmp_path / "data")
    assert result.returncode == 2 and "is not the spec this configuration runs" in result.stderr
    listed = _cli("signoff", "--list", data_dir=tmp_path / "data")
    assert listed.returncode == 0 and ": 0" in listed.stdout


def test_the_app_factory_alone_also_refuses_an_unsigned_spec(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from core.errors import ConfigurationError
    from engine.http.app import create_app

    settings = Settings(data_dir=tmp_path / "data", require_signoff=True)
    with pytest.raises(ConfigurationError, match="formulary-fsm signoff"), TestClient(create_app(settings)):
        pass
