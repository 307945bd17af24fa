"""The turn pool's default size follows the work and the store (measured in bench/RESULTS.md, http group)."""

from __future__ import annotations

from engine.config import load_settings


def test_offline_turns_on_sqlite_get_a_small_pool_because_sqlite_has_one_writer() -> None:
    assert load_settings(database_url=None).turn_threads == 4


def test_offline_turns_on_postgresql_get_a_small_pool_too_because_more_threads_only_queue_on_the_gil() -> None:
    assert load_settings(database_url="postgresql+psycopg://u@127.0.0.1/db").turn_threads == 4


def test_turns_that_wait_on_claude_get_many_threads_whatever_the_store() -> None:
    settings = load_settings(answer_provider="anthropic", anthropic_api_key="k", database_url=None)
    assert settings.turn_threads == 32


def test_an_explicit_worker_threads_wins_over_every_default() -> None:
    assert load_settings(worker_threads=7, database_url="postgresql://u@h/db").turn_threads == 7
