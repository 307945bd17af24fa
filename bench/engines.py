"""Settings for the engines the groups build: always explicit, never whatever the caller's environment says."""

from __future__ import annotations

from pathlib import Path

from engine.config import Settings


def offline_settings(data_dir: Path, **overrides: object) -> Settings:
    """The embedded default (SQLite + Qdrant Edge + rules + extractive + lexical), under `data_dir`."""
    values: dict[str, object] = {
        "data_dir": data_dir, "database_url": None, "qdrant_url": None, "answer_provider": "extractive",
        "understanding_provider": "rules", "verifier": "lexical", "anthropic_api_key": None,
        "anthropic_base_url": None,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


def offline_env(data_dir: Path, **extra: str) -> dict[str, str]:
    """Environment for a `formulary-fsm serve` subprocess on the offline providers."""
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "QDRANT_"))}
    env.update({
        "DATA_DIR": str(data_dir), "ANSWER_PROVIDER": "extractive", "UNDERSTANDING_PROVIDER": "rules",
        "VERIFIER": "lexical", "DATABASE_URL": "", "API_KEYS": "", "PYTHONUNBUFFERED": "1",
    })
    env.update(extra)
    return env
