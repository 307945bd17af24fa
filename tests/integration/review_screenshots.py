"""Screenshots of the review page for docs/review/ (Debian's Chromium through Playwright).

    .venv/bin/python -m tests.integration.review_screenshots docs/review

Renders the page in Vietnamese (the committed review.html) and in English (exported to a temporary directory),
and saves: the header with the sign-off block, the routing table, each phase diagram, the first example
conversations, and the English header.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from engine.config import Settings
from engine.review.examples import collect_examples
from engine.review.export import write_export
from engine.review.phases import PHASES
from engine.spec import build_spec
from tests.integration.browser import CHROMIUM_ARGS, require_chromium


def shoot(out: Path) -> list[Path]:
    chromium = require_chromium()
    spec = build_spec()
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        english = Path(tmp)
        write_export(spec, english, "en", signoffs=[], examples=collect_examples(spec, Settings()))
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto((out / "review.html").resolve().as_uri())
            shots = {"review-1-header-and-signoff.png": None, "review-2-routing-table.png": "#routing"}
            for name, selector in shots.items():
                target = out / name
                (page.locator(selector).screenshot(path=str(target)) if selector
                 else page.screenshot(path=str(target)))
                written.append(target)
            wide = browser.new_page(viewport={"width": 2300, "height": 1200})
            wide.goto((out / "review.html").resolve().as_uri())
            for n, phase in enumerate(PHASES, 1):
                target = out / f"review-3-phase-{n}-{phase.key}.png"
                wide.locator(f"#phase-{phase.key} svg").screenshot(path=str(target))
                written.append(target)
            top = page.evaluate("document.getElementById('examples').getBoundingClientRect().top + window.scrollY")
            target = out / "review-4-example-conversations.png"
            page.screenshot(path=str(target), full_page=True, clip={"x": 0, "y": top, "width": 1400, "height": 1800})
            written.append(target)
            page.goto((english / "review.html").as_uri())
            target = out / "review-5-english-header.png"
            page.screenshot(path=str(target))
            written.append(target)
        finally:
            browser.close()
    return written


if __name__ == "__main__":
    for path in shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/review")):
        print(path)
