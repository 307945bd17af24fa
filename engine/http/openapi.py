"""The API's OpenAPI 3.1 description: paths and request shapes written by hand, the reply's shape generated from
the pydantic models the server serializes (so a new reply field can never be missing from the contract). It is the
contract the fuzz test checks, and the reply test validates real replies against it."""

from __future__ import annotations

from typing import Any

from pydantic.json_schema import models_json_schema

from engine.http.body import DEFAULT_PAGE, MAX_MESSAGE_CHARS, MAX_PAGE, MAX_PAGE_WITH_TRACES
from engine.reply import Reply
from engine.turn_entry import MAX_IDEMPOTENCY_KEY_CHARS

_ERROR = {"$ref": "#/components/schemas/Error"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict[str, Any]:
    texts = {
        400: "Malformed input (invalid JSON, invalid UTF-8, control characters, malformed conversation id, "
             "malformed Idempotency-Key, offset or limit)",
        401: "API key missing or invalid",
        404: "No such conversation for this key",
        409: "Another turn on this conversation is running or committed first (resend), or a turn with this "
             "Idempotency-Key is still running (resend it to get its reply)",
        431: "Too many request header lines",
        413: "Body over 64 KiB",
        415: "Body is not application/json",
        422: "Valid JSON with wrong fields (missing, wrong type, empty or over 2,000 characters), or an "
             "Idempotency-Key already used for another message or conversation",
        503: "Store, index or provider cannot serve",
    }
    return {str(s): _json(_ERROR, texts[s]) for s in statuses}


def _reply_schemas() -> dict[str, Any]:
    """`Reply` and the models it nests, as serialized (`model_dump(mode="json")`): every field is always present
    except `trace`, which the server adds only for `?trace=1`."""
    _, generated = models_json_schema([(Reply, "serialization")], ref_template="#/components/schemas/{model}")
    schemas: dict[str, Any] = generated["$defs"]
    reply = schemas["Reply"]
    reply["required"] = [name for name in reply["properties"] if name != "trace"]
    reply["properties"]["outcome"]["description"] = (
        "answerable: grounded answer; verify_pdf: check the cited PDF page; clarify: a question back; "
        "abstain: cannot answer (reason says why)")
    return schemas


_CONVERSATION_ID = {
    "name": "conversation_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "format": "uuid"},
}
_AUTH: list[dict[str, list[str]]] = [{}, {"bearer": []}, {"apiKey": []}]

OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "formulary-fsm",
        "version": "0.1.0",
        "description": "Grounded answers from the national drug formulary; every routing decision by a "
        "declarative state machine.",
    },
    "paths": {
        "/v1/rag/query": {
            "post": {
                "summary": "Send one user turn; get the machine's reply",
                "security": _AUTH,
                "parameters": [
                    {"name": "trace", "in": "query", "required": False,
                     "schema": {"type": "string", "enum": ["0", "1"]}},
                    {"name": "Idempotency-Key", "in": "header", "required": False,
                     "description": "One per user turn (a UUID). A retry with the same key returns the stored "
                                    "reply (header Idempotent-Replayed: true); nothing runs or is stored again.",
                     "schema": {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY_CHARS,
                                "pattern": "^[!-~]+$"}},
                ],
                "requestBody": {"required": True,
                                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Query"}}}},
                "responses": {"200": _json({"$ref": "#/components/schemas/Reply"}, "The reply"),
                              **_errors(400, 401, 404, 409, 413, 415, 422, 503)},
            }
        },
        "/v1/conversations/{conversation_id}": {
            "get": {
                "summary": "A stored conversation and one page of its turns, in order",
                "security": _AUTH,
                "parameters": [
                    _CONVERSATION_ID,
                    {"name": "offset", "in": "query", "required": False,
                     "description": "Turns to skip (default 0)", "schema": {"type": "integer", "minimum": 0}},
                    {"name": "limit", "in": "query", "required": False,
                     "description": f"Turns per page (default {DEFAULT_PAGE}; at most {MAX_PAGE}, "
                                    f"{MAX_PAGE_WITH_TRACES} with trace=1)",
                     "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE}},
                    {"name": "trace", "in": "query", "required": False,
                     "schema": {"type": "string", "enum": ["0", "1"]}},
                ],
                "responses": {"200": _json({"$ref": "#/components/schemas/Conversation"}, "The conversation"),
                              **_errors(400, 401, 404, 503)},
            },
            "delete": {
                "summary": "Delete a conversation and its turns",
                "security": _AUTH,
                "parameters": [_CONVERSATION_ID],
                "responses": {"200": _json({"type": "object"}, "Deleted"), **_errors(400, 401, 404, 503)},
            },
        },
        "/v1/machine": {
            "get": {"summary": "The machine spec as data, with its fingerprint",
                    "responses": {"200": _json({"type": "object", "required": ["fingerprint", "spec"]}, "Spec")}}
        },
        "/v1/machine/diagram": {
            "get": {
                "summary": "The machine as a Mermaid or SVG diagram",
                "parameters": [
                    {"name": "format", "in": "query", "required": False,
                     "schema": {"type": "string", "enum": ["mermaid", "svg"]}},
                    {"name": "lang", "in": "query", "required": False,
                     "schema": {"type": "string", "enum": ["vi", "en"]}},
                ],
                "responses": {
                    "200": {"description": "The diagram",
                            "content": {"text/plain": {"schema": {"type": "string"}},
                                        "image/svg+xml": {"schema": {"type": "string"}}}},
                    "400": _json(_ERROR, "Unknown format or language"),
                    "501": _json(_ERROR, "The diagram exporter is not installed"),
                    "503": _json(_ERROR, "The diagram renderer failed"),
                },
            }
        },
        "/health": {"get": {"summary": "The process is alive", "responses": {"200": _json({"type": "object"}, "Alive")}}},
        "/ready": {"get": {"summary": "Store, index and providers can serve",
                           "responses": {"200": _json({"type": "object"}, "Ready"),
                                         "503": _json({"type": "object"}, "Not ready; the failing part named")}}},
        "/metrics": {"get": {"summary": "Prometheus metrics",
                             "responses": {"200": {"description": "Prometheus text",
                                                   "content": {"text/plain": {"schema": {"type": "string"}}}}}}},
    },
    "components": {
        "securitySchemes": {
            "bearer": {"type": "http", "scheme": "bearer"},
            "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
        },
        "schemas": {
            **_reply_schemas(),
            "Query": {
                "type": "object",
                "required": ["message"],
                "properties": {
                    "message": {"type": "string", "minLength": 1, "maxLength": MAX_MESSAGE_CHARS},
                    "conversation_id": {"type": ["string", "null"], "format": "uuid"},
                },
            },
            "Conversation": {
                "type": "object",
                "required": ["conversation_id", "state", "frame", "turns"],
                "properties": {
                    "conversation_id": {"type": "string"},
                    "state": {"type": "string"},
                    "frame": {"type": ["object", "null"]},
                    "clarify_streak": {"type": "integer"},
                    "turn_count": {"type": "integer"},
                    "offset": {"type": "integer"},
                    "limit": {"type": "integer"},
                    "next_offset": {"type": ["integer", "null"], "description": "null on the last page"},
                    "turns": {"type": "array", "items": {"type": "object"}},
                },
            },
            "Error": {
                "type": "object",
                "required": ["error", "message", "status"],
                "properties": {"error": {"type": "string"}, "message": {"type": "string"},
                               "status": {"type": "integer"}},
            },
        },
    },
}
