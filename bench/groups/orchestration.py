"""Orchestration + persistence per turn, no-op work: this engine vs LangGraph + SqliteSaver on the same graph shape.

Both sides do no real work (bench.noop: prepared frame, one chunk, a claim restating it, "entailed") and
persist every turn durably in a SQLite file in WAL mode, synchronous at SQLite's default:

- engine: `Engine.handle` built by `engine.wiring.build_engine` with the no-op providers, on its SqlStore:
  store read (snapshot + history), the machine run (guards traced), the resolver, the grounding check, the
  reply, one commit;
- LangGraph: bench.langgraph_reference (understand → route → retrieve → generate → verify), one `invoke`
  per turn on a thread per conversation, `durability="exit"`: one checkpoint per turn, as the engine commits
  once per turn. LangGraph's default (`"async"`, a checkpoint after every step) is measured too.

The turns alternate engine / LangGraph one by one in this process, so the machine's drift lands on both.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.engines import offline_settings
from bench.results import Distribution, GroupResult, at_most, compare
from bench.timing import Deadline, interleaved

TITLE = "orchestration + persistence per turn (no-op work): engine vs LangGraph + SqliteSaver, same graph shape"
CONVERSATIONS = 30
TURNS_EACH = 5
ROUNDS = 3
TIME_BOX_S = 20.0
TARGET_RATIO = 0.25
TEXTS = ("Chống chỉ định của paracetamol?", "Còn khi suy gan thì sao?", "Vậy với người cao tuổi?",
         "Paracetamol có chống chỉ định gì khác?", "Cảm ơn, còn gì nữa không?")


def run() -> GroupResult:
    from bench.langgraph_reference import LangGraphReference, available
    from bench.noop import NoOpGenerator, NoOpIndex, NoOpUnderstander, NoOpVerifier
    from engine.wiring import build_engine

    result = GroupResult(group="orchestration", title=TITLE)
    missing = available()
    if missing:
        result.status = "skipped"
        result.error = missing
        result.targets.append(at_most(22, "orchestration + persistence, engine ÷ LangGraph (p50)", None,
                                      TARGET_RATIO, "×"))
        return result
    with tempfile.TemporaryDirectory(prefix="bench-orchestration-") as tmp:
        runtime = build_engine(offline_settings(Path(tmp)), index=NoOpIndex(), understander=NoOpUnderstander(),
                               generator=NoOpGenerator(), verifier=NoOpVerifier())
        graph = LangGraphReference(Path(tmp) / "langgraph.db", durability="exit")
        engine = runtime.engine
        try:
            reply = engine.handle(TEXTS[0])
            if reply.outcome != "answerable":
                result.notes.append(f"the no-op engine turn ended {reply.outcome}/{reply.reason}, not answerable")
            out = graph.turn("warm", TEXTS[0])
            if out.get("outcome") != "answerable":
                result.notes.append(f"the LangGraph turn ended {out.get('outcome')}, not answerable")
            engine_ids: dict[int, str | None] = {}

            def engine_turn(step: tuple[int, int]) -> None:
                conv, k = step
                engine_ids[conv] = engine.handle(TEXTS[k % len(TEXTS)], engine_ids.get(conv)).conversation_id

            def graph_turn(step: tuple[int, int]) -> None:
                graph.turn(f"thread-{step[0]}", TEXTS[step[1] % len(TEXTS)])

            def graph_default(step: tuple[int, int]) -> None:
                graph.turn(f"default-{step[0]}", TEXTS[step[1] % len(TEXTS)], durability="async")

            samples: dict[str, list[float]] = {"engine": [], "langgraph": [], "langgraph_async": []}
            cpu: dict[str, list[float]] = {"engine": [], "langgraph": []}

            def with_cpu(name: str, fn: Callable[[tuple[int, int]], None]) -> Callable[[tuple[int, int]], None]:
                def timed(step: tuple[int, int]) -> None:
                    c0 = time.process_time()
                    fn(step)
                    cpu[name].append((time.process_time() - c0) * 1000)
                return timed

            deadline = Deadline(TIME_BOX_S)
            for r in range(ROUNDS):
                # Conversation by conversation, each turn of it in order: follow-ups read their history.
                steps = [(r * CONVERSATIONS + c, k) for c in range(CONVERSATIONS) for k in range(TURNS_EACH)]
                got = interleaved({"engine": with_cpu("engine", engine_turn),
                                   "langgraph": with_cpu("langgraph", graph_turn)}, steps)
                for name, values in got.items():
                    samples[name] += values
                if deadline.passed():
                    break
            # LangGraph's default durability checkpoints from a background thread: measured apart, so its
            # writes never overlap a timed engine or durability=exit turn.
            steps = [(10_000 + c, k) for c in range(CONVERSATIONS // 3) for k in range(TURNS_EACH)]
            samples["langgraph_async"] = interleaved({"a": graph_default}, steps)["a"]
        finally:
            graph.close()
            runtime.close()
    eng, lg, lg_async = (Distribution.of(samples[k]) for k in ("engine", "langgraph", "langgraph_async"))
    result.figures.update({
        "engine: Engine.handle, no-op providers, SQLite commit": eng,
        "LangGraph 1.x + SqliteSaver, durability=exit (one checkpoint per turn)": lg,
        "LangGraph 1.x + SqliteSaver, default durability=async (a checkpoint per step)": lg_async,
    })
    p50 = compare("orchestration + persistence per turn, p50", "engine", eng.p50, "LangGraph (exit)", lg.p50,
                  meaning="LangGraph p50 / engine p50")
    p99 = compare("orchestration + persistence per turn, p99", "engine", eng.p99, "LangGraph (exit)", lg.p99,
                  meaning="LangGraph p99 / engine p99")
    default = compare("orchestration + persistence per turn, p50, LangGraph's default durability", "engine",
                      eng.p50, "LangGraph (async)", lg_async.p50, meaning="LangGraph p50 / engine p50")
    cpu_eng, cpu_lg = Distribution.of(cpu["engine"]), Distribution.of(cpu["langgraph"])
    result.figures["engine: CPU per turn (process time)"] = cpu_eng
    result.figures["LangGraph, durability=exit: CPU per turn (process time)"] = cpu_lg
    cpu_p50 = compare("orchestration + persistence per turn, CPU p50 (process time: without waiting for a core)", "engine",
                      cpu_eng.p50, "LangGraph (exit)", cpu_lg.p50, meaning="LangGraph CPU p50 / engine CPU p50")
    result.comparisons += [p50, p99, cpu_p50, default]
    result.values["engine CPU p50 ÷ LangGraph CPU p50 (durability=exit)"] = round(cpu_eng.p50 / cpu_lg.p50, 3)
    result.notes.append(
        "Both sides make exactly one durable SQLite commit per turn (one fdatasync each, counted with strace "
        "over 100 turns: 110 vs 111 with set-up). On a loaded shared machine each turn also waits for a core, "
        "which both pay alike and which pulls the wall-clock ratio towards 1; the CPU ratio beside it is what "
        "each orchestration costs by itself.")
    result.values["engine p50 ÷ LangGraph p50 (durability=exit)"] = round(eng.p50 / lg.p50, 3)
    result.values["engine p50 ÷ LangGraph p50 (default durability=async)"] = round(eng.p50 / lg_async.p50, 3)
    result.setup = {
        "work": "none on either side (bench.noop): prepared frame, one chunk, a claim restating it, entailed; the "
                "engine still runs its resolver, grounding check and reply composition",
        "engine": "engine.wiring.build_engine(index=NoOpIndex, understander/generator/verifier no-op) on SqlStore "
                  "(SQLite file, WAL)",
        "LangGraph": "bench.langgraph_reference: StateGraph understand → route → retrieve → generate → verify "
                     "(+ clarify, abstain), SqliteSaver on a SQLite file (WAL)",
        "samples": f"{len(samples['engine'])} turns each: conversations of {TURNS_EACH} turns in order, engine and "
                   f"LangGraph (durability=exit) turns alternating one by one; then {len(samples['langgraph_async'])} "
                   "LangGraph turns at its default durability, apart",
    }
    result.targets.append(at_most(22, "orchestration + persistence per turn, engine p50 ÷ LangGraph p50 "
                                  "(durability=exit, side by side)", eng.p50 / lg.p50, TARGET_RATIO, "×",
                                  fmt="{:.2f}"))
    return result
