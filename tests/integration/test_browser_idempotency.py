"""The chat page sends one Idempotency-Key per user turn (issue #19, item 6), in a real browser against a real
server: a turn whose reply was lost on the way back is resent with the same key, and stored once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.integration.browser import chromium_browser
from tests.integration.http_support import PAEDIATRIC_QUESTION, ServeProcess

pytestmark = [pytest.mark.integration, pytest.mark.browser]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    with ServeProcess(tmp_path / "data") as s:
        yield s


def test_a_turn_whose_reply_was_lost_is_resent_with_its_key_and_stored_once(server: ServeProcess) -> None:
    from playwright.sync_api import Route, expect

    keys: list[str] = []
    lose_next = {"reply": True}

    def on_query(route: Route) -> None:
        keys.append(route.request.headers.get("idempotency-key", ""))
        response = route.fetch()  # the server runs and stores the turn
        if lose_next.pop("reply", False):
            route.abort("connectionreset")  # … but its reply never reaches the page
            return
        route.fulfill(response=response)

    with chromium_browser() as browser:
        page = browser.new_page(locale="vi-VN")
        page.route("**/v1/rag/query", on_query)
        page.goto(server.url + "/")
        replies = page.get_by_test_id("reply")
        box = page.get_by_label("Câu hỏi")
        send = page.get_by_role("button", name="Gửi")

        box.fill(PAEDIATRIC_QUESTION)
        send.click()
        expect(page.get_by_test_id("error")).to_have_count(1)
        expect(box).to_have_value(PAEDIATRIC_QUESTION)  # kept for the resend
        send.click()
        expect(replies).to_have_count(1)
        expect(replies.nth(0)).to_have_attribute("data-reason", "missing_pediatric_age_or_weight")

        box.fill("Bé nặng 18 kg")
        send.click()
        expect(replies).to_have_count(2)
        conversation_id = page.evaluate("localStorage.getItem('formulary.conversation_id')")

    assert len(keys) == 3 and all(keys)
    assert keys[0] == keys[1] != keys[2]  # the resend reused its key; the next turn has its own
    body: dict[str, Any] = httpx.get(f"{server.url}/v1/conversations/{conversation_id}", timeout=30).json()
    assert [t["user_text"] for t in body["turns"]] == [PAEDIATRIC_QUESTION, "Bé nặng 18 kg"]
