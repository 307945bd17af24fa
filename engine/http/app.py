"""The Starlette app: `create_app(settings=None, runtime=None)`.

Engine.handle is synchronous and may wait seconds on a provider, so every turn runs in a bounded worker
pool (a CapacityLimiter of WORKER_THREADS; by default sized for the store, `Settings.turn_threads`) instead
of on the event loop: many conversations progress at
once, and the pool size caps how many turns a process holds in flight. Store reads for the conversation
endpoints go through the same pool.

With `runtime` the app serves that runtime as is (tests, benchmarks) and never closes it; without it the
lifespan builds one from settings (`engine.wiring.build_engine`) and closes it on shutdown.
"""

from __future__ import annotations

import functools
import json
import secrets
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal, TypeVar

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from core.errors import ConversationNotFound, EngineError, StoreConflict, StoreError
from engine.config import Settings, load_settings
from engine.fingerprint import canonical_spec
from engine.http import readiness
from engine.http.auth import authenticate
from engine.http.body import (
    parse_conversation_id,
    parse_idempotency_key,
    parse_page,
    parse_query,
    read_body,
    require_json_content_type,
)
from engine.http.cors import JsonCORSMiddleware
from engine.http.errors import EXCEPTION_HANDLERS, ApiError, error_response
from engine.http.limits import HeaderCountLimit
from engine.http.openapi import OPENAPI
from engine.signoff import require_signed, signoffs_of
from engine.spec import MachineSpec
from engine.store.base import TurnRecord
from engine.turn_entry import IdempotencyKeyReused, TurnResult, run_turn
from engine.wiring import Runtime, build_engine
from states.reason_labels import labels_document
from states.replies import SYNTHETIC_NOTICE

T = TypeVar("T")
Lang = Literal["vi", "en"]

_PAGE_CSP = (
    "default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)



def _run_turn(runtime: Runtime, message: str, conversation_id: str | None, owner: str | None,
              key: str | None, max_turns: int) -> TurnResult:
    runtime.refresh_index()  # a swapped index is picked up first (checked at most once a second)
    return run_turn(runtime.engine, message, conversation_id, owner, idempotency_key=key, max_turns=max_turns)


@dataclass
class Services:
    """What the endpoints share: settings, the runtime (once started) and the bounded turn pool."""

    settings: Settings
    runtime: Runtime | None = None
    limiter: anyio.CapacityLimiter | None = None
    in_flight: set[str] = field(default_factory=set)
    """Idempotency-Keys of turns running in this process (a retry while the first attempt runs gets 409)."""

    def require_runtime(self) -> Runtime:
        if self.runtime is None:
            raise ApiError(503, "not_started", "the engine is still starting; retry in a moment")
        return self.runtime

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self.limiter is None:  # created lazily, inside the running event loop
            self.limiter = anyio.CapacityLimiter(self.settings.turn_threads)
        return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs), limiter=self.limiter)


def _services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


def _wants_trace(request: Request) -> bool:
    return request.query_params.get("trace", "").lower() in ("1", "true", "yes")


# -------------------------------------------------------------------------------------------- turns


async def query(request: Request) -> Response:
    services = _services(request)
    owner = authenticate(request, services.settings.api_key_set)
    require_json_content_type(request)
    key = parse_idempotency_key(request)
    message, conversation_id = parse_query(await read_body(request, timeout_s=services.settings.request_head_timeout_s))
    runtime = services.require_runtime()
    if key is not None:
        if key in services.in_flight:
            raise ApiError(409, "idempotency_key_in_flight",
                           "a turn with this Idempotency-Key is still running; resend it in a moment to get its reply",
                           {"Retry-After": "1"})
        services.in_flight.add(key)  # only the event loop touches this set
    try:
        result = await services.run(_run_turn, runtime, message, conversation_id, owner, key,
                                    services.settings.max_turns_per_conversation)
    except StoreConflict:
        runtime.engine.metrics.store_conflicts += 1  # only the event loop writes this counter
        raise
    except IdempotencyKeyReused as exc:
        raise ApiError(422, "idempotency_key_reused", str(exc)) from None
    finally:
        if key is not None:
            services.in_flight.discard(key)
    # Encoded once, by pydantic-core, straight to the body's bytes (not to plain objects, then json.dumps).
    body = result.reply.model_dump_json(exclude=None if _wants_trace(request) else {"trace"})
    headers = {"Idempotent-Replayed": "true"} if result.replayed else None
    return Response(body, media_type="application/json", headers=headers)


def _turn_json(turn: TurnRecord, with_trace: bool) -> dict[str, Any]:
    body = turn.model_dump(mode="json", exclude=None if with_trace else {"trace"})
    body["trace_id"] = turn.trace.trace_id
    return body


async def conversation(request: Request) -> Response:
    services = _services(request)
    owner = authenticate(request, services.settings.api_key_set)
    conversation_id = parse_conversation_id(request.path_params["conversation_id"])
    store = services.require_runtime().store
    if request.method == "DELETE":
        if not await services.run(store.delete, conversation_id, owner):
            raise ConversationNotFound(f"no conversation {conversation_id}")
        return JSONResponse({"conversation_id": conversation_id, "deleted": True})

    with_trace = _wants_trace(request)
    offset, limit = parse_page(request, with_trace=with_trace)

    def read() -> dict[str, Any]:
        snapshot = store.load(conversation_id, owner)
        if snapshot is None:
            raise ConversationNotFound(f"no conversation {conversation_id}")
        # One bounded page: a 3,000-turn conversation is never read (or serialised) whole.
        turns = store.turns_page(conversation_id, offset, limit)
        end = offset + len(turns)
        return {
            "conversation_id": snapshot.id,
            "state": snapshot.state,
            "frame": snapshot.frame.model_dump(mode="json") if snapshot.frame is not None else None,
            "pending": snapshot.pending.model_dump(mode="json") if snapshot.pending is not None else None,
            "clarify_streak": snapshot.clarify_streak,
            "spec_fingerprint": snapshot.spec_fingerprint,
            "version": snapshot.version,
            "created_at": snapshot.created_at.isoformat() if snapshot.created_at else None,
            "updated_at": snapshot.updated_at.isoformat() if snapshot.updated_at else None,
            "turn_count": snapshot.turn_count,
            "offset": offset,
            "limit": limit,
            "next_offset": end if end < snapshot.turn_count else None,
            "turns": [_turn_json(t, with_trace) for t in turns],
        }

    return JSONResponse(await services.run(read))


# ------------------------------------------------------------------------------------------ machine


async def machine(request: Request) -> Response:
    """The spec as data. `spec` is the canonical form the fingerprint hashes, so a reviewer can re-hash it."""
    engine = _services(request).require_runtime().engine
    spec = engine.spec
    try:
        from engine.review.spec_json import spec_document

        document = spec_document(spec)
    except ImportError:  # the review exporter is optional; the canonical spec alone still identifies the machine
        document = {}
    services = _services(request)
    signed: list[dict[str, Any]] | None
    try:
        found = await services.run(signoffs_of, services.require_runtime().store, engine.fingerprint)
        signed = [s.model_dump(mode="json") for s in found]
    except StoreError:
        signed = None  # the spec is still served while the database is down; null says "unknown", not "none"
    return JSONResponse({**document, "fingerprint": engine.fingerprint, "spec": canonical_spec(spec),
                         "signoffs": signed})


def _render(fmt: str, spec: MachineSpec, lang: Lang) -> str:
    """The diagram from the review exporter (engine.review), imported here so the app runs without it."""
    if fmt == "mermaid":
        from engine.review.mermaid import render_mermaid

        return render_mermaid(spec, lang=lang)
    from engine.review.dot import render_svg

    return render_svg(spec, lang=lang)


async def diagram(request: Request) -> Response:
    services = _services(request)
    fmt = request.query_params.get("format", "mermaid")
    lang = request.query_params.get("lang", "vi")
    if fmt not in ("mermaid", "svg"):
        raise ApiError(400, "unknown_format", f"format must be mermaid or svg, not {fmt[:40]!r}")
    if lang != "vi" and lang != "en":
        raise ApiError(400, "unknown_language", f"lang must be vi or en, not {lang[:40]!r}")
    spec = services.require_runtime().engine.spec
    try:
        text = await services.run(_render, fmt, spec, lang)
    except ImportError as exc:
        return error_response(501, "diagram_unavailable",
                              f"the {fmt} exporter is not part of this build ({exc}); GET /v1/machine has the spec")
    except (EngineError, OSError) as exc:
        return error_response(503, "diagram_failed", f"the {fmt} diagram could not be rendered: {exc}")
    media = "image/svg+xml" if fmt == "svg" else "text/plain; charset=utf-8"
    return Response(text, media_type=media)


# ------------------------------------------------------------------------------------------ probes


async def health(request: Request) -> Response:
    return JSONResponse({"status": "alive"})


async def ready(request: Request) -> Response:
    services = _services(request)
    if services.runtime is None:
        return JSONResponse({"status": "not_ready", "ready": False, "failing": ["engine"],
                             "message": "not ready: the engine is still starting"}, status_code=503)
    result = await services.run(readiness.check, services.runtime)
    body = {"status": "ready" if result.ready else "not_ready", **result.model_dump()}
    return JSONResponse(body, status_code=200 if result.ready else 503)


def _provider_requests() -> str:
    """Every provider call the process sent (grounding.anthropic_adapter counts them as they are made)."""
    adapter = sys.modules.get("grounding.anthropic_adapter")  # loaded only when a provider is configured
    counts: dict[tuple[str, str], int] = adapter.call_counts() if adapter is not None else {}
    lines = ["# TYPE formulary_provider_requests_total counter"]
    lines += [f'formulary_provider_requests_total{{site="{site}",status="{status}"}} {n}'
              for (site, status), n in sorted(counts.items())]
    return "\n".join(lines) + "\n"


async def metrics(request: Request) -> Response:
    text = _services(request).require_runtime().engine.metrics.render() + _provider_requests()
    return PlainTextResponse(text, media_type="text/plain; version=0.0.4; charset=utf-8")


async def openapi(request: Request) -> Response:
    return JSONResponse(OPENAPI)


@functools.cache
def _chat_page() -> str:
    return resources.files("engine.http").joinpath("chat.html").read_text(encoding="utf-8")


def _page_config(services: Services) -> str:
    """What the chat page shows before any question: plain labels, and whether the index is synthetic test data.
    Embedded as JSON in a non-executed script element; "<" is escaped so no text can close the element."""
    engine = services.runtime.engine if services.runtime is not None else None
    config = {"synthetic": engine.synthetic_corpus if engine is not None else None,
              "synthetic_notice": SYNTHETIC_NOTICE, "labels": labels_document()}
    return json.dumps(config, ensure_ascii=False).replace("<", "\\u003c")


async def index(request: Request) -> Response:
    nonce = secrets.token_urlsafe(16)
    html = _chat_page().replace("{{nonce}}", nonce).replace("{{page_config}}", _page_config(_services(request)))
    return HTMLResponse(html, headers={
        "Content-Security-Policy": _PAGE_CSP.format(nonce=nonce),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
    })


# ------------------------------------------------------------------------------------------ the app

ROUTES = [
    Route("/", index, methods=["GET"]),
    Route("/v1/rag/query", query, methods=["POST"]),
    Route("/v1/conversations/{conversation_id}", conversation, methods=["GET", "DELETE"]),
    Route("/v1/machine", machine, methods=["GET"]),
    Route("/v1/machine/diagram", diagram, methods=["GET"]),
    Route("/health", health, methods=["GET"]),
    Route("/ready", ready, methods=["GET"]),
    Route("/metrics", metrics, methods=["GET"]),
    Route("/openapi.json", openapi, methods=["GET"]),
]


def _middleware(settings: Settings) -> list[Middleware]:
    bounded = [Middleware(HeaderCountLimit, max_headers=settings.max_header_count)]
    origins = [o.strip() for o in settings.cors_origins.split(",") if o.strip()]
    if not origins:
        return bounded  # CORS off by default: the chat page is same-origin
    return [*bounded, Middleware(JsonCORSMiddleware, allow_origins=origins, allow_methods=["GET", "POST", "DELETE"],
                       allow_headers=["Authorization", "X-API-Key", "Content-Type", "Idempotency-Key"], max_age=600)]


def create_app(settings: Settings | None = None, runtime: Runtime | None = None) -> Starlette:
    """The app. Settings come from `runtime`, then `settings`, then the environment (uvicorn's factory)."""
    settings = settings or (runtime.settings if runtime is not None else load_settings())
    services = Services(settings=settings, runtime=runtime)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        built: Runtime | None = None
        if services.runtime is None:
            built = await anyio.to_thread.run_sync(build_engine, settings)
            if settings.require_signoff:  # also when started as a bare uvicorn factory, not through `serve`
                try:
                    await anyio.to_thread.run_sync(require_signed, built.store, built.engine.fingerprint)
                except EngineError:
                    built.close()
                    raise
            services.runtime = built
        try:
            yield
        finally:
            if built is not None:
                services.runtime = None
                built.close()

    app = Starlette(
        routes=ROUTES,
        middleware=_middleware(settings),
        exception_handlers=EXCEPTION_HANDLERS,
        lifespan=lifespan,
    )
    app.state.services = services
    return app
