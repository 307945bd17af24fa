"""One listening socket per worker process (SO_REUSEPORT), so the kernel spreads connections over the workers.

With `--workers N` uvicorn binds one socket in the supervisor and every worker accepts from it. A burst of
new connections wakes one worker's event loop, which accepts until the queue is empty: measured at 50
keep-alive conversations opened together on 2 workers, one worker got 37 of them and the other 13 (that run
did not wait for both workers to be listening; with per-worker sockets and the wait, 25 / 25), and
because keep-alive connections stay with the worker that accepted them, the busy worker set the latency
of the whole run (p99 0.7–1.1 s) while the other idled.

Here the supervisor binds the port with SO_REUSEPORT but never listens on it (it reserves the port and fails
fast when it is taken), and each worker, as it starts, binds its own SO_REUSEPORT socket to the same
address: the kernel then hashes each new connection to one of the listening sockets, so each worker gets
its share. A worker that uvicorn restarts binds a fresh socket the same way. The socket reaches the worker
through uvicorn's own spawn (it pickles the sockets it hands to each worker); pickling `PerWorkerSocket`
sends its address instead of the descriptor.

A worker listens only once its app has started (uvicorn runs the lifespan first), so connections opened
while a worker is still starting all go to the workers already listening, and keep-alive keeps them there.
"""

from __future__ import annotations

import socket
from typing import Any


def reuse_port_supported() -> bool:
    return hasattr(socket, "SO_REUSEPORT")


def listen_in_worker(family: int, address: Any) -> socket.socket:
    """In a worker: its own socket on the supervisor's address (uvicorn calls listen() on it)."""
    sock = socket.socket(family=family, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


class PerWorkerSocket(socket.socket):
    """The supervisor's bound, never listening, socket; each worker that unpickles it gets its own socket."""

    def __reduce__(self) -> tuple[Any, tuple[int, Any]]:
        return listen_in_worker, (int(self.family), self.getsockname())


def bind_for_workers(host: str, port: int) -> PerWorkerSocket:
    """The supervisor's socket for `host:port` (IPv4, or IPv6 when the host has a colon).

    A port already in use, by any server (another `formulary-fsm serve --workers N` included), is refused
    with EADDRINUSE instead of being shared with it: a plain bind, without SO_REUSEPORT, is tried first."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    if port:
        with socket.socket(family=family, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    sock = PerWorkerSocket(family=family, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock
