"""The machine a run was measured on: CPU, cores, memory, OS, Python and the package versions that matter."""

from __future__ import annotations

import os
import platform
import sys
from datetime import UTC, datetime
from importlib import metadata

PACKAGES = (
    "formulary-fsm", "transitions", "pydantic", "qdrant-edge-py", "qdrant-client", "sqlalchemy", "psycopg",
    "anthropic", "rapidfuzz", "starlette", "uvicorn", "httpx", "anyio",
)
POSTGRES_URL = os.environ.get("BENCH_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gib() -> float | None:
    try:
        with open("/proc/meminfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("MemTotal:"):
                    return round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return None


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def postgres_version(url: str = POSTGRES_URL) -> str:
    try:
        import psycopg

        with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://", 1), connect_timeout=3) as conn:
            row = conn.execute("SHOW server_version").fetchone()
            return str(row[0]) if row else "unknown"
    except Exception as exc:  # the bench reports an absent database, it does not stop on it
        return f"unavailable ({type(exc).__name__})"


def describe() -> dict[str, object]:
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "nproc": os.cpu_count(),
        # Other processes' load at the start of the run: on a shared machine, read absolute figures beside it.
        "load_average": " / ".join(f"{x:.2f}" for x in os.getloadavg()),
        "memory_gib": _memory_gib(),
        "cpu_model": _cpu_model(),
        "os": f"{platform.system()} {platform.release()}",
        "python": sys.version.split()[0],
        "postgresql": postgres_version(),
        "packages": {name: _version(name) for name in PACKAGES},
    }
