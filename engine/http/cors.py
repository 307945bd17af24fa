"""CORS with the API's one error shape: a refused preflight answers JSON that says what was refused."""

from __future__ import annotations

import json

from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response


class JsonCORSMiddleware(CORSMiddleware):
    def preflight_response(self, request_headers: Headers) -> Response:
        response = super().preflight_response(request_headers)
        if response.status_code < 400:
            return response
        # Starlette answers "Disallowed CORS origin, method" as text/plain; keep its headers, explain in JSON.
        what = bytes(response.body).decode("utf-8", "replace").removeprefix("Disallowed CORS ").strip() or "request"
        message = (f"this cross-origin request is not allowed (refused: {what}); the allowed origins are set "
                   "by CORS_ORIGINS, and the allowed methods are GET, POST and DELETE")
        body = json.dumps({"error": "cors_rejected", "message": message, "status": response.status_code})
        headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-type")}
        return Response(body, status_code=response.status_code, headers=headers, media_type="application/json")
