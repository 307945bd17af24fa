"""The Idempotency-Key of the turn being run, handed from the HTTP entry to the store's commit.

`POST /v1/rag/query` runs a turn through `Engine.handle`, which commits it through the store; the key must
be written in that same transaction (so a retry that arrives while the first attempt is still running
either finds it or conflicts), yet the engine has no parameter for it. A context variable carries it
across: set around one `handle` call on the worker thread, read by `commit_turn`, never leaking to the
next turn (it is reset when the call returns).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_KEY: ContextVar[str | None] = ContextVar("formulary_idempotency_key", default=None)


def current_key() -> str | None:
    """The key of the turn this thread is committing, or None."""
    return _KEY.get()


@contextmanager
def turn_key(key: str | None) -> Iterator[None]:
    token = _KEY.set(key)
    try:
        yield
    finally:
        _KEY.reset(token)
