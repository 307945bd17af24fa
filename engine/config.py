"""Configuration from environment variables, validated at start-up with messages that say what to fix."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from core.errors import ConfigurationError

PROVIDER_TURN_THREADS = 32
"""Turns that wait on a model provider."""
SQLITE_TURN_THREADS = 4
"""Offline turns on SQLite (one writer)."""
SERVER_DB_TURN_THREADS = 4
"""Offline turns on PostgreSQL, per worker process."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", case_sensitive=False, extra="ignore")

    data_dir: Path = Field(default=Path("./var"), description="All state: the SQLite database and the index.")
    database_url: str | None = Field(default=None, description="SQLAlchemy URL; default SQLite under DATA_DIR.")
    qdrant_url: str | None = Field(default=None, description="Qdrant server URL; default embedded Qdrant Edge.")
    qdrant_collection: str = "formulary"
    embedder: Literal["none", "trigram"] = Field(
        default="none", description="Dense embedder for the optional dense retrieval path; none = BM25 only.")

    answer_provider: Literal["disabled", "extractive", "anthropic"] = "extractive"
    understanding_provider: Literal["rules", "anthropic", "hybrid"] = "rules"
    verifier: Literal["lexical", "anthropic"] = "lexical"
    hybrid_min_confidence: float = Field(default=0.8, ge=0.0, le=1.0)

    anthropic_api_key: str | None = None
    anthropic_base_url: str | None = None
    anthropic_model: str = "claude-sonnet-4-5"
    anthropic_max_tokens: int = Field(default=2048, ge=64, le=32_000)
    anthropic_read_timeout_s: float = Field(default=20.0, gt=0)
    anthropic_max_attempts: int = Field(default=2, ge=1, le=5)

    max_consecutive_clarify: int = Field(default=4, ge=1, le=20)
    max_wall_clock_ms: int = Field(default=40_000, ge=100)
    max_llm_calls_per_turn: int = Field(default=8, ge=1, le=64)

    api_keys: str = Field(default="", description="Comma-separated API keys; empty disables authentication.")
    cors_origins: str = Field(default="", description="Comma-separated origins; empty keeps CORS off.")
    worker_threads: int | None = Field(
        default=None, ge=1, le=512,
        description="Bounded pool running turns off the loop; default by database (see turn_threads).")
    retention_days: int = Field(default=90, ge=1)
    require_signoff: bool = Field(
        default=False, description="Refuse to serve a spec fingerprint nobody signed (formulary-fsm signoff).")
    max_turns_per_conversation: int = Field(
        default=500, ge=1, le=100_000, description="Turns one conversation may hold; past it the reply says to start anew.")

    # Connection limits of `formulary-fsm serve` (uvicorn): slow or oversized clients cannot exhaust the server.
    max_connections: int = Field(default=1000, ge=1, le=100_000,
                                 description="Connections a worker holds at once; past it new ones get 503.")
    keep_alive_timeout_s: int = Field(default=5, ge=1, le=300, description="Idle keep-alive connections close after this.")
    max_header_bytes: int = Field(default=16_384, ge=1024, le=1_048_576,
                                  description="Largest request head (request line + headers) accepted, in bytes.")
    max_header_count: int = Field(default=64, ge=8, le=1000, description="Most header lines one request may carry.")
    request_head_timeout_s: float = Field(default=10.0, gt=0, le=300,
                                          description="A request head not complete by then is dropped; a body, 408.")
    provider_probe_timeout_s: float = Field(default=1.0, gt=0, le=30,
                                            description="/ready's TCP probe of ANTHROPIC_BASE_URL (cached 10 s).")

    @field_validator("database_url", "qdrant_url", "anthropic_api_key", "anthropic_base_url", mode="before")
    @classmethod
    def _empty_is_none(cls, v: object) -> object:
        return None if isinstance(v, str) and not v.strip() else v

    @model_validator(mode="after")
    def _keys_for_providers(self) -> Settings:
        needs_key = [
            name
            for name, uses in (
                ("ANSWER_PROVIDER=anthropic", self.answer_provider == "anthropic"),
                (f"UNDERSTANDING_PROVIDER={self.understanding_provider}", self.understanding_provider != "rules"),
                ("VERIFIER=anthropic", self.verifier == "anthropic"),
            )
            if uses
        ]
        if needs_key and not self.anthropic_api_key:
            raise ValueError(
                f"{', '.join(needs_key)} needs ANTHROPIC_API_KEY; set it, or use the offline providers "
                "(ANSWER_PROVIDER=extractive UNDERSTANDING_PROVIDER=rules VERIFIER=lexical)"
            )
        return self

    @property
    def api_key_set(self) -> frozenset[str]:
        return frozenset(k.strip() for k in self.api_keys.split(",") if k.strip())

    @property
    def turn_threads(self) -> int:
        """WORKER_THREADS, else a default sized for the work and the store (measured: bench/RESULTS.md).

        A turn that calls Claude spends seconds waiting on the network, GIL released: many threads keep many
        conversations in flight (20 concurrent turns against a 0.5 s provider finish in ~1.2 turns' time).
        Offline turns are CPU only: on SQLite, whose one writer serialises commits, 32 threads left the slowest
        turns seconds behind (p99 2.7–4.5 s at 50 concurrent conversations) against 0.7–1.3 s with 4; on
        PostgreSQL, once a turn's round trips were cut to the statements themselves (no ping per statement), 16 per
        worker process left the slowest turns queued behind the GIL (2 workers, 50 conversations, one quiet run side by side:
        p99 416 ms at 16 threads vs 201–239 ms at 4 and 194–226 ms at 2; 234 vs 331–349 turns/s), so 4.
        """
        if self.worker_threads is not None:
            return self.worker_threads
        if "anthropic" in (self.answer_provider, self.verifier) or self.understanding_provider != "rules":
            return PROVIDER_TURN_THREADS
        backend = (self.database_url or "sqlite").split(":", 1)[0].split("+", 1)[0]
        return SQLITE_TURN_THREADS if backend == "sqlite" else SERVER_DB_TURN_THREADS

    @property
    def sqlalchemy_url(self) -> str:
        return self.database_url or f"sqlite:///{(self.data_dir / 'formulary.db').as_posix()}"


def load_settings(**overrides: object) -> Settings:
    """Read and validate settings; raise ConfigurationError naming every bad variable."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']).upper() or 'settings'}: {e['msg']}" for e in exc.errors()
        )
        raise ConfigurationError(f"invalid configuration: {problems}") from None
