"""Reading and validating request bodies and path ids before anything reaches the engine.

Deciding what is acceptable is kept here, apart from the endpoints that act on it. Each refusal is an
ApiError whose message names the field and what to send instead.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import anyio
from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError
from starlette.requests import Request

from engine.http.errors import ApiError
from engine.turn_entry import MAX_IDEMPOTENCY_KEY_CHARS, valid_idempotency_key

MAX_BODY_BYTES = 64 * 1024
MAX_MESSAGE_CHARS = 2_000

# C0 controls except tab, newline and carriage return (a pasted CRLF is harmless), plus DEL.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


class QueryBody(BaseModel):
    """`POST /v1/rag/query`. Strict types: `"message": 5` is a mistake to report, not to coerce."""

    model_config = ConfigDict(extra="ignore")

    message: StrictStr
    conversation_id: StrictStr | None = Field(default=None)


BODY_TIMEOUT_S = 10.0
"""A body (at most 64 KiB) not received within this is refused: a client dripping its body must not hold a
connection forever (the request head has its own deadline, engine/http/protocol.py)."""


async def read_body(request: Request, limit: int = MAX_BODY_BYTES, timeout_s: float = BODY_TIMEOUT_S) -> bytes:
    """The raw body, refusing (413) as soon as it exceeds `limit` — never buffering more than that — and
    (408) when it has not all arrived within `timeout_s`."""
    too_large = ApiError(413, "payload_too_large", f"request body is over {limit // 1024} KiB; send one short turn")
    declared = request.headers.get("content-length")
    if declared is not None and declared.strip().isdigit() and int(declared) > limit:
        raise too_large
    received = bytearray()
    with anyio.move_on_after(timeout_s) as scope:
        async for chunk in request.stream():
            received += chunk
            if len(received) > limit:
                raise too_large
    if scope.cancelled_caught:
        raise ApiError(408, "request_timeout", f"the request body did not arrive within {timeout_s:.0f} s; "
                                               "send it in one go", {"Connection": "close"})
    return bytes(received)


def require_json_content_type(request: Request) -> None:
    # Requiring application/json also makes a cross-site form post a CORS-preflighted request.
    content_type = request.headers.get("content-type", "")
    media, _, params = content_type.partition(";")
    if media.strip().lower() != "application/json":
        raise ApiError(415, "unsupported_media_type",
                       f"send the body as JSON with Content-Type: application/json (got {content_type or 'none'!r})")
    charset = params.strip().lower()
    if charset.startswith("charset=") and charset.removeprefix("charset=").strip('"') not in ("utf-8", "utf8"):
        raise ApiError(415, "unsupported_media_type", "the JSON body must be UTF-8")


def parse_json(raw: bytes) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError(400, "invalid_utf8", f"the body is not valid UTF-8 (byte {exc.start}); encode it as UTF-8") from None
    if not text.strip():
        raise ApiError(400, "invalid_json", 'the body is empty; send {"message": "...", "conversation_id": null}')
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        where = f" at line {exc.lineno} column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise ApiError(400, "invalid_json", f"the body is not valid JSON{where}") from None
    except ValueError:
        # Python refuses to convert an integer of more than 4,300 digits (CVE-2020-10735 guard): that is
        # the client's body, not a server fault.
        raise ApiError(400, "invalid_json", "the body holds a number too long to read; send the fields "
                                            '{"message": "...", "conversation_id": null} only') from None


def _type_problem(errors: list[Any]) -> str:
    problems = []
    for e in errors:
        field = ".".join(str(p) for p in e["loc"]) or "body"
        if e["type"] == "missing":
            problems.append(f"{field} is required")
        elif field == "conversation_id":
            problems.append("conversation_id must be a string or null")
        else:
            problems.append(f"{field} must be a string")
    return "; ".join(problems)


def check_text(value: str, field: str) -> None:
    if _SURROGATE.search(value):
        raise ApiError(400, "invalid_utf8", f"{field} contains an unpaired surrogate escape; send valid Unicode text")
    bad = _CONTROL.search(value)
    if bad:
        raise ApiError(400, "control_characters",
                       f"{field} contains the control character U+{ord(bad.group()):04X}; only text, tabs and newlines")


def parse_query(raw: bytes) -> tuple[str, str | None]:
    """(message, conversation id) from a query body, validated; raises ApiError."""
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise ApiError(422, "invalid_body", 'the body must be a JSON object: {"message": "...", "conversation_id": null}')
    try:
        body = QueryBody.model_validate(data)
    except ValidationError as exc:
        raise ApiError(422, "invalid_body", _type_problem(exc.errors())) from None
    check_text(body.message, "message")
    message = body.message.strip()
    if not message:
        raise ApiError(422, "empty_message", "message is empty; type a question about a drug")
    if len(message) > MAX_MESSAGE_CHARS:
        raise ApiError(422, "message_too_long",
                       f"message has {len(message)} characters; the limit is {MAX_MESSAGE_CHARS} — ask one question per turn")
    conversation_id = None
    if body.conversation_id is not None:
        check_text(body.conversation_id, "conversation_id")
        conversation_id = parse_conversation_id(body.conversation_id)
    return message, conversation_id


def parse_conversation_id(value: str) -> str:
    """The canonical (lower-case, hyphenated) UUID; anything else is malformed (400)."""
    try:
        parsed = uuid.UUID(value)
    except (ValueError, AttributeError, TypeError):
        parsed = None
    if parsed is None or str(parsed) != value.strip().lower():
        shown = value if len(value) <= 60 else value[:57] + "..."
        raise ApiError(400, "malformed_conversation_id",
                       f"conversation id {shown!r} is not a UUID as returned by POST /v1/rag/query")
    return str(parsed)


IDEMPOTENCY_HEADER = "idempotency-key"


def parse_idempotency_key(request: Request) -> str | None:
    """The `Idempotency-Key` header (one per user turn; a UUID is the usual choice), validated; None if absent."""
    values = request.headers.getlist(IDEMPOTENCY_HEADER)
    if not values:
        return None
    if len(values) > 1:
        raise ApiError(400, "invalid_idempotency_key", "send one Idempotency-Key header, not several")
    key = values[0].strip()
    if not valid_idempotency_key(key):
        raise ApiError(400, "invalid_idempotency_key",
                       f"Idempotency-Key must be 1–{MAX_IDEMPOTENCY_KEY_CHARS} printable ASCII characters without "
                       "spaces; send a fresh UUID with each new turn")
    return key


DEFAULT_PAGE = 50
MAX_PAGE = 200
MAX_PAGE_WITH_TRACES = 20
"""Traces are ~7 KB a turn: a page of them stays under a few hundred KB."""


def parse_page(request: Request, *, with_trace: bool) -> tuple[int, int]:
    """(offset, limit) of `GET /v1/conversations/{id}?offset=&limit=`; ApiError 400 says what to send."""
    cap = MAX_PAGE_WITH_TRACES if with_trace else MAX_PAGE
    values: dict[str, int] = {}
    for name, default in (("offset", 0), ("limit", min(DEFAULT_PAGE, cap))):
        raw = request.query_params.get(name)
        if raw is None or raw == "":
            values[name] = default
            continue
        if not raw.isdigit() or len(raw) > 9:
            raise ApiError(400, f"invalid_{name}", f"{name} must be a whole number (got {raw[:20]!r})")
        values[name] = int(raw)
    if not 1 <= values["limit"] <= cap:
        detail = " with trace=1" if with_trace else ""
        raise ApiError(400, "invalid_limit", f"limit must be between 1 and {cap}{detail} (got {values['limit']})")
    return values["offset"], values["limit"]
