"""Optional API keys. Each conversation is owned by the key that created it; another key sees a 404."""

from __future__ import annotations

import hashlib
import hmac

from starlette.requests import Request

from engine.http.errors import ApiError


def presented_key(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    key = request.headers.get("x-api-key", "").strip()
    return key or None


def owner_of_key(key: str) -> str:
    # The store keeps a digest, never the key itself: a database dump does not leak credentials.
    return "key:" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def authenticate(request: Request, keys: frozenset[str]) -> str | None:
    """The owner for this request (None when keys are off); ApiError 401 when a key is needed or wrong."""
    if not keys:
        return None
    key = presented_key(request)
    if key is None:
        raise ApiError(401, "unauthorized", "send an API key: Authorization: Bearer <key> or X-API-Key: <key>",
                       {"WWW-Authenticate": "Bearer"})
    # Compare against every key in constant time so timing does not reveal which prefix matched.
    matched = False
    for candidate in keys:
        matched |= hmac.compare_digest(candidate.encode("utf-8"), key.encode("utf-8"))
    if not matched:
        raise ApiError(401, "unauthorized", "the API key is not valid", {"WWW-Authenticate": "Bearer"})
    return owner_of_key(key)
