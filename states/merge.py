"""Frame merge with the prior frame. TODO(issue 3): replaced by the understanding work."""

from __future__ import annotations

from states.frame import Pending, QueryFrame


def merge_frames(new: QueryFrame, prior: QueryFrame | None, pending: Pending | None, text: str) -> QueryFrame:
    if prior is None or new.drugs:
        return new
    keep = {k: v for k, v in new.model_dump().items() if v not in (None, [], False)}
    return prior.model_copy(update={k: v for k, v in keep.items() if k not in ("turn_type", "drugs", "section_key")})
