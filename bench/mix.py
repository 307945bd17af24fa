"""The turn mix: conversations with a realistic share of follow-up turns, driven by the engine's own replies.

A conversation is either a golden transcript (its user turns in order: clarify answers and follow-ups as
written) or a labelled understanding text as the opener followed by FOLLOWS turns chosen from the reply:
the first quick reply when the engine asked (a clarify answer), else an elliptical follow-up ("còn người
lớn thì sao?"). Every turn after the first carries the conversation id, so it reads the snapshot, the prior
frame and the history from the store, as a user's second message does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from bench.fixture import labelled_conversations, transcripts
from bench.timing import now_ms

FOLLOWS = 2
"""Reply-driven turns after each labelled opener: with the golden transcripts about 60% of all turns follow up."""
FOLLOW_UPS = ("còn người lớn thì sao?", "còn chống chỉ định thì sao?", "còn trẻ em thì sao?",
              "tác dụng không mong muốn thì sao?", "với phụ nữ có thai thì sao?", "có tương tác gì không?")


@dataclass
class Turn:
    kind: str
    """first | scripted follow-up | clarify answer | elliptical follow-up"""
    elapsed_ms: float
    reply: Any


def scripts() -> list[tuple[list[str], int]]:
    """(scripted user turns, reply-driven turns to add) per conversation: golden first, then labelled."""
    golden = [[str(t["user"]) for t in c["turns"] if "user" in t] for c in transcripts()]
    return [(g, 0) for g in golden if g] + [(c, FOLLOWS) for c in labelled_conversations()]


def converse(handle: Callable[[str, str | None], Any], script: list[str], follows: int, seed: int) -> Iterator[Turn]:
    """Run one conversation through `handle(text, conversation_id)`, timing each turn."""
    cid: str | None = None
    reply: Any = None
    for k in range(len(script) + follows):
        if k < len(script):
            text, kind = script[k], ("first" if k == 0 else "scripted follow-up")
        elif reply is not None and reply.outcome == "clarify" and reply.quick_replies:
            text, kind = reply.quick_replies[0], "clarify answer"
        else:
            text, kind = FOLLOW_UPS[(seed + k) % len(FOLLOW_UPS)], "elliptical follow-up"
        t0 = now_ms()
        reply = handle(text, cid)
        elapsed = now_ms() - t0
        cid = reply.conversation_id
        yield Turn(kind, elapsed, reply)
