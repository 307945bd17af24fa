"""`formulary-fsm serve [--host 127.0.0.1] [--port 8000] [--workers N]`: the HTTP chat backend on uvicorn.

Before any worker starts, this process prepares what the workers share: it builds the embedded index from
the fixture on first use and migrates the database, so N workers never race to build either. Each worker
then calls the `engine.http.app:create_app` factory and opens its own read-only copy of the index.
"""

from __future__ import annotations

import argparse
from typing import Any

from engine.config import Settings, load_settings
from engine.http.listen import bind_for_workers, reuse_port_supported

APP_FACTORY = "engine.http.app:create_app"
PROTOCOL = "engine.http.protocol:BoundedH11Protocol"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: loopback only)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])


def prepare(settings: Settings) -> None:
    """Build the index if it is missing and migrate the store, once, before any worker starts."""
    from engine.fingerprint import spec_fingerprint
    from engine.signoff import require_signed
    from engine.wiring import open_index, open_store, spec_from

    open_index(settings, progress=True).close()
    store = open_store(settings)
    try:
        if settings.require_signoff:  # refused here, before any worker starts, with the command that signs it
            require_signed(store, spec_fingerprint(spec_from(settings)))
    finally:
        store.close()


def run(args: argparse.Namespace) -> int:
    import uvicorn

    if args.workers < 1:
        raise SystemExit("formulary-fsm serve: --workers must be at least 1")
    settings = load_settings()
    prepare(settings)
    print(f"formulary-fsm: serving on http://{args.host}:{args.port} ({args.workers} worker(s), "
          f"data in {settings.data_dir})", flush=True)
    options: dict[str, Any] = dict(
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        # Turns in flight get the whole per-turn budget to finish before a graceful shutdown gives up.
        timeout_graceful_shutdown=max(1, settings.max_wall_clock_ms // 1000 + 5),
        # Abuse bounds (issue #19): h11 with a deadline on the request head and a connection cap that evicts
        # stalled clients first (engine/http/protocol.py); the head's size bounded by the parser; idle
        # keep-alive connections closed. uvicorn's own limit_concurrency is not used: it counts stalled
        # connections too, so a slow-connection flood would turn into 503s for every normal request.
        http=PROTOCOL,
        h11_max_incomplete_event_size=settings.max_header_bytes,
        timeout_keep_alive=settings.keep_alive_timeout_s,
    )
    if args.workers == 1 or not reuse_port_supported():
        uvicorn.run(APP_FACTORY, **options)
        return 0
    # Several workers: each listens on its own SO_REUSEPORT socket, so connections spread over the workers
    # (engine/http/listen.py); uvicorn's supervisor still starts, watches and stops them.
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config(APP_FACTORY, **options)
    try:
        sock = bind_for_workers(args.host, args.port)
    except OSError as exc:
        raise SystemExit(f"formulary-fsm serve: cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    Multiprocess(config, sockets=[sock]).run()
    return 0
