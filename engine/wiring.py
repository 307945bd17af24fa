"""Build an Engine from Settings: index, store, understander, generator and verifier.

The embedded default is SQLite + Qdrant Edge + the offline providers (rules, extractive, lexical): no API key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.config import Settings
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


@dataclass
class Runtime:
    settings: Settings
    engine: Engine
    index: FormularyIndex
    store: ConversationStore

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
    index = index or open_index(settings, progress=progress)
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
    return Runtime(settings=settings, engine=engine, index=index, store=store)
