"""Conversation store: the protocol, an in-memory store for unit tests, and the SQL store."""

from engine.store.base import (
    ConversationSnapshot,
    ConversationStore,
    ConversationUpdate,
    SignOff,
    SignOffStore,
    TurnRecord,
)
from engine.store.memory import MemoryStore

__all__ = ["ConversationSnapshot", "ConversationStore", "ConversationUpdate", "MemoryStore", "SignOff", "SignOffStore",
           "TurnRecord"]
