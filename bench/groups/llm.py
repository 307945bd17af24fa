"""LLM calls per turn and simulated wall clock (issue 7), against the reference pipeline.

Every golden transcript (fixtures/transcripts/*.jsonl) is replayed in `hybrid` understanding mode with the
Claude generator and the Claude verifier (ANSWER_PROVIDER=anthropic, VERIFIER=anthropic) over a scripted
Messages API (bench.scripted_claude: the real SDK through `FakeMessages`' MockTransport, no network). Each
turn's provider calls are read from its trace (call site by call site).

Two scripted models, each over the whole replay: the VERBATIM one quotes its cited sentences exactly (the
verifier may then skip entailment: every claim only restates its spans), the PARAPHRASING one rewords them
(numbers, units and negations kept), so entailment is paid as a real model would make it paid. Both cite what
a real model would: the lines the engine offered as this patient's for a dosing question, one statement per
candidate drug for a list (bench.scripted_claude); the share of turns whose outcome matches the golden
expectation is reported. The targets
are judged on the paraphrasing model; the verbatim one is shown beside it.

The reference pipeline makes 3 calls per answerable turn: understand (3.0 s), generate (2.5 s) and entail
(1.5 s), 7.0 s in all. The engine's simulated wall clock applies the same per-call latencies to the calls it
actually made (repair as generate, entail_retry as entail); nothing sleeps.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench.engines import offline_settings
from bench.fixture import transcripts
from bench.results import Distribution, GroupResult, at_most, compare
from bench.scripted_claude import RecordingRules, scripted_fake

TITLE = "LLM calls per turn and simulated wall clock, hybrid mode, vs the reference pipeline"
LATENCY_S = {"understand": 3.0, "generate": 2.5, "repair": 2.5, "entail": 1.5, "entail_retry": 1.5,
             "sufficiency": 1.5}
REFERENCE_CALLS = ("understand", "generate", "entail")
REFERENCE_S = sum(LATENCY_S[s] for s in REFERENCE_CALLS)
TARGET_MEAN_CALLS = 1.5
TARGET_WALL_FRACTION = 0.5


def _simulated_s(sites: list[str]) -> float:
    return sum(LATENCY_S.get(s, 2.5) for s in sites)


@dataclass
class Replay:
    """One scripted model's replay of every golden transcript."""

    answerable_calls: list[int] = field(default_factory=list)
    answerable_sites: Counter[str] = field(default_factory=Counter)
    all_calls: list[int] = field(default_factory=list)
    engine_s: float = 0.0
    outcomes: Counter[str] = field(default_factory=Counter)
    understood_by: Counter[str] = field(default_factory=Counter)
    agree: int = 0
    expected: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.answerable_calls)

    @property
    def mean_calls(self) -> float:
        return sum(self.answerable_calls) / self.n if self.n else 0.0

    @property
    def wall_fraction(self) -> float:
        return self.engine_s / (self.n * REFERENCE_S) if self.n else 0.0


def replay(golden: list[dict[str, object]], *, paraphrasing: bool) -> Replay:
    from engine.wiring import build_engine, open_index
    from grounding.anthropic_adapter import ClaudeClient
    from grounding.claude_generator import ClaudeGenerator
    from grounding.claude_verifier import ClaudeVerifier
    from retrieval.service import RetrievalService
    from states.claude_understander import ClaudeUnderstander
    from states.hybrid import HybridUnderstander
    from states.rules_understander import RulesUnderstander

    out = Replay()
    with tempfile.TemporaryDirectory(prefix="bench-llm-") as tmp:
        settings = offline_settings(Path(tmp))
        index = open_index(settings)
        rules = RecordingRules(RulesUnderstander(RetrievalService(index).names))
        fake = scripted_fake(rules, paraphrasing=paraphrasing)
        client = ClaudeClient.from_settings(api_key="bench-scripted", base_url="http://127.0.0.1:9",
                                            model=settings.anthropic_model, max_tokens=settings.anthropic_max_tokens,
                                            http_client=fake.http_client())
        understander = HybridUnderstander(rules, ClaudeUnderstander(client), settings.hybrid_min_confidence)
        runtime = build_engine(settings, index=index, understander=understander, generator=ClaudeGenerator(client),
                               verifier=ClaudeVerifier(client))
        try:
            for conv in golden:
                cid = None
                for turn in conv["turns"]:  # type: ignore[attr-defined]
                    reply = runtime.engine.handle(str(turn["user"]), cid)
                    cid = reply.conversation_id
                    sites = [c.call_site for c in reply.trace.llm_calls]
                    out.all_calls.append(len(sites))
                    out.outcomes[reply.outcome] += 1
                    out.understood_by[reply.trace.understood_by or "none"] += 1
                    want = (turn.get("expect") or {}).get("outcome")
                    if want:
                        out.expected += 1
                        out.agree += want == reply.outcome
                    if reply.outcome == "answerable" and reply.reason != "smalltalk":
                        out.answerable_calls.append(len(sites))
                        out.answerable_sites.update(sites)
                        out.engine_s += _simulated_s(sites)
        finally:
            runtime.close()
        out.errors = [str(e) for e in fake.errors[:3]]
    return out


def run() -> GroupResult:
    result = GroupResult(group="llm", title=TITLE)
    golden = transcripts()
    if not golden:
        result.status = "skipped"
        result.error = "no golden transcripts in fixtures/transcripts/"
        result.targets.append(at_most(7, "LLM calls per answerable turn (mean)", None, TARGET_MEAN_CALLS, ""))
        return result
    verbatim = replay(golden, paraphrasing=False)
    para = replay(golden, paraphrasing=True)
    for label, r in (("verbatim", verbatim), ("paraphrasing", para)):
        if r.errors:
            result.notes.append(f"{label} model: scripted provider problems: {r.errors}")
    result.setup = {
        "engine": "engine.wiring.build_engine with HybridUnderstander(rules, ClaudeUnderstander), ClaudeGenerator, "
                  "ClaudeVerifier over one ClaudeClient whose http_client is FakeMessages' MockTransport",
        "models": "bench.scripted_claude: verbatim (quotes its cited sentences) and paraphrasing (rewords them, "
                  "numbers and negations kept); the targets are judged on the paraphrasing model",
        "turns": f"{len(golden)} golden transcripts, {len(para.all_calls)} turns; answerable (smalltalk excluded): "
                 f"{para.n} paraphrasing, {verbatim.n} verbatim",
        "latencies": ", ".join(f"{k} {v:g} s" for k, v in LATENCY_S.items()) + " (repair and entail_retry priced "
                     "as generate and entail; simulated from the calls in each trace)",
        "reference": f"3 calls per answerable turn ({', '.join(REFERENCE_CALLS)}) = {REFERENCE_S:g} s",
    }
    for label, r in (("paraphrasing", para), ("verbatim", verbatim)):
        result.values.update({f"{label}: turns with outcome {k}": v for k, v in sorted(r.outcomes.items())})
        result.values.update({f"{label}: calls at site {k} (answerable turns)": v
                              for k, v in sorted(r.answerable_sites.items())})
        if r.expected:
            result.values[f"{label}: turns whose outcome matches the golden expectation"] = f"{r.agree}/{r.expected}"
        if r.n:
            result.figures[f"{label}: LLM calls per answerable turn"] = Distribution.of(
                [float(c) for c in r.answerable_calls], "calls")
            result.values[f"{label}: mean LLM calls per answerable turn"] = round(r.mean_calls, 3)
            result.values[f"{label}: simulated wall clock per answerable turn, s"] = round(r.engine_s / r.n, 3)
            result.values[f"{label}: simulated wall clock ÷ reference"] = round(r.wall_fraction, 3)
    result.values.update({f"turns understood by {k}": v for k, v in sorted(para.understood_by.items())})
    result.values["reference: simulated wall clock per answerable turn, s"] = REFERENCE_S
    if not para.n:
        result.status = "partial"
        result.notes.append("no turn was answerable: nothing to compare with the reference")
        result.targets.append(at_most(7, "LLM calls per answerable turn (mean)", None, TARGET_MEAN_CALLS, ""))
        return result
    result.figures["paraphrasing: LLM calls per turn, all turns"] = Distribution.of(
        [float(c) for c in para.all_calls], "calls")
    result.comparisons += [
        compare("LLM calls per answerable turn (mean), paraphrasing model", "this engine", para.mean_calls,
                "reference pipeline", 3.0, unit="calls", meaning="reference / engine"),
        compare("simulated LLM wall clock per answerable turn, paraphrasing model", "this engine",
                para.engine_s / para.n, "reference pipeline", REFERENCE_S, unit="s", meaning="reference / engine"),
        compare("LLM calls per answerable turn (mean), verbatim vs paraphrasing model", "verbatim model",
                verbatim.mean_calls, "paraphrasing model", para.mean_calls, unit="calls",
                meaning="paraphrasing / verbatim: what rewording costs in entailment calls"),
    ]
    result.targets += [
        at_most(7, "LLM calls per answerable turn, mean, paraphrasing model (reference: 3)", para.mean_calls,
                TARGET_MEAN_CALLS, "calls", fmt="{:.2f}"),
        at_most(7, "simulated wall clock, engine ÷ reference (answerable turns), paraphrasing model",
                para.wall_fraction, TARGET_WALL_FRACTION, "×", fmt="{:.2f}"),
    ]
    if para.mean_calls > TARGET_MEAN_CALLS or para.wall_fraction > TARGET_WALL_FRACTION:
        sites = para.answerable_sites
        per_turn = {k: LATENCY_S.get(k, 2.5) * v / para.n for k, v in sorted(sites.items())}
        result.notes.append(
            "Not met with the paraphrasing model. Simulated seconds per answerable turn by call site: "
            + ", ".join(f"{k} {v:.2f} s" for k, v in per_turn.items())
            + ". A dosing answer about one patient pays generate only (shown in the book's own words: its binding and "
            "completeness are decided by code); a reworded claim of any other answer still pays entailment; "
            "understand is the hybrid understander asking the model on low-confidence turns.")
    return result
