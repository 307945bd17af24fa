"""Drive the rules understander, alone or through the whole machine, over the fixture formulary."""

from __future__ import annotations

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
from tests.unit.formulary_names import fixture_drugs, fixture_index, fixture_name_book

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
