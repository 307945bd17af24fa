"""Orchestration + persistence per turn, no-op work: this engine vs LangGraph + SqliteSaver on the same graph shape.

Three sides, each persisting every turn durably in its own SQLite file in WAL mode, synchronous at SQLite's
default:

- engine, no-op states (like for like; the target is judged on it): `Engine.handle` on the engine's own spec with
  each work step on the turn's path returning the update its real step returned on one no-op turn, prepared once
  (bench.noop_states), as LangGraph's nodes return prepared dicts. What runs is the engine's orchestration: the
  store read (snapshot + history), the `transitions` machine with every guard evaluated and traced (budget,
  clarify streak, evidence decision), the runner applying each update, the reply, one commit;
- engine, own state logic: the same `Engine.handle` with the real steps over the no-op providers (bench.noop): it
  also merges frames, checks the refusal patterns, synthesizes the query, grounds the answer and composes the
  reply every turn, work LangGraph's nodes do not do. Reported beside the first, not judged;
- LangGraph: bench.langgraph_reference (understand → route → retrieve → generate → verify), one `invoke` per
  turn on a thread per conversation, `durability="exit"`: one checkpoint per turn, as the engine commits once
  per turn. LangGraph's default (`"async"`, a checkpoint after every step) is measured too, apart.

The three alternate turn by turn in this process, so the machine's drift lands on all of them.
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
TARGET = ("orchestration + persistence per turn, engine with no-op states p50 ÷ LangGraph p50 "
          "(durability=exit, side by side, like for like)")
TEXTS = ("Chống chỉ định của paracetamol?", "Còn khi suy gan thì sao?", "Vậy với người cao tuổi?",
         "Paracetamol có chống chỉ định gì khác?", "Cảm ơn, còn gì nữa không?")
Step = tuple[int, int]


def run() -> GroupResult:
    from bench.langgraph_reference import LangGraphReference, available
    from bench.noop import NoOpGenerator, NoOpIndex, NoOpUnderstander, NoOpVerifier
    from bench.noop_states import noop_state_spec, record_turn
    from engine.reply import Reply
    from engine.runner import Engine
    from engine.spec import MachineSpec
    from engine.wiring import Runtime, build_engine

    result = GroupResult(group="orchestration", title=TITLE)
    missing = available()
    if missing:
        result.status = "skipped"
        result.error = missing
        result.targets.append(at_most(22, TARGET, None, TARGET_RATIO, "×"))
        return result
    with tempfile.TemporaryDirectory(prefix="bench-orchestration-") as tmp:
        def noop_runtime(data_dir: Path, spec: MachineSpec | None = None) -> Runtime:
            return build_engine(offline_settings(data_dir), index=NoOpIndex(), understander=NoOpUnderstander(),
                                generator=NoOpGenerator(), verifier=NoOpVerifier(), spec=spec)
        own_runtime = noop_runtime(Path(tmp) / "engine")
        own = own_runtime.engine
        recorded = record_turn(own, TEXTS[0])
        prepared_runtime = noop_runtime(Path(tmp) / "engine-noop-states", noop_state_spec(own.spec, recorded))
        prepared = prepared_runtime.engine
        graph = LangGraphReference(Path(tmp) / "langgraph.db", durability="exit")
        path = " → ".join(recorded.states)
        replies: dict[str, list[Reply]] = {"engine_noop_states": [], "engine": []}
        try:
            for name, engine in (("engine_noop_states", prepared), ("engine", own)):
                replies[name].append(engine.handle(TEXTS[0]))
            out = graph.turn("warm", TEXTS[0])
            if out.get("outcome") != "answerable":
                result.notes.append(f"the LangGraph turn ended {out.get('outcome')}, not answerable")
            ids: dict[str, dict[int, str | None]] = {"engine_noop_states": {}, "engine": {}}

            def engine_turn(name: str, engine: Engine) -> Callable[[Step], None]:
                handle = engine.handle
                conversations, kept = ids[name], replies[name]

                def turn(step: Step) -> None:
                    conv, k = step
                    reply = handle(TEXTS[k % len(TEXTS)], conversations.get(conv))
                    conversations[conv] = reply.conversation_id
                    kept.append(reply)
                return turn

            def graph_turn(step: Step) -> None:
                graph.turn(f"thread-{step[0]}", TEXTS[step[1] % len(TEXTS)])

            def graph_default(step: Step) -> None:
                graph.turn(f"default-{step[0]}", TEXTS[step[1] % len(TEXTS)], durability="async")

            sides: dict[str, Callable[[Step], None]] = {
                "engine_noop_states": engine_turn("engine_noop_states", prepared),
                "engine": engine_turn("engine", own),
                "langgraph": graph_turn,
            }
            samples: dict[str, list[float]] = {name: [] for name in (*sides, "langgraph_async")}
            cpu: dict[str, list[float]] = {name: [] for name in sides}

            def with_cpu(name: str, fn: Callable[[Step], None]) -> Callable[[Step], None]:
                def timed(step: Step) -> None:
                    c0 = time.process_time()
                    fn(step)
                    cpu[name].append((time.process_time() - c0) * 1000)
                return timed

            deadline = Deadline(TIME_BOX_S)
            for r in range(ROUNDS):
                # Conversation by conversation, each turn of it in order: follow-ups read their history.
                steps = [(r * CONVERSATIONS + c, k) for c in range(CONVERSATIONS) for k in range(TURNS_EACH)]
                got = interleaved({name: with_cpu(name, fn) for name, fn in sides.items()}, steps)
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
            prepared_runtime.close()
            own_runtime.close()

    # Both engines' turns, the warm one included, must be the turn the target speaks of: answerable, along the path
    # the engine with its own state logic takes on a no-op turn.
    checked: list[str] = []
    for name, label in (("engine_noop_states", "no-op states"), ("engine", "own state logic")):
        kept = replies[name]
        off = [r for r in kept if r.outcome != "answerable" or r.trace is None or tuple(r.trace.states) != recorded.states]
        checked.append(f"{len(kept) - len(off)} of {len(kept)} turns of the engine with {label}")
        if off:
            first = off[0]
            result.notes.append(f"engine with {label}: {len(off)} of {len(kept)} turns were not answerable along "
                                f"{path}; the first ended {first.outcome}/{first.reason} via "
                                f"{' → '.join(first.trace.states) if first.trace else '?'}")
    result.notes.append(f"Checked after the run: {' and '.join(checked)} ended answerable along {path}, the path the "
                        "engine with its own state logic takes on a no-op turn (recorded before the run).")

    dist = {name: Distribution.of(values) for name, values in samples.items()}
    cpu_dist = {name: Distribution.of(values) for name, values in cpu.items()}
    prep, eng, lg, lg_async = dist["engine_noop_states"], dist["engine"], dist["langgraph"], dist["langgraph_async"]
    result.figures.update({
        "engine, no-op states: Engine.handle, each step a prepared update, SQLite commit": prep,
        "engine, own state logic: Engine.handle, no-op providers, SQLite commit": eng,
        "LangGraph 1.x + SqliteSaver, durability=exit (one checkpoint per turn)": lg,
        "LangGraph 1.x + SqliteSaver, default durability=async (a checkpoint per step)": lg_async,
        "engine, no-op states: CPU per turn (process time)": cpu_dist["engine_noop_states"],
        "engine, own state logic: CPU per turn (process time)": cpu_dist["engine"],
        "LangGraph, durability=exit: CPU per turn (process time)": cpu_dist["langgraph"],
    })
    lg_exit, lg_default = "LangGraph (exit)", "LangGraph (async)"
    cpu_what = "CPU p50 (process time: without waiting for a core)"
    for subject, d, c in (("engine, no-op states", prep, cpu_dist["engine_noop_states"]),
                          ("engine, own state logic", eng, cpu_dist["engine"])):
        result.comparisons += [
            compare(f"{subject}: orchestration + persistence per turn, p50", subject, d.p50, lg_exit, lg.p50,
                    meaning="LangGraph p50 / engine p50"),
            compare(f"{subject}: orchestration + persistence per turn, p99", subject, d.p99, lg_exit, lg.p99,
                    meaning="LangGraph p99 / engine p99"),
            compare(f"{subject}: orchestration + persistence per turn, {cpu_what}", subject, c.p50, lg_exit,
                    cpu_dist["langgraph"].p50, meaning="LangGraph CPU p50 / engine CPU p50"),
            compare(f"{subject}: orchestration + persistence per turn, p50, LangGraph's default durability", subject,
                    d.p50, lg_default, lg_async.p50, meaning="LangGraph p50 / engine p50"),
        ]
    result.values.update({
        "engine, no-op states: p50 ÷ LangGraph p50 (durability=exit) — the target": round(prep.p50 / lg.p50, 3),
        "engine, own state logic: p50 ÷ LangGraph p50 (durability=exit) — beside it": round(eng.p50 / lg.p50, 3),
        "engine, no-op states: CPU p50 ÷ LangGraph CPU p50 (durability=exit)":
            round(cpu_dist["engine_noop_states"].p50 / cpu_dist["langgraph"].p50, 3),
        "engine, own state logic: CPU p50 ÷ LangGraph CPU p50 (durability=exit)":
            round(cpu_dist["engine"].p50 / cpu_dist["langgraph"].p50, 3),
        "engine, no-op states: p50 ÷ LangGraph p50 (default durability=async)": round(prep.p50 / lg_async.p50, 3),
        "engine, own state logic: p50 ÷ LangGraph p50 (default durability=async)": round(eng.p50 / lg_async.p50, 3),
        "engine, own state logic p50 − no-op states p50 (ms): what the states' own work costs a turn":
            round(eng.p50 - prep.p50, 3),
    })
    result.notes += [
        "Which is which: LangGraph's nodes return prepared dicts and do no work. \"Engine, no-op states\" is the "
        "like-for-like side: the engine's own spec (states, triggers, guards, transitions, `transitions` machine, "
        "budget, clarify-streak guard) and Engine.handle with its store read and one commit, each work step on the "
        f"path ({path}) returning the update its real step returned on one no-op turn, prepared once "
        "(bench.noop_states). \"Engine, own state logic\" runs its real steps over no-op providers: frame merge, "
        "refusal patterns, query synthesis, grounding check and reply composition every turn, work the LangGraph "
        "side does not do; that is why the target is judged on the no-op-states side, and the own-logic figure "
        "is reported beside it.",
        "Every side makes exactly one durable SQLite commit per turn (one fdatasync each, counted with strace over "
        "100 turns: 110 vs 111 with set-up, engine vs LangGraph durability=exit). On a loaded shared machine each "
        "turn also waits for a core, which all sides pay alike and which pulls the wall-clock ratio towards 1; the "
        "CPU ratios beside it are what each orchestration costs by itself.",
    ]
    result.setup = {
        "work": "none on any side: the providers are no-ops (bench.noop: prepared frame, one chunk, a claim "
                "restating it, entailed); the engine with no-op states also replaces its state steps by prepared "
                "updates (bench.noop_states), the engine with its own state logic still runs them",
        "engine, no-op states (the target's side)": "engine.wiring.build_engine(spec=bench.noop_states.noop_state_spec"
                                                  "(the real spec, one recorded no-op turn), no-op providers) on "
                                                  "SqlStore (its own SQLite file, WAL)",
        "engine, own state logic (beside it)": "engine.wiring.build_engine(index=NoOpIndex, understander/generator/"
                                               "verifier no-op) on SqlStore (its own SQLite file, WAL)",
        "LangGraph": "bench.langgraph_reference: StateGraph understand → route → retrieve → generate → verify "
                     "(+ clarify, abstain), SqliteSaver on a SQLite file (WAL)",
        "samples": f"{prep.n} turns each: conversations of {TURNS_EACH} turns in order, engine "
                   "(no-op states), engine (own state logic) and LangGraph (durability=exit) turns alternating one "
                   f"by one; then {lg_async.n} LangGraph turns at its default durability, apart",
    }
    result.targets.append(at_most(22, TARGET, prep.p50 / lg.p50, TARGET_RATIO, "×", fmt="{:.2f}"))
    return result
