"""The exported SVG parses and review.html renders in a real browser, for printing and sign-off."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from engine.fingerprint import spec_fingerprint
from engine.review.dot import dot_available
from engine.review.export import write_export
from engine.spec import build_spec
from tests.integration.browser import CHROMIUM_ARGS, require_chromium

pytestmark = [pytest.mark.integration]


def test_svg_parses_and_names_every_state(tmp_path: Path) -> None:
    if not dot_available():
        pytest.skip("graphviz not installed")
    spec = build_spec()
    write_export(spec, tmp_path)
    root = ET.parse(tmp_path / "machine.svg").getroot()
    assert root.tag.endswith("svg")
    text = " ".join(t for t in root.itertext())
    for s in spec.states:
        assert f"({s.name})" in text
    assert spec_fingerprint(spec)[:12] in text


@pytest.mark.browser
def test_review_page_renders_in_chromium_with_diagram_and_tables(tmp_path: Path) -> None:
    chromium = require_chromium()
    from playwright.sync_api import sync_playwright

    spec = build_spec()
    write_export(spec, tmp_path)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto((tmp_path / "review.html").as_uri())
        assert page.inner_text("#fingerprint") == spec_fingerprint(spec)
        assert page.locator("#routing tr").count() == 1 + sum(1 for t in spec.transitions if t.row)
        if dot_available():
            box = page.locator(".routing-diagram svg").bounding_box()
            assert box is not None and box["width"] > 100 and box["height"] > 50
            phases = page.locator(".diagram.phase svg")
            assert phases.count() == 4
            for n in range(4):
                drawn = phases.nth(n).bounding_box()
                # Drawn at their own size (scrolling sideways if need be), never shrunk to the column.
                assert drawn is not None and drawn["height"] > 150, n
                assert page.locator(".diagram.phase text").first.evaluate(
                    "t => parseFloat(getComputedStyle(t).fontSize)") >= 11
        page.screenshot(path=str(tmp_path / "review.png"), full_page=True)
        browser.close()
    assert (tmp_path / "review.png").stat().st_size > 10_000
