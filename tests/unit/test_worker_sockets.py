"""engine.http.listen: with several workers each listens on its own SO_REUSEPORT socket, so the kernel spreads
a burst of new connections over them (one shared socket let the first worker to wake accept most of them)."""

from __future__ import annotations

import pickle
import select
import socket

import pytest

from engine.http.listen import bind_for_workers, reuse_port_supported

pytestmark = pytest.mark.skipif(not reuse_port_supported(), reason="SO_REUSEPORT is Linux/BSD only")


def _accept_all(listener: socket.socket, within_s: float = 1.0) -> list[socket.socket]:
    listener.setblocking(False)
    accepted: list[socket.socket] = []
    while select.select([listener], [], [], within_s)[0]:
        try:
            accepted.append(listener.accept()[0])
        except BlockingIOError:
            break
        within_s = 0.2
    return accepted


def test_each_worker_gets_its_own_listening_socket_and_a_share_of_a_burst_of_connections() -> None:
    supervisor = bind_for_workers("127.0.0.1", 0)
    port = supervisor.getsockname()[1]
    # What uvicorn's spawn does with the socket it hands each worker: pickle it into the new process.
    workers = [pickle.loads(pickle.dumps(supervisor)) for _ in range(2)]
    clients: list[socket.socket] = []
    accepted: list[list[socket.socket]] = []
    try:
        for w in workers:
            assert w.fileno() != supervisor.fileno() and w.getsockname() == ("127.0.0.1", port)
            w.listen(128)
        clients = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(40)]
        accepted = [_accept_all(w) for w in workers]
        shares = [len(a) for a in accepted]
        assert sum(shares) == 40  # every connection reaches a worker; none waits on the supervisor's socket
        # Hashed by the kernel: about half each (binomial; below 8 of 40 happens about once in 10^5 runs).
        assert min(shares) >= 8, shares
    finally:
        for s in [*clients, *(c for a in accepted for c in a), *workers, supervisor]:
            s.close()


def test_a_port_in_use_is_refused_not_shared() -> None:
    first = bind_for_workers("127.0.0.1", 0)
    port = first.getsockname()[1]
    worker = pickle.loads(pickle.dumps(first))
    worker.listen(8)
    try:
        with pytest.raises(OSError):
            bind_for_workers("127.0.0.1", port).close()  # a second `serve --workers 2` on the same port
        plain = socket.socket()
        try:
            with pytest.raises(OSError):
                plain.bind(("127.0.0.1", port))  # so does any other server
        finally:
            plain.close()
    finally:
        worker.close()
        first.close()
