"""The `asking` state's step: compose the clarifying question and what the next turn will answer."""

from __future__ import annotations

from states import clarify
from states.frame import Pending
from states.step import Services, TurnView, Update, update


def ask(ctx: TurnView, services: Services) -> Update:
    reason = ctx.reason or "needs_more_info"
    question = clarify.question_for(reason, ctx.frame, services.names, ctx.routes_found, ctx.indications_found)
    return update(
        reply_text=question.text,
        quick_replies=question.quick_replies,
        new_pending=Pending(
            reason=reason, missing=question.missing, quick_replies=question.quick_replies, question=question.text
        ),
    )
