"""Shared by the HTTP tests: the real default runtime, and a real `formulary-fsm serve` subprocess."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx
from starlette.testclient import TestClient

from engine.config import Settings
from engine.wiring import Runtime, build_engine

PAEDIATRIC_QUESTION = "Liều paracetamol cho trẻ em?"

# Settings a developer's shell may carry that would change what the server under test is.
_ISOLATED_VARIABLES = (
    "DATABASE_URL", "QDRANT_URL", "API_KEYS", "CORS_ORIGINS", "ANSWER_PROVIDER", "UNDERSTANDING_PROVIDER",
    "VERIFIER", "ANTHROPIC_API_KEY", "MAX_CONSECUTIVE_CLARIFY",
)


def default_runtime(data_dir: Path, **overrides: Any) -> Runtime:
    """The embedded default (SQLite + Qdrant Edge + offline providers) under `data_dir`."""
    return build_engine(Settings(data_dir=data_dir, **overrides))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServeProcess:
    """`formulary-fsm serve` on 127.0.0.1 in a subprocess, with its own environment and log file."""

    def __init__(self, data_dir: Path, *, port: int | None = None, workers: int = 1, **env: str) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.workers = workers
        self.env = {k: v for k, v in os.environ.items() if k.upper() not in _ISOLATED_VARIABLES}
        self.env.update({"DATA_DIR": str(data_dir), "PYTHONUNBUFFERED": "1", **env})
        self.log_path = data_dir / f"serve-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, ready_within_s: float = 180.0) -> ServeProcess:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.starts += 1
        log = self.log_path.open("ab")
        log.write(f"\n--- start {self.starts} ---\n".encode())
        self.process = subprocess.Popen(
            [sys.executable, "-m", "engine.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--workers", str(self.workers), "--log-level", "warning"],
            env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        log.close()
        self._wait_ready(ready_within_s)
        return self

    def _wait_ready(self, within_s: float) -> None:
        # Polling for start-up is not a timed assertion: the limit only stops a hung server hanging the suite.
        deadline = time.monotonic() + within_s
        assert self.process is not None
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"serve exited with {self.process.returncode}:\n{self.log()}")
            try:
                if httpx.get(f"{self.url}/ready", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"serve did not become ready within {within_s:.0f} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:] if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL the whole process group (uvicorn's supervisor and its workers): no shutdown hooks run."""
        if self.process is None:
            return
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self.process = None

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)
        self.process = None

    def __enter__(self) -> ServeProcess:
        return self.start()

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


def ask(client: httpx.Client | TestClient, message: str, conversation_id: str | None = None) -> dict[str, Any]:
    """One turn; asserts it was accepted and returns the reply body."""
    response = client.post("/v1/rag/query", json={"message": message, "conversation_id": conversation_id})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body
