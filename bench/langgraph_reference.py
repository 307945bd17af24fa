"""The reference orchestration: a LangGraph graph of the engine's shape with no-op nodes, checkpointed in SQLite.

understand → route ─┬→ retrieve → generate → verify → END
                    ├→ clarify → END
                    └→ abstain → END

Each node returns a prepared value of the size the engine's own state carries (the frame, the evidence ids,
the answer), so both sides move comparable state. Persistence is `langgraph.checkpoint.sqlite.SqliteSaver`
on a file database in WAL mode (the saver's own `setup()` switches it), synchronous at SQLite's default, as the
engine's store is: one thread per conversation, one `invoke` per turn. LangGraph is a bench-only extra
(`pip install -e '.[bench]'`); the engine never imports it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, Literal, TypedDict

from bench.noop import ANSWER, CHUNK, FRAME

Durability = Literal["sync", "async", "exit"]
_FRAME = FRAME.model_dump()
_EVIDENCE = [CHUNK.doc_id]
_ANSWER = ANSWER.model_dump()


class TurnState(TypedDict, total=False):
    message: str
    frame: dict[str, Any]
    path: str
    evidence: list[str]
    answer: dict[str, Any]
    verified: bool
    outcome: str
    reply: str


def _understand(state: TurnState) -> TurnState:
    return {"frame": _FRAME}


def _route(state: TurnState) -> TurnState:
    return {"path": "single_drug"}


def _next_after_route(state: TurnState) -> str:
    path = state.get("path")
    return "retrieve" if path else ("clarify" if state.get("frame") else "abstain")


def _retrieve(state: TurnState) -> TurnState:
    return {"evidence": _EVIDENCE}


def _generate(state: TurnState) -> TurnState:
    return {"answer": _ANSWER}


def _verify(state: TurnState) -> TurnState:
    return {"verified": True, "outcome": "answerable", "reply": CHUNK.text}


def _clarify(state: TurnState) -> TurnState:
    return {"outcome": "clarify"}


def _abstain(state: TurnState) -> TurnState:
    return {"outcome": "abstain"}


class LangGraphReference:
    """The compiled graph and its SQLite checkpointer; `turn(thread_id, text)` runs one persisted turn."""

    def __init__(self, db_path: Path, durability: Durability = "exit") -> None:
        from langgraph.checkpoint.sqlite import SqliteSaver
        from langgraph.graph import END, START, StateGraph

        self.durability = durability
        self.conn = sqlite3.connect(str(db_path), check_same_thread=False)
        self.saver = SqliteSaver(self.conn)
        self.saver.setup()  # creates the tables and sets journal_mode=WAL
        graph = StateGraph(TurnState)
        for name, fn in (("understand", _understand), ("route", _route), ("retrieve", _retrieve),
                         ("generate", _generate), ("verify", _verify), ("clarify", _clarify),
                         ("abstain", _abstain)):
            graph.add_node(name, fn)
        graph.add_edge(START, "understand")
        graph.add_edge("understand", "route")
        graph.add_conditional_edges("route", _next_after_route, ["retrieve", "clarify", "abstain"])
        graph.add_edge("retrieve", "generate")
        graph.add_edge("generate", "verify")
        for last in ("verify", "clarify", "abstain"):
            graph.add_edge(last, END)
        self.app = graph.compile(checkpointer=self.saver)

    def turn(self, thread_id: str, text: str, durability: Durability | None = None) -> dict[str, Any]:
        config: Any = {"configurable": {"thread_id": thread_id}}
        state: Any = {"message": text}
        out: dict[str, Any] = self.app.invoke(state, config, durability=durability or self.durability)
        return out

    def close(self) -> None:
        self.conn.close()


def available() -> str | None:
    """None when LangGraph and its SQLite checkpointer import, else what to install."""
    try:
        import langgraph.checkpoint.sqlite  # noqa: F401
        import langgraph.graph  # noqa: F401
    except ImportError as exc:
        return f"LangGraph is not installed ({exc}); `make bench` installs the bench extra: pip install -e '.[bench]'"
    return None
