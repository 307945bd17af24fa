"""`formulary-fsm understand "…"`: print what the machine understood of one turn, as JSON.

A debugging and clinical-review tool. The turn goes through the engine's own states, up to the point where it would
retrieve: the `understanding` step (resolver, configured understander, frame merge), then the spec's routing guards
and, when they ask, the `asking` step — the same functions a live turn runs, over the index under DATA_DIR.
`--after` runs earlier turns first, carrying what the machine would have asked into the next turn, so a follow-up
like "còn trẻ em thì sao?" shows the merged frame.

    formulary-fsm understand "Liều paracetamol cho bé 5 tuổi 18kg"
    formulary-fsm understand "Bé nặng 18 kg" --after "Liều paracetamol cho trẻ em?"
"""

from __future__ import annotations

import argparse
import json

from core.budget import RequestBudget
from engine.config import load_settings
from engine.context import TurnContext
from engine.runner import Engine
from engine.store.memory import MemoryStore
from engine.wiring import build_engine, open_index
from retrieval.resolver import ResolverResult
from states.frame import Pending, QueryFrame

# The field names first (the review reads these), then the rest of the frame.
KEY_FIELDS = ("turn_type", "drugs", "unknown_drugs", "section_key", "population", "age_months", "weight_kg",
              "route", "condition", "needs_clarify", "confidence")

UNDERSTANDING_STATES = frozenset({"understanding", "routing", "asking"})
"""The states this command runs; it stops at the first other one (retrieval or an outcome), so it never retrieves
evidence or calls a generator."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", help="the user turn, in Vietnamese (with or without diacritics)")
    parser.add_argument("--after", action="append", default=[], metavar="TURN",
                        help="an earlier user turn of the same conversation (repeatable, oldest first)")
    parser.add_argument("--candidates", action="store_true",
                        help="also print the resolver's candidates and unknown names")
    parser.add_argument("--compact", action="store_true", help="one line of JSON")


def understand_turns(engine: Engine, turns: list[str], budget: RequestBudget) -> tuple[QueryFrame, ResolverResult]:
    """The frame after the last of `turns`, and the resolver's reading of that turn."""
    prior: QueryFrame | None = None
    pending: Pending | None = None
    history: list[str] = []
    for text in turns:
        ctx = TurnContext(text=text, budget=budget, limits=engine.spec.limits, prior_frame=prior, pending=pending,
                          history=history[-12:])
        engine.drive(ctx, "awaiting_answer" if pending else "ready", stop=lambda s: s not in UNDERSTANDING_STATES)
        history.append(f"Người dùng: {text}")
        # What the machine asked (the asking step's pending) is what the next turn answers.
        prior, pending = ctx.frame, ctx.new_pending if ctx.state == "clarified" else None
    return (prior or QueryFrame()), engine.resolver.resolve(turns[-1])


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    index = open_index(settings)
    try:
        engine = build_engine(settings, index=index, store=MemoryStore()).engine
        budget = RequestBudget(engine.spec.limits.max_wall_clock_ms, engine.spec.limits.max_llm_calls)
        frame, candidates = understand_turns(engine, [*args.after, args.text], budget)
    finally:
        index.close()
    dumped = frame.model_dump()
    out: dict[str, object] = {k: dumped[k] for k in KEY_FIELDS}
    out.update({k: v for k, v in dumped.items() if k not in out})
    if args.candidates:
        out["resolver"] = candidates.model_dump()
    print(json.dumps(out, ensure_ascii=False, indent=None if args.compact else 2))
    return 0
