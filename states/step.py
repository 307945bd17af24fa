"""What a work state's step is: a function of what it reads, returning what it writes.

A step (`states/<state>.py`) takes a read-only view of the turn (`TurnView`) and the turn's `Services`, does the
state's work (which may call a model or the index), and returns an `Update`: the context fields it writes, plus
trace lines. The runner applies the update, refusing any field the state did not declare in the spec
(`StateSpec.writes`), then fires the state's trigger so the guards decide where the turn goes. A step never
fires a trigger and never persists anything: deciding and persisting stay with the machine and the runner.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

from pydantic import BaseModel

from core.budget import RequestBudget
from core.corpus import Chunk
from core.errors import AnswerGenerationUnavailable, ProviderOutputInvalid, RequestBudgetExhausted
from grounding.answer import Answer, EntailmentResult, GroundingResult
from grounding.generator import AnswerGenerator, EntailmentVerifier
from retrieval.names import NameBook
from retrieval.resolver import DrugResolver
from retrieval.service import RetrievalService
from states.frame import Pending, QueryFrame
from states.understander import Understander


@dataclass(frozen=True)
class Failure:
    """A provider or work failure in the current state, read by the next transition's guards."""

    kind: str  # "budget" | "provider" | "output" | "index"
    site: str
    message: str


class ProviderOutput(BaseModel):
    """What a provider returned at one call site, recorded in the trace so a stored turn replays exactly."""

    site: str  # "understand" | "generate" | "repair" | "entail"
    output: dict[str, Any]


@dataclass(frozen=True)
class Services:
    """The turn's collaborators, the same for every step of every turn of one engine."""

    understander: Understander
    resolver: DrugResolver
    retrieval: RetrievalService
    generator: AnswerGenerator
    verifier: EntailmentVerifier
    retrieval_only: bool = False
    """ANSWER_PROVIDER=disabled: single-turn, evidence quoted verbatim (the reference system's legacy mode)."""
    synthetic_corpus: bool = False

    @property
    def names(self) -> NameBook:
        return self.retrieval.names


class TurnView(Protocol):
    """What a step may read of the turn context (read-only; the runner owns every write)."""

    @property
    def state(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def budget(self) -> RequestBudget: ...
    @property
    def prior_frame(self) -> QueryFrame | None: ...
    @property
    def pending(self) -> Pending | None: ...
    @property
    def history(self) -> list[str]: ...
    @property
    def memory_loaded(self) -> bool: ...
    @property
    def frame(self) -> QueryFrame: ...
    @property
    def query(self) -> str: ...
    @property
    def path(self) -> str | None: ...
    @property
    def evidence(self) -> list[Chunk]: ...
    @property
    def routes_found(self) -> list[str]: ...
    @property
    def indications_found(self) -> list[str]: ...
    @property
    def candidates(self) -> list[str]: ...
    @property
    def safety_evidence(self) -> list[Chunk]: ...
    @property
    def answer(self) -> Answer | None: ...
    @property
    def grounding(self) -> GroundingResult | None: ...
    @property
    def entailment(self) -> EntailmentResult | None: ...
    @property
    def repairs(self) -> int: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def reply_text(self) -> str: ...


@dataclass(frozen=True)
class Update:
    """What a step writes: context field → value (each declared in the state's `writes`), and trace lines."""

    values: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    notes: tuple[str, ...] = ()
    """Trace notes, appended in order."""
    outputs: tuple[ProviderOutput, ...] = ()
    """Provider outputs, appended to the trace in order (replayed by `engine.stored_replay`)."""


def update(*, notes: Sequence[str] = (), outputs: Sequence[ProviderOutput] = (), **values: object) -> Update:
    return Update(MappingProxyType(values), tuple(notes), tuple(outputs))


Step = Callable[[TurnView, Services], Update]


def provider_call(site: str, fn: Callable[[], None]) -> Failure | None:
    """Run provider-calling work; its failure is returned for the next transition's guards (fail closed).

    The LLM calls the work made are copied from the budget into the trace by the runner, after the step.
    """
    try:
        fn()
    except RequestBudgetExhausted as exc:
        return Failure("budget", site, str(exc))
    except ProviderOutputInvalid as exc:
        return Failure("output", site, str(exc))
    except AnswerGenerationUnavailable as exc:
        return Failure("provider", site, str(exc))
    return None
