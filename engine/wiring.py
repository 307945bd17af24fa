"""Build an Engine from Settings: index, store, understander, generator and verifier.

The embedded default is SQLite + Qdrant Edge + the offline providers (rules, extractive, lexical): no API key.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from core.errors import EngineError
from engine.config import Settings
from engine.reply import Reply
from engine.runner import Engine
from engine.spec import MachineSpec, build_spec
from engine.store.base import ConversationStore
from grounding.generator import AnswerGenerator, EntailmentVerifier
from retrieval.embedder import make_embedder
from retrieval.index import FormularyIndex
from retrieval.resolver import DrugResolver
from retrieval.service import RetrievalService
from states.understander import Understander

if TYPE_CHECKING:  # the anthropic SDK is imported only when a Claude mode is configured
    from grounding.anthropic_adapter import ClaudeClient


def spec_from(settings: Settings) -> MachineSpec:
    """The spec with the configured limits: the one object the guards, the budget and the fingerprint read."""
    return build_spec(settings.max_consecutive_clarify, settings.max_wall_clock_ms, settings.max_llm_calls_per_turn)


def open_index(settings: Settings, *, progress: bool = False) -> FormularyIndex:
    if settings.qdrant_url:
        from retrieval.qdrant_index import QdrantServerIndex

        return QdrantServerIndex.connect(settings.qdrant_url, settings.qdrant_collection)
    from retrieval.edge_index import EdgeIndex
    from retrieval.ingest import ensure_index

    shard = ensure_index(settings.data_dir, progress=progress, embedder=make_embedder(settings.embedder))
    # A shard is locked by the process that opens it: each serving process opens its own read-only copy.
    return EdgeIndex.open(shard, read_only=True)


def open_store(settings: Settings) -> ConversationStore:
    from engine.store.sql import SqlStore

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return SqlStore(settings.sqlalchemy_url)


def _claude_client(settings: Settings) -> ClaudeClient:
    from grounding.anthropic_adapter import ClaudeClient

    return ClaudeClient.from_settings(
        api_key=settings.anthropic_api_key or "",
        base_url=settings.anthropic_base_url,
        model=settings.anthropic_model,
        max_tokens=settings.anthropic_max_tokens,
        read_timeout_s=settings.anthropic_read_timeout_s,
        max_attempts=settings.anthropic_max_attempts,
    )


class SharedClaude:
    """One ClaudeClient (one connection pool) for every Claude-backed provider of a runtime, made on first use."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._client: ClaudeClient | None = None

    def __call__(self) -> ClaudeClient:
        if self._client is None:
            self._client = _claude_client(self._settings)
        return self._client


def make_understander(settings: Settings, retrieval: RetrievalService,
                      claude: SharedClaude | None = None) -> Understander:
    from states.rules_understander import RulesUnderstander

    rules = RulesUnderstander(retrieval.names)
    if settings.understanding_provider == "rules":
        return rules
    from states.claude_understander import ClaudeUnderstander

    model = ClaudeUnderstander((claude or SharedClaude(settings))())
    if settings.understanding_provider == "anthropic":
        return model
    from states.hybrid import HybridUnderstander

    return HybridUnderstander(rules, model, settings.hybrid_min_confidence)


def make_generator(settings: Settings, claude: SharedClaude | None = None) -> AnswerGenerator:
    if settings.answer_provider == "disabled":
        from grounding.verbatim import VerbatimGenerator

        return VerbatimGenerator()
    if settings.answer_provider == "anthropic":
        from grounding.claude_generator import ClaudeGenerator

        return ClaudeGenerator((claude or SharedClaude(settings))())
    from grounding.extractive import ExtractiveGenerator

    return ExtractiveGenerator()


def make_verifier(settings: Settings, claude: SharedClaude | None = None) -> EntailmentVerifier:
    if settings.verifier == "anthropic":
        from grounding.claude_verifier import ClaudeVerifier

        return ClaudeVerifier((claude or SharedClaude(settings))())
    from grounding.lexical import LexicalVerifier

    return LexicalVerifier()


INDEX_CHECK_INTERVAL_S = 1.0
"""How often a serving process looks for a swapped index: one small file read per second at most."""


@dataclass
class IndexWatch:
    """Notices that an ingest swapped the embedded index (the `current` pointer names another build)."""

    data_dir: Path
    serving: Path
    interval_s: float = INDEX_CHECK_INTERVAL_S
    checked_at: float = 0.0

    def swapped(self) -> Path | None:
        from retrieval.ingest import current_shard

        now = time.monotonic()
        if now - self.checked_at < self.interval_s:
            return None
        self.checked_at = now
        shard = current_shard(self.data_dir)
        return shard if shard is not None and shard != self.serving else None


@dataclass
class Runtime:
    settings: Settings
    engine: Engine
    index: FormularyIndex
    store: ConversationStore
    watch: IndexWatch | None = None
    """Set when this runtime opened the embedded index itself: it then follows ingests without a restart."""
    fixed_understander: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def index_version(self) -> str:
        path = getattr(self.index, "path", None)
        return path.name if isinstance(path, Path) else ""

    def handle(self, turn: str, conversation_id: str | None = None, owner: str | None = None) -> Reply:
        """One turn on the serving index: a swapped index is picked up first (checked at most once a second)."""
        self.refresh_index()
        return self.engine.handle(turn, conversation_id, owner)

    def refresh_index(self) -> bool:
        """Reopen the read-only copy when an ingest swapped the index; True when this call switched to it.

        Everything that reads the index's names (retrieval, resolver, rules understander) is rebuilt with it
        into a new Engine sharing the store and metrics. Turns in flight finish on the old Engine, whose index
        copy is released when the last of them drops it (never closed under a running turn)."""
        if self.watch is None or not self._lock.acquire(blocking=False):
            return False  # another thread is already switching; this turn runs on the current index
        try:
            shard = self.watch.swapped()
            if shard is None:
                return False
            from retrieval.edge_index import EdgeIndex

            try:
                index = EdgeIndex.open(shard, read_only=True)
                retrieval = RetrievalService(index, make_embedder(self.settings.embedder))
            except EngineError as exc:
                logging.getLogger(__name__).warning("index %s not switched to, still serving %s: %s",
                                                    shard.name, self.index_version, exc)
                return False
            understander = (self.engine.understander if self.fixed_understander
                            else make_understander(self.settings, retrieval))
            self.engine = dataclasses.replace(
                self.engine, retrieval=retrieval, resolver=DrugResolver(retrieval.names.entries()),
                understander=understander, synthetic_corpus=index.is_synthetic())
            self.index = index  # the old copy is released with the last turn holding the old Engine
            self.watch.serving = shard
            logging.getLogger(__name__).info("serving index %s", shard.name)
            return True
        finally:
            self._lock.release()

    def close(self) -> None:
        self.store.close()
        self.index.close()


def build_engine(
    settings: Settings,
    *,
    index: FormularyIndex | None = None,
    store: ConversationStore | None = None,
    understander: Understander | None = None,
    generator: AnswerGenerator | None = None,
    verifier: EntailmentVerifier | None = None,
    spec: MachineSpec | None = None,
    progress: bool = False,
) -> Runtime:
    watch = None
    if index is None:
        index = open_index(settings, progress=progress)
        path = getattr(index, "path", None)
        if isinstance(path, Path) and not settings.qdrant_url:
            watch = IndexWatch(settings.data_dir, path)
    store = store or open_store(settings)
    retrieval = RetrievalService(index, make_embedder(settings.embedder))
    claude = SharedClaude(settings)
    engine = Engine(
        spec=spec or spec_from(settings),
        understander=understander or make_understander(settings, retrieval, claude),
        resolver=DrugResolver(retrieval.names.entries()),
        retrieval=retrieval,
        generator=generator or make_generator(settings, claude),
        verifier=verifier or make_verifier(settings, claude),
        store=store,
        retrieval_only=settings.answer_provider == "disabled",
        synthetic_corpus=index.is_synthetic(),
    )
    return Runtime(settings=settings, engine=engine, index=index, store=store, watch=watch,
                   fixed_understander=understander is not None)
