"""Fault-injecting wrappers around the generator and the entailment verifier, shipped for tests.

    gen = FaultyGenerator(ExtractiveGenerator())
    gen.fail("timeout")               # every call raises ProviderUnavailable until heal()
    gen.fail("malformed", times=1)    # only the next call raises ProviderOutputInvalid
    gen.fail("ungrounded")            # returns an answer whose number no evidence states (grounding must catch it)

Kinds shared by every provider wrapper (`ProviderFault`):
  timeout    ProviderUnavailable        — the call timed out (what the adapter raises after its retries)
  error      ProviderRequestRejected    — the provider answered with an error
  malformed  ProviderOutputInvalid      — the output did not validate
Generator-only kinds return a well-formed but wrong answer, which verification must refuse:
  ungrounded a claim states a dose no evidence block states
  uncited    a claim cites a block that was never retrieved
Verifier-only kinds: reject (a claim is not entailed), omission (a grounded omission, drives repair).

`counts_as_llm=True` makes the wrapped provider behave like a remote one for the budget: each call reserves
one LLM call (`budget.require`) and is recorded, so the per-turn limits can be exercised offline.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from core.budget import LlmCall, RequestBudget
from core.corpus import Chunk
from core.errors import (
    AnswerGenerationUnavailable,
    ProviderOutputInvalid,
    ProviderRequestRejected,
    ProviderUnavailable,
)
from grounding.answer import Answer, Claim, EntailmentResult, GenerationRequest
from grounding.generator import AnswerGenerator, EntailmentVerifier

ALWAYS = -1
PROVIDER_KINDS = ("timeout", "error", "malformed")
GENERATOR_KINDS = (*PROVIDER_KINDS, "ungrounded", "uncited")
VERIFIER_KINDS = (*PROVIDER_KINDS, "reject", "omission")


class ProviderFault:
    """A thread-safe switch: which fault the next calls get, and for how many calls."""

    def __init__(self, site: str, kinds: Sequence[str]) -> None:
        self.site = site
        self.kinds = tuple(kinds)
        self._lock = threading.Lock()
        self._kind: str | None = None
        self._remaining = 0
        self.injected = 0

    def fail(self, kind: str, times: int | None = None) -> None:
        if kind not in self.kinds:
            raise ValueError(f"{self.site}: unknown fault {kind!r} (one of {', '.join(self.kinds)})")
        with self._lock:
            self._kind = kind
            self._remaining = ALWAYS if times is None else max(times, 0)

    def heal(self) -> None:
        with self._lock:
            self._kind, self._remaining = None, 0

    def take(self) -> str | None:
        """The fault for this call (consuming one), or None."""
        with self._lock:
            if self._kind is None or self._remaining == 0:
                return None
            if self._remaining > 0:
                self._remaining -= 1
            self.injected += 1
            return self._kind

    def raise_for(self, kind: str) -> None:
        """Raise the provider error of a shared kind (no-op for the wrapper-specific kinds)."""
        error: AnswerGenerationUnavailable | None = {
            "timeout": ProviderUnavailable(f"injected fault: {self.site} timed out"),
            "error": ProviderRequestRejected(f"injected fault: {self.site} returned an error"),
            "malformed": ProviderOutputInvalid(f"injected fault: {self.site} output did not validate"),
        }.get(kind)
        if error is not None:
            error.call_site = self.site
            raise error


def account(budget: RequestBudget, site: str, ok: bool = True, error: str | None = None) -> None:
    """Reserve and record one LLM call, as a remote provider's adapter does."""
    started = time.perf_counter()
    budget.require(site)
    budget.record(LlmCall(call_site=site, duration_ms=(time.perf_counter() - started) * 1000, ok=ok, error=error))


def _ungrounded(answer: Answer, request: GenerationRequest) -> Answer:
    # 9 999 mg is a dose no fixture block states; numeric grounding must refuse it.
    cite = [c.doc_id for c in request.evidence if not c.has_quarantined_content][:1]
    return Answer(claims=[*answer.claims, Claim(text="Liều tối đa 9 999 mg/ngày.", citations=cite)],
                  generator=answer.generator)


def _uncited(answer: Answer, request: GenerationRequest) -> Answer:
    return Answer(claims=[*answer.claims, Claim(text="Dùng thận trọng.", citations=["invented__chi_dinh__0"])],
                  generator=answer.generator)


class FaultyGenerator:
    def __init__(self, inner: AnswerGenerator, *, counts_as_llm: bool = False) -> None:
        self.inner = inner
        self.name = f"faulty({inner.name})"
        self.calls_llm = inner.calls_llm or counts_as_llm
        self.counts_as_llm = counts_as_llm
        self.generate_fault = ProviderFault("generate", GENERATOR_KINDS)
        self.repair_fault = ProviderFault("repair", GENERATOR_KINDS)

    def fail(self, kind: str, times: int | None = None) -> None:
        """Fault both call sites (use generate_fault / repair_fault for one)."""
        self.generate_fault.fail(kind, times)
        self.repair_fault.fail(kind, times)

    def heal(self) -> None:
        self.generate_fault.heal()
        self.repair_fault.heal()

    def _run(self, fault: ProviderFault, budget: RequestBudget, request: GenerationRequest,
             call: Callable[[], Answer]) -> Answer:
        kind = fault.take()
        if self.counts_as_llm:
            account(budget, fault.site, ok=kind is None, error=kind)
        if kind is not None:
            fault.raise_for(kind)
        answer: Answer = call()
        if kind == "ungrounded":
            return _ungrounded(answer, request)
        if kind == "uncited":
            return _uncited(answer, request)
        return answer

    def generate(self, request: GenerationRequest, budget: RequestBudget) -> Answer:
        return self._run(self.generate_fault, budget, request, lambda: self.inner.generate(request, budget))

    def repair(self, request: GenerationRequest, answer: Answer, omissions: Sequence[str],
               budget: RequestBudget) -> Answer:
        return self._run(self.repair_fault, budget, request,
                         lambda: self.inner.repair(request, answer, omissions, budget))


class FaultyVerifier:
    def __init__(self, inner: EntailmentVerifier, *, counts_as_llm: bool = False) -> None:
        self.inner = inner
        self.name = f"faulty({inner.name})"
        self.calls_llm = inner.calls_llm or counts_as_llm
        self.counts_as_llm = counts_as_llm
        self.fault = ProviderFault("entail", VERIFIER_KINDS)

    def fail(self, kind: str, times: int | None = None) -> None:
        self.fault.fail(kind, times)

    def heal(self) -> None:
        self.fault.heal()

    def verify(self, answer: Answer, evidence: Sequence[Chunk], budget: RequestBudget) -> EntailmentResult:
        kind = self.fault.take()
        if self.counts_as_llm:
            account(budget, "entail", ok=kind is None, error=kind)
        if kind is not None:
            self.fault.raise_for(kind)
        if kind == "reject":
            return EntailmentResult(ok=False, rejected=[0], problems=["injected fault: claim 0 not entailed"])
        if kind == "omission":
            first = next((c.text for c in evidence if not c.has_quarantined_content), "")
            return EntailmentResult(ok=False, omissions=[first[:200]], problems=["injected fault: omission"])
        return self.inner.verify(answer, evidence, budget)
