"""The chat page in a real browser: Debian's Chromium, driven by Playwright, against a real server.

A paediatric dose question, its clarifying questions answered by typing and by clicking the route chip,
and a cited answer on the page. A screenshot of the finished conversation is saved in the test's tmp dir.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.browser import chromium_browser
from tests.integration.http_support import PAEDIATRIC_QUESTION, ServeProcess

pytestmark = [pytest.mark.integration, pytest.mark.browser]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    with ServeProcess(tmp_path / "data") as s:
        yield s


def test_a_paediatric_dose_question_is_clarified_and_answered_with_citations_in_the_browser(
    server: ServeProcess, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    with chromium_browser() as browser:
        page = browser.new_page(locale="vi-VN")
        page.goto(server.url + "/")
        expect(page).to_have_title("Tra cứu Dược thư Quốc gia")
        replies = page.get_by_test_id("reply")
        box = page.get_by_label("Câu hỏi")

        box.fill(PAEDIATRIC_QUESTION)
        page.get_by_role("button", name="Gửi").click()
        expect(replies).to_have_count(1)
        expect(replies.nth(0)).to_have_attribute("data-outcome", "clarify")
        expect(replies.nth(0)).to_have_attribute("data-reason", "missing_pediatric_age_or_weight")

        box.fill("Bé nặng 18 kg")
        box.press("Enter")
        expect(replies).to_have_count(2)
        expect(replies.nth(1)).to_contain_text("18 kg")

        box.fill("5 tuổi")
        box.press("Enter")
        expect(replies).to_have_count(3)
        expect(replies.nth(2)).to_have_attribute("data-reason", "ambiguous_route")

        replies.nth(2).get_by_role("button", name="Uống", exact=True).click()
        expect(replies).to_have_count(4)
        answer = replies.nth(3)
        expect(answer).to_have_attribute("data-outcome", "answerable")
        citation = answer.locator(".citation").first
        expect(citation).to_be_visible()
        expect(citation).to_contain_text("Paracetamol")
        expect(citation.locator("blockquote")).not_to_be_empty()
        assert (citation.get_attribute("data-doc-id") or "").startswith("paracetamol__lieu_luong_cach_dung")
        expect(page.get_by_test_id("error")).to_have_count(0)
        # The answered question's chips can no longer be sent.
        expect(replies.nth(2).get_by_role("button", name="Uống", exact=True)).to_be_disabled()

        page.screenshot(path=str(tmp_path / "chat.png"), full_page=True)
    assert (tmp_path / "chat.png").stat().st_size > 0
