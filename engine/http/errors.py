"""HTTP errors: one JSON shape for every failure, and the mapping from the project's own errors.

Every error body is `{"error": <code>, "message": <what to do about it>, "status": <http status>}`, so a
front-end developer can act on it without reading server logs. No traceback ever reaches a client.
"""

from __future__ import annotations

import logging

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from core.errors import (
    AnswerGenerationUnavailable,
    ConfigurationError,
    ConversationNotFound,
    EngineError,
    IndexUnavailable,
    InvalidInput,
    StoreConflict,
    StoreUnavailable,
)

log = logging.getLogger("formulary_fsm.http")


class ApiError(Exception):
    """A request the API refuses, with the status, a stable code and a message saying what to fix."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


def error_response(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": code, "message": message, "status": status}, status_code=status, headers=headers)


# Most specific first: the first matching class decides.
_ENGINE_ERRORS: tuple[tuple[type[EngineError], int, str, str], ...] = (
    (StoreConflict, 409, "conversation_conflict",
     "another turn on this conversation was committed first and nothing of this turn was saved: resend it"),
    (ConversationNotFound, 404, "conversation_not_found",
     "it does not exist or belongs to another API key; omit conversation_id to start a new conversation"),
    (InvalidInput, 422, "invalid_input", ""),
    (StoreUnavailable, 503, "store_unavailable", "the conversation store cannot serve right now; retry later"),
    (IndexUnavailable, 503, "index_unavailable", "the formulary index cannot serve right now; retry later"),
    (AnswerGenerationUnavailable, 503, "provider_unavailable", "the answer provider cannot serve right now"),
    (ConfigurationError, 503, "configuration_error", "the server is misconfigured"),
)


def engine_error_response(exc: EngineError) -> JSONResponse:
    for kind, status, code, message in _ENGINE_ERRORS:
        if isinstance(exc, kind):
            detail = "; ".join(part for part in (str(exc), message) if part)
            return error_response(status, code, detail)
    return error_response(503, "engine_error", f"the engine could not serve this turn: {exc}")


_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


async def on_api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.code, exc.message, exc.headers)


async def on_http_exception(request: Request, exc: Exception) -> Response:
    """Starlette's own 404/405 (unknown path, wrong method) as JSON instead of plain text."""
    assert isinstance(exc, HTTPException)
    code = _HTTP_CODES.get(exc.status_code, "http_error")
    if exc.status_code == 405:
        allowed = (exc.headers or {}).get("Allow", "")
        message = f"{request.method} is not allowed on {request.url.path}; allowed: {allowed}"
    elif exc.status_code == 404:
        message = f"no endpoint at {request.url.path}; see /openapi.json"
    else:
        message = str(exc.detail)
    return error_response(exc.status_code, code, message, dict(exc.headers or {}))


async def on_engine_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, EngineError)
    return engine_error_response(exc)


async def on_client_disconnect(request: Request, exc: Exception) -> Response:
    # The client went away mid-request (closed the tab, timed out): routine, one line, no traceback. The
    # response is never delivered; 499 is the conventional "client closed request" code for access logs.
    log.warning("client disconnected during %s %s", request.method, request.url.path)
    return Response(status_code=499)


async def on_unexpected(request: Request, exc: Exception) -> Response:
    # A bug, not a client's fault: log it with the traceback, answer with JSON and no internals.
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return error_response(500, "internal_error", "unexpected server error; it has been logged")


EXCEPTION_HANDLERS = {
    ClientDisconnect: on_client_disconnect,
    ApiError: on_api_error,
    HTTPException: on_http_exception,
    EngineError: on_engine_error,
    Exception: on_unexpected,
}
