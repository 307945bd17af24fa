"""The embedded chat backend: a Starlette app over the same Engine the CLI uses."""

from engine.http.app import create_app

__all__ = ["create_app"]
