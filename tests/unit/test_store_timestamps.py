"""The hot path writes timestamps as SQLAlchemy's SQLite DATETIME text, so rows written either way read alike."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from engine.store.hot_path import SQLITE_TIMESTAMP, _timestamp_sqlite


def test_a_timestamp_is_naive_utc_text_with_microseconds_always_written() -> None:
    hanoi = timezone(timedelta(hours=7))
    for moment in (datetime(2026, 12, 3, 12, 0, 0, tzinfo=UTC), datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC),
                   datetime(2026, 12, 4, 0, 30, 0, 12, tzinfo=hanoi)):
        assert _timestamp_sqlite(moment) == moment.astimezone(UTC).strftime(SQLITE_TIMESTAMP)
    assert _timestamp_sqlite(datetime(2026, 12, 3, 12, 0, 0, tzinfo=UTC)) == "2026-12-03 12:00:00.000000"
    assert _timestamp_sqlite(datetime(2026, 12, 4, 0, 30, 0, 12, tzinfo=hanoi)) == "2026-12-03 17:30:00.000012"
