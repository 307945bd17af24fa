"""The Idempotency-Key and claim token of the turn being run, handed from the turn's entry to the store.

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
_CLAIM: ContextVar[str | None] = ContextVar("formulary_claim_token", default=None)


def current_key() -> str | None:
    """The key of the turn this thread is committing, or None."""
    return _KEY.get()


def current_claim_token() -> str | None:
    """The token the entry claimed this turn's conversation version with (engine.turn_entry), or None.

    Whoever claims again for the same turn (e.g. the runner, before its first provider call) must use this
    token: a claim by the holder is idempotent, a claim with another token is refused."""
    return _CLAIM.get()


@contextmanager
def turn_key(key: str | None, claim_token: str | None = None) -> Iterator[None]:
    token = _KEY.set(key)
    claim = _CLAIM.set(claim_token)
    try:
        yield
    finally:
        _CLAIM.reset(claim)
        _KEY.reset(token)
