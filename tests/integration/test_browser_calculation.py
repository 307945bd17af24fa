"""The chat page shows the dosing calculator's arithmetic under the answer (real Chromium, real server)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.browser import chromium_browser
from tests.integration.http_support import ServeProcess

pytestmark = [pytest.mark.integration, pytest.mark.browser]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServeProcess]:
    with ServeProcess(tmp_path / "data") as s:
        yield s


def test_the_capped_amount_and_where_each_number_comes_from_are_shown_under_the_answer(
    server: ServeProcess, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    with chromium_browser() as browser:
        page = browser.new_page(locale="vi-VN")
        page.goto(server.url + "/")
        page.get_by_label("Câu hỏi").fill("Trẻ 15 tuổi nặng 60 kg uống ciprofloxacin liều bao nhiêu?")
        page.get_by_role("button", name="Gửi").click()
        answer = page.get_by_test_id("reply").nth(0)
        expect(answer).to_have_attribute("data-outcome", "answerable")
        calculation = answer.get_by_test_id("calculation")
        expect(calculation).to_contain_text("10–20 mg/kg × 60 kg = 600–1 200 mg/lần")
        expect(calculation).to_contain_text("giới hạn ở 600–750 mg/lần")
        calculation.get_by_text("Nguồn của từng số").click()
        expect(calculation).to_contain_text("60 kg ← cân nặng bạn cho biết")
        expect(calculation).to_contain_text("ciprofloxacin__lieu_luong_cach_dung")
        page.screenshot(path=str(tmp_path / "calculation.png"), full_page=True)
