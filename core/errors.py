"""The project's one exception hierarchy.

It lives in the lowest layer so every package can raise its own kinds without importing upward.
Vendor exceptions (SQLAlchemy, qdrant, anthropic, httpx) are translated into these inside the adapter
that sees them; nothing above an adapter ever catches a vendor type.

    EngineError
    ├── ConfigurationError            bad or missing settings, found at start-up
    ├── InvalidInput                  a caller sent something unusable (HTTP 4xx)
    ├── CorpusError                   a corpus file could not be read
    │   └── CorpusFormatError         one line/file is malformed (names file, line, problem)
    ├── IndexUnavailable              the formulary index cannot serve
    ├── AnswerGenerationUnavailable   any provider call that did not produce a usable result
    │   ├── ProviderUnavailable       timeout, connection, overloaded, 5xx
    │   ├── ProviderRequestRejected   4xx from the provider (bad key, bad request)
    │   ├── ProviderOutputInvalid     malformed or schema-violating output
    │   └── RequestBudgetExhausted    the per-turn wall clock or LLM-call budget ran out
    └── StoreError
        ├── StoreUnavailable          the conversation store cannot be read or written
        ├── StoreConflict             another turn committed first (optimistic concurrency)
        └── ConversationNotFound
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error this project raises on purpose."""


class ConfigurationError(EngineError):
    """Settings are missing or inconsistent; raised at start-up, never at the first user turn."""


class InvalidInput(EngineError):
    """A caller sent input the engine cannot use; the message says what to fix."""


class CorpusError(EngineError):
    """A corpus source could not be read at all."""


class CorpusFormatError(CorpusError):
    """One corpus line or file is malformed."""

    def __init__(self, path: str, line: int | None, problem: str) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {problem}")


class IndexUnavailable(EngineError):
    """The formulary index cannot serve (missing, locked, corrupt, or the server is down)."""


class AnswerGenerationUnavailable(EngineError):
    """A provider call did not produce a usable result. Every fail-closed path handles this one type."""

    call_site: str | None = None


class ProviderUnavailable(AnswerGenerationUnavailable):
    """Timeout, connection failure, overload (429/529) or a 5xx from the provider."""


class ProviderRequestRejected(AnswerGenerationUnavailable):
    """The provider rejected the request (4xx other than overload): a configuration or request bug."""


class ProviderOutputInvalid(AnswerGenerationUnavailable):
    """The provider answered, but the output is malformed or violates the schema."""


class RequestBudgetExhausted(AnswerGenerationUnavailable):
    """The turn's wall-clock or LLM-call budget is spent; raised *before* a call, never after."""


class StoreError(EngineError):
    """Base for conversation-store failures."""


class StoreUnavailable(StoreError):
    """The store could not be read or written."""


class StoreConflict(StoreError):
    """Another turn on the same conversation committed first; the client should resend its turn."""


class ConversationNotFound(StoreError):
    """No conversation with that id (or not visible to this owner)."""
