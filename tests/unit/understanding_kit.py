"""Drive the rules understander, alone or through the whole machine, over the fixture formulary."""

from __future__ import annotations

import json
from typing import Any

from engine.runner import Engine
from engine.spec import build_spec
from engine.store.memory import MemoryStore
from grounding.extractive import ExtractiveGenerator
from grounding.lexical import LexicalVerifier
from retrieval.resolver import DrugResolver
from retrieval.service import RetrievalService
from states.frame import Pending, QueryFrame
from states.merge import merge_frames
from states.rules_understander import RulesUnderstander
from tests.unit.formulary_names import LABELLED, fixture_drugs, fixture_index, fixture_name_book

RESOLVER = DrugResolver(fixture_drugs())
RULES = RulesUnderstander(fixture_name_book())


def understand(text: str, *, awaiting: bool = False) -> QueryFrame:
    return RULES.parse(text, RESOLVER.resolve(text), awaiting_answer=awaiting)


def merged(text: str, prior: QueryFrame | None, pending: Pending | None = None) -> QueryFrame:
    return merge_frames(understand(text, awaiting=pending is not None), prior, pending, text)


def fixture_engine() -> Engine:
    """The embedded default's offline providers over an in-memory index of the fixture formulary."""
    retrieval = RetrievalService(fixture_index())
    return Engine(spec=build_spec(), understander=RulesUnderstander(retrieval.names),
                  resolver=DrugResolver(retrieval.names.entries()), retrieval=retrieval,
                  generator=ExtractiveGenerator(), verifier=LexicalVerifier(), store=MemoryStore(),
                  synthetic_corpus=True)


def labelled_rows(name: str) -> list[dict[str, Any]]:
    """A labelled set under fixtures/labelled/, without its `_comment` banner."""
    lines = (LABELLED / name).read_text(encoding="utf-8").splitlines()
    return [row for row in (json.loads(line) for line in lines if line.strip()) if "_comment" not in row]


def score_labelled(rows: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each row's context turns, then its text, through one engine conversation; the last frame with its row."""
    engine = fixture_engine()
    out = []
    for row in rows:
        conversation = None
        for text in [*row.get("context", []), row["text"]]:
            reply = engine.handle(text, conversation)
            conversation = reply.conversation_id
        assert reply.frame is not None
        out.append((row, reply.frame))
    return out
