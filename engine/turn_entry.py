"""What every caller of Engine.handle does around a turn (the HTTP endpoint and the terminal chat).

Before the turn runs:
1. an Idempotency-Key already stored returns the stored reply: nothing runs, nothing is stored (a client
   that timed out and resent must not store the turn twice);
2. a conversation at MAX_TURNS_PER_CONVERSATION gets a Vietnamese "start a new conversation" abstention,
   stored nowhere (reads of a conversation stay bounded);
3. the conversation's version is claimed for this turn (`store.claim_turn`): a turn that would lose the
   optimistic-concurrency race is refused (StoreConflict → 409) before its first provider call.
Then the turn runs with the key in context, so the store writes it in the turn's own transaction, and the
reply body is attached to the stored turn for retries.

These steps belong to the turn's entry, not to the machine: a retried or over-long turn never enters it.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from typing import Any

from core.errors import ConversationNotFound, StoreConflict, StoreError
from engine.reply import Reply
from engine.runner import Engine
from engine.store.base import ConversationSnapshot, ConversationStore, IdempotentTurn
from engine.store.idempotency import turn_key

log = logging.getLogger(__name__)

MAX_IDEMPOTENCY_KEY_CHARS = 200

TOO_LONG_REPLY = (
    "Cuộc trò chuyện này đã đạt giới hạn {limit} lượt hỏi nên không thể tiếp tục. "
    "Vui lòng bắt đầu một cuộc trò chuyện mới để hỏi tiếp."
)


class IdempotencyKeyReused(Exception):
    """The key was stored with another turn (another message, conversation or owner): the client's bug."""


@dataclass
class TurnResult:
    reply: Reply
    replayed: bool = False
    """True when the reply is the stored reply of an earlier attempt with the same Idempotency-Key."""


def valid_idempotency_key(value: str) -> bool:
    """Printable ASCII without spaces, 1–200 characters (a UUID is the usual choice)."""
    return 0 < len(value) <= MAX_IDEMPOTENCY_KEY_CHARS and value.isascii() and value.isprintable() and " " not in value


def too_long(snapshot: ConversationSnapshot | None, max_turns: int) -> bool:
    """The guard: this conversation already holds `max_turns` turns; no further turn is run or stored."""
    return snapshot is not None and snapshot.turn_count >= max_turns


def too_long_reply(engine: Engine, snapshot: ConversationSnapshot, max_turns: int) -> Reply:
    return Reply(
        conversation_id=snapshot.id,
        turn=snapshot.turn_count + 1,
        outcome="abstain",
        reason="conversation_too_long",
        reply=TOO_LONG_REPLY.format(limit=max_turns),
        state=snapshot.state,
        trace_id=str(uuid.uuid4()),
        persisted=False,
        spec_fingerprint=engine.fingerprint,
    )


def stored_reply(found: IdempotentTurn) -> Reply:
    """The reply sent for the stored turn; rebuilt from the turn row if the body was not attached yet."""
    if found.reply is not None:
        return Reply.model_validate(found.reply)
    turn = found.turn
    states = turn.trace.states or ["ready"]
    return Reply.model_validate({
        "conversation_id": found.conversation_id, "turn": turn.seq, "outcome": turn.outcome,
        "reason": turn.reason, "reply": turn.reply_text, "state": states[-1], "trace_id": turn.trace.trace_id,
        "frame": turn.frame.model_dump() if turn.frame is not None else None,
        "citations": turn.citations, "quick_replies": turn.quick_replies,
    })


def _replay(found: IdempotentTurn, message: str, conversation_id: str | None, owner: str | None) -> Reply:
    if found.owner != owner or (conversation_id is not None and conversation_id != found.conversation_id):
        raise IdempotencyKeyReused("this Idempotency-Key was already used for another conversation; "
                                   "send a new key (a fresh UUID) with each new turn")
    if found.turn.user_text != message:
        raise IdempotencyKeyReused("this Idempotency-Key was already used for another message; "
                                   "send a new key (a fresh UUID) with each new turn")
    return stored_reply(found)


def _load(store: ConversationStore, conversation_id: str, owner: str | None,
          ) -> tuple[ConversationSnapshot | None, tuple[ConversationSnapshot | None, list[str]] | None]:
    """The snapshot, and the snapshot with the history the turn runs on: read once (one statement) and handed to
    the engine. When that read fails, the snapshot alone, as before (the engine then reads the history itself,
    and a turn that runs without memory still gets its real number)."""
    try:
        loaded = store.load_with_history(conversation_id, owner)
    except StoreError:
        return store.load(conversation_id, owner), None
    return loaded[0], loaded


def run_turn(
    engine: Engine,
    message: str,
    conversation_id: str | None,
    owner: str | None,
    *,
    idempotency_key: str | None = None,
    max_turns: int = 500,
) -> TurnResult:
    store: ConversationStore = engine.store
    if idempotency_key is not None:
        found = store.find_idempotent(idempotency_key)
        if found is not None:
            return TurnResult(_replay(found, message, conversation_id, owner), replayed=True)
    snapshot: ConversationSnapshot | None = None
    loaded: tuple[ConversationSnapshot | None, list[str]] | None = None
    claim_token = str(uuid.uuid4())
    if conversation_id is not None:
        try:
            snapshot, loaded = _load(store, conversation_id, owner)
        except StoreError as exc:
            log.warning("store read failed before the turn; the engine runs it without memory: %s", exc)
        else:
            if snapshot is None:
                raise ConversationNotFound(f"no conversation {conversation_id}")
            if too_long(snapshot, max_turns):
                return TurnResult(too_long_reply(engine, snapshot, max_turns))
            try:
                store.claim_turn(conversation_id, snapshot.version, claim_token)
            except StoreConflict:
                raise
            except StoreError as exc:  # the claim is an optimisation; the commit's version check still holds
                log.warning("could not claim the turn; it runs unclaimed: %s", exc)
    try:
        with turn_key(idempotency_key, claim_token):
            reply = engine.handle(message, conversation_id, owner, loaded=loaded)
    except StoreConflict:
        if idempotency_key is not None:
            # Another attempt with the same key (e.g. on another worker) committed first: its reply is ours.
            found = store.find_idempotent(idempotency_key)
            if found is not None:
                return TurnResult(_replay(found, message, conversation_id, owner), replayed=True)
        raise
    if conversation_id is not None and not reply.memory_loaded:
        # Fail-open (the store could not be read): the engine numbers the turn 1; the number is the one after
        # the stored turns when they could be counted before the turn, else unknown (0).
        reply.turn = snapshot.turn_count + 1 if snapshot is not None else 0
    if idempotency_key is not None and reply.persisted:
        try:
            store.save_reply(reply.conversation_id, idempotency_key, _body(reply))
        except StoreError as exc:  # the turn is stored; a retry rebuilds the reply from the turn row
            log.warning("could not attach the reply to its idempotency key: %s", exc)
    return TurnResult(reply)


def _body(reply: Reply) -> dict[str, Any]:
    body: dict[str, Any] = reply.model_dump(mode="json", exclude={"trace"})
    return body
