"""One example conversation per routing row, as the user would see it, taken from the golden transcripts.

The transcripts (fixtures/transcripts/*.jsonl) are run through the machine with the offline providers over
the synthetic fixture formulary (in memory: the reviewer's DATA_DIR may hold another corpus). For each row
of the routing table the example is the shortest conversation whose turn took that row, preferring one whose
transcript expects the row's reason, so the page shows what a patient or pharmacist actually reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.config import Settings
from engine.replay import Transcript, load_transcripts
from engine.reply import Reply
from engine.spec import MachineSpec
from engine.store import MemoryStore

REPO = Path(__file__).resolve().parents[2]
TRANSCRIPTS = REPO / "fixtures" / "transcripts"
OFFLINE = {"answer_provider": "extractive", "understanding_provider": "rules", "verifier": "lexical"}


@dataclass(frozen=True)
class Example:
    transcript_id: str
    turns: tuple[tuple[str, Reply], ...]
    """(what the user typed, the reply) up to and including the turn that took the row."""


def _fixture_index() -> object:
    from retrieval.chunking import chunk_monograph
    from retrieval.ingest import FIXTURE_FORMULARY, load_corpus
    from retrieval.memory_index import MemoryIndex
    from retrieval.monograph_names import names_of

    monographs, _ = load_corpus([FIXTURE_FORMULARY])
    return MemoryIndex([c for m in monographs for c in chunk_monograph(m)], [names_of(m) for m in monographs],
                       synthetic=any(m.synthetic for m in monographs))


def routing_index(spec: MachineSpec, reply: Reply) -> int | None:
    """The routing transition this turn took. Two transitions can share a row and a destination (8a, 8b both
    ask), so the one whose guards the trace recorded as true in `routing` is it."""
    step = next((t for t in reply.trace.transitions if t.source == "routing" and t.row), None)
    if step is None:
        return None
    true_guards = {g.guard for g in reply.trace.guards if g.state == "routing" and g.result}
    candidates = [i for i, t in enumerate(spec.transitions)
                  if t.source == "routing" and t.row == step.row and t.dest == step.dest]
    return next((i for i in candidates if set(spec.transitions[i].guards) <= true_guards), None)


def collect_examples(spec: MachineSpec, settings: Settings,
                     transcripts: list[Transcript] | None = None) -> dict[int, Example]:
    """Transition index (a routing row) → its example. Rows no transcript reaches have none."""
    from engine.wiring import build_engine

    offline = settings.model_copy(update=OFFLINE)
    runtime = build_engine(offline, index=_fixture_index(), store=MemoryStore(), spec=spec)  # type: ignore[arg-type]
    engine = runtime.engine
    best: dict[int, tuple[tuple[int, int, int], Example]] = {}
    for order, transcript in enumerate(transcripts if transcripts is not None else load_transcripts([TRANSCRIPTS])):
        conversation_id: str | None = None
        seen: list[tuple[str, Reply]] = []
        for n, turn in enumerate(transcript.turns):
            reply = engine.handle(turn.user, conversation_id)
            conversation_id = reply.conversation_id
            seen.append((turn.user, reply))
            index = routing_index(spec, reply)
            if index is None:
                continue
            decided = spec.transitions[index].reason
            # A row that decides a reason: a transcript expecting it; a path row (7, 15, 16): an answer.
            fits = (turn.expect.reason == decided) if decided else reply.outcome == "answerable"
            score = (0 if fits else 1, n, order)
            if index not in best or score < best[index][0]:
                best[index] = (score, Example(transcript.id, tuple(seen)))
    return {i: example for i, (_, example) in best.items()}
