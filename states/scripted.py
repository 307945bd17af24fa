"""A scripted understander shipped for tests and for replaying recorded provider outputs.

It returns the frames it is given, in order (or computed by a function of the request), so the machine can
be driven exactly — e.g. to re-run a stored conversation with the frames its understander produced then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from core.budget import RequestBudget
from core.errors import AnswerGenerationUnavailable, ProviderOutputInvalid
from states.frame import QueryFrame
from states.understander import Understanding, UnderstandingRequest

Script = Callable[[UnderstandingRequest], QueryFrame | Exception]


class ScriptedUnderstander:
    name = "scripted"

    def __init__(self, frames: Iterable[QueryFrame | Exception] | Script = (), *, calls_llm: bool = False) -> None:
        self._fn: Script | None = frames if callable(frames) else None
        self._queue: list[QueryFrame | Exception] = [] if callable(frames) else list(frames)
        self.calls_llm = calls_llm
        self.requests: list[UnderstandingRequest] = []

    def push(self, *frames: QueryFrame | Exception) -> None:
        self._queue.extend(frames)

    def understand(self, request: UnderstandingRequest, budget: RequestBudget) -> Understanding:
        self.requests.append(request)
        if self.calls_llm:
            budget.require("understand")
        if self._fn is not None:
            item = self._fn(request)
        elif self._queue:
            item = self._queue.pop(0)
        else:
            raise ProviderOutputInvalid("scripted understander has no frame left for this turn")
        if isinstance(item, AnswerGenerationUnavailable | Exception):
            raise item
        frame = item.model_copy(update={"understood_by": self.name})
        return Understanding(frame=frame, provider_output=frame.model_dump() if self.calls_llm else None)
