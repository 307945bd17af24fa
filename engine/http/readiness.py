"""`/ready`: can this process actually serve a turn? Store, index and configured providers, each named."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from core.errors import EngineError
from engine.wiring import Runtime

RETRIEVAL_ONLY_NOTICE = (
    "ANSWER_PROVIDER=disabled: this deployment answers retrieval-only — evidence is quoted verbatim, "
    "single-turn, with no generated answer"
)


class Readiness(BaseModel):
    ready: bool
    checks: dict[str, str] = Field(default_factory=dict)
    failing: list[str] = Field(default_factory=list)
    mode: str = "generative"
    message: str = ""
    index_version: str = ""
    """The build this process serves (ingest prints the version it swapped in); empty for a Qdrant server."""


def _probe(provider: Any) -> str | None:
    """A provider may expose `ready()`/`ping()`; offline providers need none. Never calls an LLM here."""
    for attr in ("ready", "ping"):
        probe = getattr(provider, attr, None)
        if callable(probe):
            try:
                ok = probe()
            except EngineError as exc:
                return str(exc) or type(exc).__name__
            if ok is False:
                return "not ready"
            return None
    return None


PROBE_CACHE_S = 10.0


def _reachability(provider: Any, timeout_s: float) -> str | None:
    """A provider behind a network client (Claude, or hybrid's Claude) must reach its URL."""
    for holder in (provider, getattr(provider, "claude", None), getattr(provider, "inner", None)):
        client = getattr(holder, "client", None)
        reachable = getattr(client, "reachable", None)
        if callable(reachable):
            problem = reachable(timeout_s, PROBE_CACHE_S)
            return problem if isinstance(problem, str) else None
    return None


def check(runtime: Runtime) -> Readiness:
    runtime.refresh_index()  # a probe after an ingest reports the new version, not the one it replaced
    checks: dict[str, str] = {}
    failing: list[str] = []
    try:
        runtime.store.ping()
        checks["store"] = "ok"
    except EngineError as exc:
        checks["store"] = f"unavailable: {exc}"
        failing.append("store")
    try:
        count = runtime.index.count()
        if count > 0:
            version = f", version {runtime.index_version}" if runtime.index_version else ""
            checks["index"] = f"ok ({count} chunks{version})"
        else:
            checks["index"] = "empty: run `formulary-fsm ingest`"
            failing.append("index")
    except EngineError as exc:
        checks["index"] = f"unavailable: {exc}"
        failing.append("index")
    engine = runtime.engine
    problems = []
    for role, provider in (("understanding", engine.understander), ("answer", engine.generator),
                           ("verifier", engine.verifier)):
        name = getattr(provider, "name", type(provider).__name__)
        problem = _probe(provider) or _reachability(provider, runtime.settings.provider_probe_timeout_s)
        problems += [f"{role} provider {name}: {problem}"] if problem else []
        checks[f"provider.{role}"] = f"{name}: {problem}" if problem else f"{name}: ok"
    if problems:
        failing.append("providers")
    mode = "retrieval_only" if engine.retrieval_only else "generative"
    if failing:
        parts = [f"{part} {checks[part]}" for part in failing if part in checks] + problems
        message = "not ready: " + "; ".join(parts)
    else:
        message = RETRIEVAL_ONLY_NOTICE if engine.retrieval_only else "ready"
    return Readiness(ready=not failing, checks=checks, failing=failing, mode=mode, message=message,
                     index_version=runtime.index_version)
