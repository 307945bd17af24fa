"""Query synthesis. TODO(issue 3): replaced by the understanding work."""

from __future__ import annotations

from states.frame import QueryFrame


def synthesize_query(frame: QueryFrame, text: str) -> str:
    return text
