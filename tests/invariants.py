"""The DESIGN.md safety invariants, checked after every turn — shared by the properties, the stateful test
and the soak run.

    checker = InvariantChecker(spec, chunks=ChunkBook.from_index(index))
    conversation = checker.conversation()
    reply = engine.handle(text, cid)
    problems = conversation.after_turn(text, reply)     # [] when every invariant holds

A failing conversation can be written as a transcript (`save_failing_transcript`) so the example hypothesis
found and shrank becomes a candidate golden transcript (docs/replay.md says how to promote it).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.corpus import Chunk
from engine.reply import Reply
from engine.spec import MachineSpec
from grounding.answer import Answer
from grounding.calculator import Calculation
from grounding.derivation_check import check_calculation
from grounding.verify import verify_grounding
from retrieval.index import FormularyIndex
from states.replies import NO_MEMORY_NOTICE, QUARANTINED_QUOTE
from states.scope import looks_non_human
from states.streak import ALL_SLOTS, answered_something

NOT_SAFE = "KHÔNG có nghĩa là an toàn"
PENDING_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts" / "pending"


class ChunkBook:
    """Every chunk of the index by doc id: the invariant checks re-read the blocks an answer cites."""

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        self.by_id = {c.doc_id: c for c in chunks}

    @classmethod
    def from_index(cls, index: FormularyIndex) -> ChunkBook:
        return cls([c for names in index.drug_names() for c in index.find_by_drug(names.drug_id)])

    def get(self, doc_ids: Sequence[str]) -> list[Chunk]:
        return [self.by_id[d] for d in doc_ids if d in self.by_id]


def final_answer(reply: Reply) -> Answer | None:
    """The answer the reply was composed from: the last generate or repair output recorded in the trace."""
    outputs = [o for o in reply.trace.provider_outputs if o.site in ("generate", "repair")]
    return Answer.model_validate(outputs[-1].output) if outputs else None


@dataclass
class InvariantChecker:
    spec: MachineSpec
    chunks: ChunkBook
    max_consecutive_clarify: int = 4
    """What DESIGN.md demands — deliberately NOT read from the engine, so a loosened engine limit is caught."""
    max_llm_calls: int = 8

    def __post_init__(self) -> None:
        self.edges = {(t.source, t.dest) for t in self.spec.transitions}
        self.resting = set(self.spec.resting_states)

    def conversation(self) -> ConversationCheck:
        return ConversationCheck(self)

    # --------------------------------------------------------------------------------- per-turn checks

    def turn_problems(self, text: str, reply: Reply, streak_before: int, llm_limit: int | None = None) -> list[str]:
        frame: dict[str, Any] = reply.frame or {}
        problems: list[str] = []
        smalltalk = reply.reason == "smalltalk"
        answered = reply.outcome == "answerable" and not smalltalk

        # No dosing answer without a known population; no paediatric one without both age and weight.
        dosing = frame.get("turn_type") == "dosing_calc" and bool(frame.get("drugs")) and not frame.get("section_overview")
        if answered and dosing:
            if frame.get("population") is None:
                problems.append("dosing answer without a known population")
            elif frame.get("population") == "pediatric" and (frame.get("age_months") is None
                                                                or frame.get("weight_kg") is None):
                problems.append(f"paediatric dosing answer without age and weight "
                                f"(age_months={frame.get('age_months')}, weight_kg={frame.get('weight_kg')})")

        # Never more than 4 consecutive clarifying replies (counted as the store counts them).
        if reply.outcome == "clarify" and reply.memory_loaded and streak_before + 1 > self.max_consecutive_clarify:
            problems.append(f"clarify number {streak_before + 1} in a row (limit {self.max_consecutive_clarify})")

        # Never more than 8 LLM calls per turn, nor more than the engine's own budget.
        calls = len(reply.trace.llm_calls)
        limit = min(self.max_llm_calls, llm_limit) if llm_limit is not None else self.max_llm_calls
        if calls > limit:
            problems.append(f"{calls} LLM calls in one turn (limit {limit})")

        # Every citation names retrieved evidence; every number is stated by a block it cites.
        evidence_ids = set(reply.trace.evidence)
        stray = [c.doc_id for c in reply.citations if c.doc_id not in evidence_ids]
        if stray:
            problems.append(f"citations not among the retrieved evidence: {stray}")
        if answered:
            problems += self._grounding_problems(reply)

        # Nothing is generated over quarantined content.
        evidence = self.chunks.get(reply.trace.evidence)
        if answered and any(c.has_quarantined_content for c in evidence):
            problems.append("answered although the evidence holds a quarantined block (must be verify_pdf)")
        if reply.outcome == "verify_pdf":
            if any(o.site == "generate" for o in reply.trace.provider_outputs):
                problems.append("generated an answer over quarantined content")
            by_id = {c.doc_id: c for c in evidence}
            for citation in reply.citations:
                chunk = by_id.get(citation.doc_id)
                if chunk is None:
                    continue  # reported above as a stray citation
                if chunk.has_quarantined_content and citation.quote != QUARANTINED_QUOTE:
                    problems.append("verify_pdf reply quotes the quarantined block's text")
                if not chunk.has_quarantined_content and any(
                        line not in chunk.text for line in citation.quote.splitlines()):
                    problems.append(f"verify_pdf quote of {chunk.doc_id} is not verbatim readable text")

        # An interaction with no evidence never reads as safe.
        if reply.reason == "no_interaction_evidence" and NOT_SAFE not in reply.reply:
            problems.append(f"no-evidence interaction reply lacks «{NOT_SAFE}»")

        # A non-human subject never gets a clarifying question.
        if reply.outcome == "clarify" and (frame.get("non_human") or looks_non_human(text)):
            problems.append("clarifying question for a non-human subject")

        # The states visited form a path of the declared machine, from rest to rest.
        states = reply.trace.states
        if not states or states[0] not in self.resting or states[-1] not in self.resting:
            problems.append(f"turn does not start and end in a resting state: {states}")
        bad = [(a, b) for a, b in zip(states, states[1:], strict=False) if (a, b) not in self.edges]
        if bad:
            problems.append(f"states visited are not a path of the machine: {bad}")
        if reply.state != (states[-1] if states else None):
            problems.append(f"reply.state {reply.state!r} is not the last state visited")

        # A turn that ran without memory says so.
        if not reply.memory_loaded and NO_MEMORY_NOTICE not in reply.reply:
            problems.append("turn ran without memory but the reply does not say so")
        return problems

    def _grounding_problems(self, reply: Reply) -> list[str]:
        answer = final_answer(reply)
        if answer is None:
            return ["answerable reply with no recorded answer in the trace"]
        evidence = self.chunks.get(reply.trace.evidence)
        result = verify_grounding(answer, evidence)
        problems = [f"ungrounded: {p}" for p in result.problems]
        # No computed amount reaches a user without a derivation that reproduces from the cited text and the
        # frame's weight (the calculator's amounts are added after generation, so they are checked here).
        weight = (reply.frame or {}).get("weight_kg")
        by_id = {c.doc_id: c for c in evidence}
        for shown in reply.calculation or []:
            calc = Calculation(drug_id=shown.drug_id, lines=shown.lines, derivation=shown.derivation)
            problems += [f"calculation: {p}" for p in check_calculation(calc, by_id, weight)]
            if any(line not in reply.reply for line in shown.lines):
                problems.append("calculation: a line shown in the reply's calculation block is not the verified one")
        return problems


@dataclass
class ConversationCheck:
    """One conversation's running state: the clarify streak as the store holds it, and the turns so far."""

    checker: InvariantChecker
    streak: int = 0
    raw: int = 0
    turns: list[str] = field(default_factory=list)
    replies: list[Reply] = field(default_factory=list)

    def after_turn(self, text: str, reply: Reply, llm_limit: int | None = None) -> list[str]:
        # Issue #18: a clarify to a turn that filled an empty slot is progress and does not count toward the
        # breaker (states/streak.py); smalltalk keeps the streak. Counted here independently of the engine (any
        # slot newly filled), and the raw run of clarifies is still bounded: the limit plus one per slot.
        previous = self.replies[-1] if self.replies else None
        progress = (reply.outcome == "clarify" and previous is not None and previous.outcome == "clarify"
                    and answered_something(previous.frame or {}, reply.frame or {}, ALL_SLOTS))
        streak_before = self.streak if reply.memory_loaded else 0
        problems = self.checker.turn_problems(text, reply, streak_before - 1 if progress else streak_before, llm_limit)
        if reply.outcome == "clarify" and reply.memory_loaded and self.raw + 1 > self.checker.max_consecutive_clarify + len(ALL_SLOTS):
            problems.append(f"clarify number {self.raw + 1} in a row, slots filled or not")
        if reply.persisted:
            # The streak the next turn reads: a turn that was not persisted leaves the stored one unchanged.
            smalltalk = reply.outcome == "answerable" and reply.reason == "smalltalk"
            self.streak = (self.streak if progress else self.streak + 1) if reply.outcome == "clarify" else (
                self.streak if smalltalk else 0)
            self.raw = self.raw + 1 if reply.outcome == "clarify" else (self.raw if smalltalk else 0)
        self.turns.append(text)
        self.replies.append(reply)
        return problems

    def forget(self) -> None:
        """A new conversation starts."""
        self.streak = 0
        self.raw = 0
        self.turns.clear()
        self.replies.clear()


def save_failing_transcript(turns: Sequence[str], replies: Sequence[Reply], problems: Sequence[str],
                            directory: Path | None = None) -> Path | None:
    """Write the failing conversation as a pending transcript; return its path (None when saving is off).

    Turns before the failing one carry what the engine did (outcome, reason) so the replay reproduces the
    path; the failing turn carries no expectation — promoting it means writing the one the invariant demands.
    Saving is on when FORMULARY_SAVE_FAILURES is unset or 1; `directory` overrides the pending folder.
    """
    if directory is None:
        if os.environ.get("FORMULARY_SAVE_FAILURES", "1") != "1":
            return None
        directory = PENDING_DIR
    body = []
    for i, text in enumerate(turns):
        expect: dict[str, Any] = {}
        if i < len(turns) - 1 and i < len(replies):
            expect = {"outcome": replies[i].outcome, "reason": replies[i].reason}
        body.append({"user": text, "expect": expect})
    digest = hashlib.sha1(json.dumps(body, ensure_ascii=False).encode()).hexdigest()[:12]
    comment = {"_comment": "SYNTHETIC TEST DATA for formulary-fsm. Found by hypothesis; the LAST turn broke: "
               + " | ".join(problems) + ". Write its expectation, fix the engine, then move this line to "
               "fixtures/transcripts/ (see docs/replay.md)."}
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{digest}.jsonl"
    path.write_text(json.dumps(comment, ensure_ascii=False) + "\n"
                    + json.dumps({"id": f"found-{digest}", "turns": body}, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    return path
