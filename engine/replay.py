"""Transcripts: the replay format (DESIGN.md, "Transcript format"), its loader, and the expectation check.

A transcript file is JSON Lines, one conversation per line:

    {"id": "ped-dose", "turns": [{"user": "Liều paracetamol cho trẻ em?",
                                  "expect": {"outcome": "clarify", "reason": "missing_pediatric_age_or_weight"}}]}

Lines whose only key is `_comment` (the SYNTHETIC TEST DATA banner) and blank lines are skipped. Unknown keys
are rejected with the file and line, because a misspelt expectation ("outcom") would otherwise pass silently.
Each conversation runs through a fresh engine; a turn passes when every expectation it states holds.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.errors import InvalidInput
from engine.reply import Outcome, Reply
from engine.runner import Engine

EXPECT_KEYS = ("outcome", "reason", "reply_contains", "reply_not_contains", "cites", "state", "max_llm_calls")


class TranscriptFormatError(InvalidInput):
    """A transcript line is malformed; the message names the file, the line and the problem."""

    def __init__(self, path: str, line: int, problem: str) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        super().__init__(f"{path}:{line}: {problem}")


class Expect(BaseModel):
    """What must hold after one turn. Every key is optional; an empty expect only requires the turn to run."""

    model_config = ConfigDict(extra="forbid")

    outcome: Outcome | None = None
    reason: str | None = None
    reply_contains: list[str] = Field(default_factory=list)
    reply_not_contains: list[str] = Field(default_factory=list)
    cites: list[str] = Field(default_factory=list)
    """Doc-id prefixes; each must match at least one citation of the reply."""
    state: str | None = None
    """The resting state after the turn (ready | awaiting_answer)."""
    max_llm_calls: int | None = Field(default=None, ge=0)


class TranscriptTurn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user: str = Field(min_length=1)
    expect: Expect = Field(default_factory=Expect)


class Transcript(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    turns: list[TranscriptTurn] = Field(min_length=1)
    source: str = Field(default="", exclude=True)
    """Where it was read from (file:line), for failure lines; not part of the format."""


# ------------------------------------------------------------------------------------------- loading


def _describe(exc: ValidationError) -> str:
    problems = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"])
        if err["type"] == "extra_forbidden":
            key = err["loc"][-1]
            allowed = ", ".join(EXPECT_KEYS) if "expect" in [str(p) for p in err["loc"]] else "id, turns (user, expect)"
            problems.append(f"unknown key {key!r} at {where} (allowed: {allowed})")
        else:
            problems.append(f"{where or 'conversation'}: {err['msg']}")
    return "; ".join(problems)


def parse_transcripts(lines: Iterable[str], path: str) -> list[Transcript]:
    transcripts: list[Transcript] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise TranscriptFormatError(path, number, f"not JSON: {exc.msg} (column {exc.colno})") from None
        if isinstance(data, dict) and set(data) == {"_comment"}:
            continue
        if not isinstance(data, dict):
            raise TranscriptFormatError(path, number, "a conversation must be a JSON object with id and turns")
        try:
            transcript = Transcript.model_validate(data)
        except ValidationError as exc:
            raise TranscriptFormatError(path, number, _describe(exc)) from None
        if transcript.id in seen:
            raise TranscriptFormatError(path, number, f"duplicate conversation id {transcript.id!r} "
                                                      f"(first on line {seen[transcript.id]})")
        seen[transcript.id] = number
        transcripts.append(transcript.model_copy(update={"source": f"{path}:{number}"}))
    return transcripts


def transcript_files(paths: Sequence[str | Path]) -> list[Path]:
    """Files named, plus the *.jsonl files directly inside named directories (not sub-directories: `pending/`
    holds failing examples that are not part of the golden set)."""
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files += sorted(f for f in p.glob("*.jsonl") if f.is_file())
        elif p.is_file():
            files.append(p)
        else:
            raise InvalidInput(f"{p}: no such transcript file or directory")
    return files


def load_transcripts(paths: Sequence[str | Path]) -> list[Transcript]:
    transcripts: list[Transcript] = []
    ids: dict[str, str] = {}
    for f in transcript_files(paths):
        for t in parse_transcripts(f.read_text(encoding="utf-8").splitlines(), str(f)):
            if t.id in ids:
                line = int(t.source.rsplit(":", 1)[1])
                raise TranscriptFormatError(str(f), line, f"duplicate conversation id {t.id!r} (also {ids[t.id]})")
            ids[t.id] = t.source
            transcripts.append(t)
    return transcripts


# ------------------------------------------------------------------------------------------ checking


def llm_calls_of(reply: Reply) -> int:
    return len(reply.trace.llm_calls)


def check_expect(expect: Expect, reply: Reply) -> list[str]:
    """Every expectation that does not hold, as "key: expected …, got …"."""
    failures: list[str] = []
    if expect.outcome is not None and reply.outcome != expect.outcome:
        failures.append(f"outcome: expected {expect.outcome!r}, got {reply.outcome!r} (reason {reply.reason!r})")
    if expect.reason is not None and reply.reason != expect.reason:
        failures.append(f"reason: expected {expect.reason!r}, got {reply.reason!r}")
    for text in expect.reply_contains:
        if text not in reply.reply:
            failures.append(f"reply_contains: expected {text!r} in the reply, got {_short(reply.reply)!r}")
    for text in expect.reply_not_contains:
        if text in reply.reply:
            failures.append(f"reply_not_contains: expected no {text!r}, got {_short(reply.reply)!r}")
    cited = [c.doc_id for c in reply.citations]
    for prefix in expect.cites:
        if not any(d.startswith(prefix) for d in cited):
            failures.append(f"cites: expected a citation starting {prefix!r}, got {cited}")
    if expect.state is not None and reply.state != expect.state:
        failures.append(f"state: expected {expect.state!r}, got {reply.state!r}")
    if expect.max_llm_calls is not None and llm_calls_of(reply) > expect.max_llm_calls:
        failures.append(f"max_llm_calls: expected ≤ {expect.max_llm_calls}, got {llm_calls_of(reply)}")
    return failures


def _short(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class TurnResult(BaseModel):
    conversation: str
    turn: int
    """1-based index of the turn in its conversation."""
    user: str
    source: str = ""
    passed: bool
    failures: list[str] = Field(default_factory=list)
    outcome: str | None = None
    reason: str | None = None
    state: str | None = None
    llm_calls: int = 0
    cited: list[str] = Field(default_factory=list)
    reply: str = ""

    def line(self) -> str:
        where = f" ({self.source})" if self.source else ""
        return f"FAIL {self.conversation} turn {self.turn}{where} «{_short(self.user, 60)}»: " + "; ".join(self.failures)


EngineFactory = Callable[[], AbstractContextManager[Engine]]
"""A fresh engine per conversation (its own empty store), released when the conversation ends."""


def run_transcript(engine: Engine, transcript: Transcript) -> list[TurnResult]:
    results: list[TurnResult] = []
    conversation_id: str | None = None
    broken: str | None = None
    for n, turn in enumerate(transcript.turns, 1):
        base: dict[str, Any] = {"conversation": transcript.id, "turn": n, "user": turn.user,
                                "source": transcript.source}
        if broken is not None:
            results.append(TurnResult(**base, passed=False, failures=[f"not run: {broken}"]))
            continue
        try:
            reply = engine.handle(turn.user, conversation_id)
        except Exception as exc:  # a crash is a failing turn with the error named, not an aborted replay
            broken = f"turn {n} raised {type(exc).__name__}"
            results.append(TurnResult(**base, passed=False, failures=[f"engine raised {type(exc).__name__}: {exc}"]))
            continue
        conversation_id = reply.conversation_id
        failures = check_expect(turn.expect, reply)
        results.append(TurnResult(
            **base, passed=not failures, failures=failures, outcome=reply.outcome, reason=reply.reason,
            state=reply.state, llm_calls=llm_calls_of(reply), cited=[c.doc_id for c in reply.citations],
            reply=reply.reply,
        ))
    return results


def run_transcripts(transcripts: Iterable[Transcript], fresh_engine: EngineFactory) -> Iterator[TurnResult]:
    for transcript in transcripts:
        with fresh_engine() as engine:
            yield from run_transcript(engine, transcript)


class ReplaySummary(BaseModel):
    unit: str = "turns"
    passed: int = 0
    failed: int = 0
    conversations: int = 0
    failed_conversations: list[str] = Field(default_factory=list)
    results: list[TurnResult] = Field(default_factory=list)

    @classmethod
    def of(cls, results: Sequence[TurnResult]) -> ReplaySummary:
        failed_conv = list(dict.fromkeys(r.conversation for r in results if not r.passed))
        return cls(passed=sum(r.passed for r in results), failed=sum(not r.passed for r in results),
                   conversations=len({r.conversation for r in results}), failed_conversations=failed_conv,
                   results=list(results))

    def last_line(self) -> str:
        return f"{self.passed} passed, {self.failed} failed"
