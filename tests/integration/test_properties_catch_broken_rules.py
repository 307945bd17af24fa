"""The properties can fail: run them against deliberately broken machines and expect a violation.

A property that passes whatever the machine does proves nothing. Each test breaks one safety rule, lets
hypothesis search the same transcript strategy the properties use, and requires it to find a conversation
the invariant checker rejects — and that the same conversation passes on the real spec.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, find, settings

from engine.context import TurnContext
from engine.runner import Engine
from engine.spec import build_spec
from engine.store.sql import SqlStore
from states import routing
from tests.engine_kit import EngineKit, run_checked
from tests.strategies import transcripts

pytestmark = pytest.mark.integration
SEARCH = settings(max_examples=3000, database=None, derandomize=True, deadline=None,
                  suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EngineKit]:
    kit = EngineKit(tmp_path_factory.mktemp("formulary-data-broken"))
    yield kit
    kit.close()


def _violations(engine: Engine, kit: EngineKit, turns: list[str]) -> list[str]:
    return run_checked(engine, kit.checker, turns)[1]


def _found(engine: Engine, kit: EngineKit, marker: str) -> list[str]:
    return find(transcripts(), lambda turns: any(marker in p for p in _violations(engine, kit, turns)),
                settings=SEARCH)


def _pediatric_weight_missing_only(ctx: TurnContext) -> bool:
    # The broken rule: a paediatric dose is asked for the weight, but the age requirement is gone.
    f = ctx.frame
    return routing.is_dosing_with_drugs(f) and f.population == "pediatric" and f.weight_kg is None


def test_properties_catch_a_pediatric_guard_that_ignores_age(kit: EngineKit) -> None:
    broken = build_spec().replace_guard("pediatric_age_or_weight_missing", _pediatric_weight_missing_only)
    store = SqlStore(kit.sqlite_url())
    try:
        example = _found(kit.engine(store, spec=broken), kit, "paediatric dosing answer without age and weight")
        assert _violations(kit.engine(store), kit, example) == []  # the real guard asks for the age instead
    finally:
        store.close()


def test_properties_catch_a_raised_clarify_streak_limit(kit: EngineKit) -> None:
    # MAX_CONSECUTIVE_CLARIFY raised to 20 in the engine; DESIGN's limit in the checker stays 4.
    store = SqlStore(kit.sqlite_url())
    try:
        example = _found(kit.engine(store, max_consecutive_clarify=20), kit, "in a row (limit 4)")
        assert _violations(kit.engine(store), kit, example) == []
    finally:
        store.close()

