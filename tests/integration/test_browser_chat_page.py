"""What a parent on a phone sees on the chat page (Debian's Chromium, Playwright, a real `serve` subprocess):
the synthetic-data notice first, plain labels (codes only in details), badges that tell outcomes apart and none
on a greeting, emphasis instead of asterisks, each citation once, and the whole conversation back after a reload."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.browser import chromium_browser
from tests.integration.http_support import PAEDIATRIC_QUESTION, ServeProcess

pytestmark = [pytest.mark.integration, pytest.mark.browser]

CHILD_DOSE = "Liều paracetamol cho bé 5 tuổi nặng 18 kg đường uống"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    with ServeProcess(tmp_path_factory.mktemp("chat") / "data") as s:
        yield s


@pytest.fixture
def page(server: ServeProcess) -> Iterator[Any]:
    with chromium_browser() as browser:
        context = browser.new_context(locale="vi-VN", viewport={"width": 420, "height": 900})  # a phone
        tab = context.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda e: errors.append(str(e)))
        # The browser asks for /favicon.ico on its own; any other failure or CSP refusal is the page's.
        tab.on("console", lambda m: errors.append(m.text) if m.type == "error"
               and "favicon" not in (m.location or {}).get("url", "") else None)
        tab.goto(server.url + "/")
        yield tab
        assert errors == [], f"console errors (a CSP violation shows here): {errors}"


def _ask(page: Any, text: str) -> Any:
    from playwright.sync_api import expect

    replies = page.get_by_test_id("reply")
    before = replies.count()
    page.get_by_label("Câu hỏi").fill(text)
    page.get_by_role("button", name="Gửi").click()
    expect(replies).to_have_count(before + 1)
    return replies.nth(before)


def test_the_synthetic_data_notice_is_shown_before_the_first_question(page: Any) -> None:
    from playwright.sync_api import expect

    notice = page.get_by_test_id("synthetic-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("dữ liệu thử nghiệm tổng hợp")
    expect(page.get_by_test_id("reply")).to_have_count(0)


def test_reasons_are_shown_in_plain_words_and_codes_only_in_the_details_view(page: Any) -> None:
    from playwright.sync_api import expect

    reply = _ask(page, PAEDIATRIC_QUESTION)
    expect(reply).to_have_attribute("data-reason", "missing_pediatric_age_or_weight")
    visible = reply.inner_text()
    assert "Cần tuổi và cân nặng của trẻ" in visible
    assert "missing_pediatric_age_or_weight" not in visible and "clarify" not in visible
    reply.locator("details.tech summary").click()
    expect(reply.locator("details.tech")).to_contain_text("missing_pediatric_age_or_weight")


def test_badges_tell_the_four_outcomes_apart_and_a_greeting_or_thanks_wears_none(page: Any) -> None:
    greeting = _ask(page, "xin chào")
    thanks = _ask(page, "cảm ơn nhé")
    assert greeting.get_by_test_id("badge").count() == 0 and thanks.get_by_test_id("badge").count() == 0
    assert "Xin chào" not in thanks.inner_text() and "Không có gì" in thanks.inner_text()
    badges = {
        "answerable": _ask(page, "Paracetamol có chỉ định gì?"),
        "clarify": _ask(page, "Liều ibuprofen?"),
        "verify_pdf": _ask(page, "warfarin với ciprofloxacin"),
        "abstain": _ask(page, "cetirizin và amlodipin có tương tác không"),
    }
    texts = {}
    for outcome, reply in badges.items():
        assert reply.get_attribute("data-outcome") == outcome
        texts[outcome] = reply.get_by_test_id("badge").inner_text()
    assert texts["answerable"] == "Có căn cứ trong Dược thư"
    assert len(set(texts.values())) == 4, texts


def test_emphasis_in_quotes_is_rendered_and_no_asterisk_is_shown(page: Any) -> None:
    answer = _ask(page, CHILD_DOSE)
    assert answer.get_attribute("data-outcome") == "answerable", answer.inner_text()
    quote = answer.locator(".citation blockquote").first
    assert quote.locator("em").count() >= 1
    assert "*" not in answer.inner_text()


def test_a_citation_sent_several_times_is_listed_once(page: Any, server: ServeProcess) -> None:
    def tripled(route: Any) -> None:
        response = route.fetch()
        body = response.json()
        body["citations"] = body["citations"] * 3  # the same citation three times, as once reported
        route.fulfill(response=response, body=json.dumps(body), headers={**response.headers})

    page.route("**/v1/rag/query", tripled)
    answer = _ask(page, "Paracetamol có chỉ định gì?")
    doc_ids = answer.locator(".citation").evaluate_all("items => items.map(i => i.dataset.docId)")
    assert doc_ids and len(doc_ids) == len(set(doc_ids))


def test_a_reload_restores_the_whole_conversation_with_its_citations(page: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    _ask(page, "Liều paracetamol cho trẻ em")
    _ask(page, "bé 5 tuổi nặng 18 kg")
    answer = _ask(page, "Uống")
    assert answer.get_attribute("data-outcome") == "answerable"
    before = page.get_by_test_id("reply").all_inner_texts()
    citations = answer.locator(".citation").count()
    assert citations >= 1

    page.reload()
    replies = page.get_by_test_id("reply")
    expect(replies).to_have_count(len(before))
    assert replies.all_inner_texts() == before
    restored = replies.nth(len(before) - 1)
    expect(restored.locator(".citation")).to_have_count(citations)
    expect(restored.locator(".citation blockquote").first).not_to_be_empty()
    page.screenshot(path=str(tmp_path / "reloaded.png"), full_page=True)


def test_a_sixteen_year_old_is_not_called_be(page: Any) -> None:
    _ask(page, "Liều paracetamol cho trẻ em")
    question = _ask(page, "cháu 16 tuổi")
    text = question.inner_text()
    assert "Cháu 16 tuổi" in text and "bé" not in text.lower()
