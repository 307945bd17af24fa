"""Request-head bounds the HTTP parser does not enforce: the number of header lines.

The head's size is bounded by the parser (MAX_HEADER_BYTES); the count is checked here, before routing,
so a request with thousands of tiny headers costs one JSON 431 and nothing else.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Receive, Scope, Send


class HeaderCountLimit:
    def __init__(self, app: ASGIApp, max_headers: int) -> None:
        self.app = app
        self.max_headers = max_headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or len(scope.get("headers", ())) <= self.max_headers:
            await self.app(scope, receive, send)
            return
        status = 431
        body = json.dumps({
            "error": "too_many_headers", "status": status,
            "message": f"the request has {len(scope['headers'])} header lines; the limit is {self.max_headers}",
        }).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
