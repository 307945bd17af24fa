"""`formulary-fsm chat`: the same engine in the terminal, one turn per line of standard input until EOF.

Each reply prints its outcome and reason, the reply text, the citations (drug, section, quoted text) and
the quick replies, so what the terminal shows is what the chat page shows.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from core.errors import ConversationNotFound, StoreError
from engine.config import load_settings
from engine.reply import Reply
from engine.runner import Engine
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
         trace: bool = False) -> str | None:
    """Run turns from `stdin` until EOF; return the conversation id (None if no turn was taken)."""
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
            reply = engine.handle(text, conversation_id)
        except ConversationNotFound:
            stdout.write(f"Không tìm thấy cuộc trò chuyện {conversation_id}; bắt đầu cuộc mới.\n")
            conversation_id = None
            reply = engine.handle(text, None)
        except StoreError as exc:
            stdout.write(f"Lỗi lưu trữ: {exc}. Vui lòng gửi lại.\n")
            continue
        conversation_id = reply.conversation_id
        stdout.write(format_reply(reply, trace=trace) + "\n\n")
        stdout.flush()


def run(args: argparse.Namespace) -> int:
    runtime = build_engine(load_settings(), progress=True)
    try:
        if sys.stdin.isatty():
            print("Tra cứu Dược thư Quốc gia — gõ câu hỏi, Ctrl-D để thoát.")
        cid = chat(runtime.engine, sys.stdin, sys.stdout, conversation_id=args.conversation, trace=args.trace)
        if cid:
            print(f"conversation: {cid}", file=sys.stderr)
    finally:
        runtime.close()
    return 0
