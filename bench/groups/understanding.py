"""Rules understanding per turn (issue 3): the drug resolver plus the rules understander, offline.

Over every text of fixtures/labelled/understanding.jsonl, as the runner's understanding state does it:
`DrugResolver.resolve(text)` bounds the candidates, then `RulesUnderstander.understand(request)` builds the
frame. Both are timed together (the per-turn figure the target is about) and separately.
"""

from __future__ import annotations

from bench.fixture import fixture_names, labelled_texts
from bench.results import Distribution, GroupResult, at_most
from bench.timing import cycle, time_each
from core.budget import RequestBudget
from retrieval.names import NameBook
from retrieval.resolver import DrugResolver
from states.understander import UnderstandingRequest

TITLE = "rules understanding per turn (resolver + rules understander)"
TURNS = 3_000
TARGET_P50_MS = 1.0


def run() -> GroupResult:
    from states.rules_understander import RulesUnderstander

    names = fixture_names()
    resolver = DrugResolver(names)
    rules = RulesUnderstander(NameBook(names))
    texts = labelled_texts()
    turns = cycle(texts, TURNS)
    budget = RequestBudget()

    def understand(text: str) -> None:
        candidates = resolver.resolve(text)
        rules.understand(UnderstandingRequest(text=text, candidates=candidates), budget)

    both = Distribution.of(time_each(understand, turns, warmup=len(texts)))
    resolve_only = Distribution.of(time_each(resolver.resolve, turns, warmup=50))
    requests = [UnderstandingRequest(text=t, candidates=resolver.resolve(t)) for t in texts]
    rules_only = Distribution.of(time_each(lambda r: rules.understand(r, budget), cycle(requests, TURNS), warmup=50))

    result = GroupResult(group="understanding", title=TITLE)
    result.figures["resolver + rules understander, per turn"] = both
    result.figures["resolver alone (rapidfuzz)"] = resolve_only
    result.figures["rules understander alone"] = rules_only
    result.setup = {
        "turns": f"{len(texts)} texts of fixtures/labelled/understanding.jsonl, cycled to {TURNS} turns",
        "names": f"{len(names)} drugs of the fixture formulary (names, aliases, brands)",
    }
    result.targets.append(at_most(3, "rules understanding per turn, p50", both.p50, TARGET_P50_MS, "ms",
                                  label="p50 "))
    return result
