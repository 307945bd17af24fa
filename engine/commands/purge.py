"""`formulary-fsm purge [--days N]`: delete conversations (and their turns) idle for more than N days."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime, timedelta

from engine.config import load_settings
from engine.wiring import open_store


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--days",
        type=int,
        default=None,
        help="Maximum age in days since a conversation's last turn (default: RETENTION_DAYS, 90)",
    )


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    days = settings.retention_days if args.days is None else args.days
    if days < 0:
        raise SystemExit("formulary-fsm purge: --days must be 0 or more")
    now = datetime.now(UTC)
    longest = (now - datetime.min.replace(tzinfo=UTC)).days
    if days > longest:
        raise SystemExit(f"formulary-fsm purge: --days {days} reaches back before the year 1; give at most "
                         f"{longest} (every conversation older than that is already covered)")
    cutoff = now - timedelta(days=days)
    store = open_store(settings)
    try:
        deleted = store.purge(cutoff)
    finally:
        store.close()
    print(f"purged {deleted} conversation(s) with no turn since {cutoff:%Y-%m-%d %H:%M} UTC ({days} days)")
    return 0
