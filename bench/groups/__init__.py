"""One module per benchmark group; each exposes `TITLE` and `run(ctx) -> GroupResult`.

`GROUPS` is the order `--group all` runs them in, cheapest first, so a slow group cannot starve the others of
the 10-minute budget.
"""

GROUPS: tuple[str, ...] = (
    "machine",
    "understanding",
    "turn",
    "orchestration",
    "scale",
    "store",
    "llm",
    "retrieval",
    "http",
    "concurrency",
    "startup",
)
