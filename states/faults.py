"""A fault-injecting wrapper around any Understander, shipped for tests of the engine's fail paths.

    u = FaultyUnderstander(RulesUnderstander(names))
    u.fail("timeout")              # ProviderUnavailable until heal()
    u.fail("malformed", times=1)   # the next call raises ProviderOutputInvalid

Kinds: timeout, error, malformed (see grounding.faults). With `counts_as_llm=True` each call reserves and
records one LLM call, like the Claude understander, so the budget guards can be exercised offline.
"""

from __future__ import annotations

from core.budget import RequestBudget
from grounding.faults import PROVIDER_KINDS, ProviderFault, account
from states.understander import Understander, Understanding, UnderstandingRequest


class FaultyUnderstander:
    def __init__(self, inner: Understander, *, counts_as_llm: bool = False) -> None:
        self.inner = inner
        self.name = inner.name
        self.counts_as_llm = counts_as_llm
        self.fault = ProviderFault("understand", PROVIDER_KINDS)

    def fail(self, kind: str, times: int | None = None) -> None:
        self.fault.fail(kind, times)

    def heal(self) -> None:
        self.fault.heal()

    def understand(self, request: UnderstandingRequest, budget: RequestBudget) -> Understanding:
        kind = self.fault.take()
        if self.counts_as_llm:
            account(budget, "understand", ok=kind is None, error=kind)
        if kind is not None:
            self.fault.raise_for(kind)
        return self.inner.understand(request, budget)
