"""uvicorn's h11 protocol with the two bounds it lacks: a deadline on the request head, and a connection cap
that drops the slowest clients first.

uvicorn times out idle keep-alive connections but never a request whose head is still arriving: a client
sending one header byte every few seconds holds its connection (and a file descriptor) forever, and 21,000
of them exhausted the open-file limit. Here:
- a request head (request line + headers) must be complete `request_head_timeout_s` after the connection
  opens (or after a keep-alive connection starts its next request); otherwise the connection is closed,
  logged as one line;
- at `max_connections` open connections, a new connection evicts the oldest one whose head is still
  incomplete (a stalled client), so normal requests keep being served during a slow-connection flood; if
  none is stalled, the new connection is closed at once.
The head's size is bounded by h11 itself (`h11_max_incomplete_event_size`, set from MAX_HEADER_BYTES).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("formulary_fsm.http")


@functools.cache
def _limits() -> tuple[float, int]:
    # Read once per worker process (workers are spawned, so settings come from the environment).
    from engine.config import load_settings

    settings = load_settings()
    return settings.request_head_timeout_s, settings.max_connections


_stalled: dict[BoundedH11Protocol, None] = {}
"""Connections whose current request head is incomplete, oldest first (one event loop per process)."""


class BoundedH11Protocol(H11Protocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_timeout_s, self.max_connections = _limits()
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) >= self.max_connections:
            victim = next(iter(_stalled), None)
            if victim is None:
                log.warning("connection refused: %d connections open (MAX_CONNECTIONS)", len(self.connections))
                transport.close()
                return
            log.warning("connection cap reached: closing the oldest stalled connection from %s", _peer(victim))
            victim._drop()
        self._await_head()

    def data_received(self, data: bytes) -> None:
        if self._head_timer is None and self.conn.their_state is h11.IDLE:
            self._await_head()  # a keep-alive connection starts its next request
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._head_done()

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_done()
        super().connection_lost(exc)

    def _await_head(self) -> None:
        self._head_timer = self.loop.call_later(self.head_timeout_s, self._head_timed_out)
        _stalled[self] = None

    def _head_done(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        _stalled.pop(self, None)

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE:
            log.warning("closed a connection from %s: no complete request head within %.0f s", _peer(self),
                     self.head_timeout_s)
            self._drop()

    def _drop(self) -> None:
        self._head_done()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()


def _peer(protocol: H11Protocol) -> str:
    client = protocol.client
    return f"{client[0]}:{client[1]}" if client else "unknown"
