"""`formulary-fsm chat`: the same engine in the terminal, one turn per line of standard input until EOF.

Each reply prints its outcome and reason, the reply text, the citations (drug, section, quoted text) and
the quick replies, so what the terminal shows is what the chat page shows.
"""

from __future__ import annotations

import argparse
import sys
import uuid
from typing import TextIO

from core.errors import ConversationNotFound, StoreError
from engine.config import load_settings
from engine.reply import Reply
from engine.runner import Engine
from engine.turn_entry import run_turn
from engine.wiring import build_engine


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--conversation", metavar="ID", help="continue a stored conversation")
    parser.add_argument("--trace", action="store_true", help="also print the states visited")


def format_reply(reply: Reply, *, trace: bool = False) -> str:
    lines = [f"[{reply.outcome} / {reply.reason}] (lượt {reply.turn})", reply.reply]
    for n, c in enumerate(reply.citations, 1):
        page = f", tr. {c.page}" if c.page else ""
        lines.append(f"  [{n}] {c.drug_name or c.drug_id} — {c.section_title or c.section_key}{page} ({c.doc_id})")
        lines += [f"      > {q}" for q in c.quote.splitlines() if q.strip()]
    if reply.quick_replies:
        lines.append("  Gợi ý: " + " | ".join(reply.quick_replies))
    if not reply.persisted:
        lines.append("  (lượt này chưa được lưu)")
    if trace:
        lines.append("  states: " + " → ".join(reply.trace.states))
    return "\n".join(lines)


def chat(engine: Engine, stdin: TextIO, stdout: TextIO, *, conversation_id: str | None = None,
         trace: bool = False, max_turns: int = 500) -> str | None:
    """Run turns from `stdin` until EOF; return the conversation id (None if no turn was taken).

    Each line is one turn with its own Idempotency-Key, through the same entry as the HTTP endpoint
    (engine.turn_entry): the turn limit, the turn claim and the key apply here too."""
    interactive = stdin.isatty()
    while True:
        if interactive:
            stdout.write("> ")
            stdout.flush()
        line = stdin.readline()
        if not line:
            return conversation_id
        text = line.strip()
        if not text:
            continue
        try:
            reply = _turn(engine, text, conversation_id, max_turns)
        except ConversationNotFound:
            stdout.write(f"Không tìm thấy cuộc trò chuyện {conversation_id}; bắt đầu cuộc mới.\n")
            conversation_id = None
            reply = _turn(engine, text, None, max_turns)
        except StoreError as exc:
            stdout.write(f"Lỗi lưu trữ: {exc}. Vui lòng gửi lại.\n")
            continue
        conversation_id = reply.conversation_id
        stdout.write(format_reply(reply, trace=trace) + "\n\n")
        stdout.flush()


def _turn(engine: Engine, text: str, conversation_id: str | None, max_turns: int) -> Reply:
    return run_turn(engine, text, conversation_id, None, idempotency_key=str(uuid.uuid4()),
                    max_turns=max_turns).reply


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    runtime = build_engine(settings, progress=True)
    try:
        if sys.stdin.isatty():
            print("Tra cứu Dược thư Quốc gia — gõ câu hỏi, Ctrl-D để thoát.")
        cid = chat(runtime.engine, sys.stdin, sys.stdout, conversation_id=args.conversation, trace=args.trace,
                   max_turns=settings.max_turns_per_conversation)
        if cid:
            print(f"conversation: {cid}", file=sys.stderr)
    finally:
        runtime.close()
    return 0
