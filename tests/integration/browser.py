"""Launching Debian's Chromium for browser tests (Playwright drives it; no browser download)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def require_chromium() -> str:
    """Chromium's path; in CI its absence fails the test (.ci/run installs it), elsewhere it skips."""
    path = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if not path:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (apt-get install chromium); .ci/run should have installed it")
        pytest.skip("chromium is not installed")
    return path


@contextmanager
def chromium_browser() -> Iterator[Browser]:
    """Debian's Chromium launched headless under Playwright, closed on exit (skips or fails as `require_chromium`)."""
    chromium = require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
