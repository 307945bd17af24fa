"""A full offline turn (issues 11, 22): rules + Qdrant Edge + extractive + verification + SQLite commit.

`engine.wiring.build_engine(Settings(data_dir=tmp))`, the embedded default exactly as `formulary-fsm serve`
builds it (the index is built from the fixture formulary first, untimed). The turns are bench.mix's
conversations: the golden transcripts in order, and each labelled text as an opener followed by
reply-driven follow-ups (clarify answers, elliptical follow-ups), so most turns read their conversation,
prior frame and history from the store. Each `Engine.handle` call is one sample, commit included.
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from bench.engines import offline_settings
from bench.mix import FOLLOWS, converse, scripts
from bench.results import Distribution, GroupResult, at_most
from bench.timing import Deadline, now_ms

TITLE = "full offline turn on a multi-turn mix (rules + Qdrant Edge + extractive + verification + SQLite commit)"
MIN_TURNS = 600
MAX_TURNS = 3_000
TIME_BOX_S = 15.0
TARGET_P50_MS = 2.0
TARGET_P99_MS = 10.0


def _calculator_cost(engine: object, text: str, reply: object) -> float:
    """The calculating state's work for this turn, re-run alone: line selection (the guard) and the arithmetic."""
    from engine.reply import Reply
    from grounding.answer import Answer, Claim
    from grounding.calculator import compute, exact
    from states.calculating import _applicable, applicable, patient_of
    from states.frame import QueryFrame

    assert isinstance(reply, Reply) and reply.frame is not None
    frame = QueryFrame.model_validate(reply.frame)
    evidence = engine.retrieval.find_by_section(frame.drugs[0], frame.section_key or "")  # type: ignore[attr-defined]
    answer = Answer(claims=[Claim(text="-", citations=[evidence[0].doc_id])])
    if not applicable(frame, evidence, answer)[0]:
        return 0.0
    own = tuple(c for c in evidence if c.drug_id == frame.drugs[0])
    t0 = now_ms()
    # The selection itself, not its memo (`applicable` remembers it for the guard and the step of one turn).
    chosen, _ = _applicable.__wrapped__(own, patient_of(frame), frame.pregnant, frame.breastfeeding)
    for s in chosen:
        compute(s.rule, s.ceilings, exact(frame.weight_kg or 0), rule_line=s.span,
                frequency_certain=s.frequency_certain, frequency_shown=s.frequency_shown)
    return now_ms() - t0


def run() -> GroupResult:
    from engine.wiring import build_engine

    result = GroupResult(group="turn", title=TITLE)
    convs = scripts()
    with tempfile.TemporaryDirectory(prefix="bench-turn-") as tmp:
        runtime = build_engine(offline_settings(Path(tmp)))
        try:
            handle = runtime.engine.handle
            for i, (script, follows) in enumerate(convs[:20]):  # warm-up, untimed
                list(converse(handle, script, follows, i))
            samples: list[float] = []
            machine_ms: list[float] = []
            by_kind: dict[str, list[float]] = defaultdict(list)
            by_outcome: dict[str, list[float]] = defaultdict(list)
            outcomes: Counter[str] = Counter()
            calculated: list[float] = []
            calculator_ms: list[float] = []
            deadline = Deadline(TIME_BOX_S)
            cpu0 = time.process_time()
            i = 0
            while len(samples) < MAX_TURNS and (len(samples) < MIN_TURNS or not deadline.passed()):
                script, follows = convs[i % len(convs)]
                for turn in converse(handle, script, follows, i):
                    samples.append(turn.elapsed_ms)
                    machine_ms.append(turn.reply.trace.duration_ms)
                    by_kind[turn.kind].append(turn.elapsed_ms)
                    by_outcome[turn.reply.outcome].append(turn.elapsed_ms)
                    outcomes[turn.reply.outcome] += 1
                    if "calculating" in turn.reply.trace.states:
                        calculated.append(turn.elapsed_ms)
                        calculator_ms.append(_calculator_cost(runtime.engine, "", turn.reply))
                i += 1
            cpu_ms = (time.process_time() - cpu0) * 1000 / len(samples)
        finally:
            runtime.close()
    whole = Distribution.of(samples)
    result.figures["offline turn (Engine.handle), all turns of the mix"] = whole
    for kind, values in sorted(by_kind.items()):
        result.figures[f"  … {kind} turns"] = Distribution.of(values)
    for outcome, values in sorted(by_outcome.items()):
        result.figures[f"  … {outcome} turns"] = Distribution.of(values)
    if calculated:
        result.figures["  … turns through the dosing calculator (Engine.handle)"] = Distribution.of(calculated)
        result.figures["  the calculator's own work per such turn (line selection + arithmetic)"] = Distribution.of(
            calculator_ms)
    result.figures["  of which: store load + the machine run (trace.duration_ms)"] = Distribution.of(machine_ms)
    follow_ups = len(samples) - len(by_kind.get("first", []))
    # CPU per turn does not count waiting (fsync, other processes on the shared cores): read beside the wall p50.
    result.values["CPU per turn (process time), mean, ms"] = round(cpu_ms, 3)
    result.values["follow-up turns (read the store), share of the mix"] = f"{follow_ups / len(samples):.0%}"
    result.values.update({f"turns of kind {k}": len(v) for k, v in sorted(by_kind.items())})
    result.values.update({f"turns with outcome {k}": v for k, v in sorted(outcomes.items())})
    result.setup = {
        "engine": "engine.wiring.build_engine(Settings(data_dir=tmp)): SQLite (WAL) + Qdrant Edge (fixture "
                  "formulary) + rules understander + extractive generator + lexical verifier",
        "turns": f"bench.mix: golden transcripts in order + each labelled text with {FOLLOWS} reply-driven "
                 f"follow-ups (clarify answer or elliptical), cycled: {len(samples)} turns, "
                 f"{follow_ups / len(samples):.0%} of them follow-ups",
    }
    result.targets += [
        at_most(22, "full offline turn on the multi-turn mix, p50", whole.p50, TARGET_P50_MS, "ms", label="p50 "),
        at_most(22, "full offline turn on the multi-turn mix, p99", whole.p99, TARGET_P99_MS, "ms", label="p99 "),
    ]
    return result
