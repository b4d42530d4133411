"""The superuser's chart of the last 24 hours on the dashboard (sends to the hub by hour, the backlog, the
vendor API's answers by code), at 1366 px, in Korean and English, in a real browser (VH_SCREENSHOTS=folder
keeps the screenshots)."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.login import log_in
from tests.config.test_dashboard import activity_data
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "ko": {
        "title": "최근 24시간",
        "sends": "허브 전송",
        "ok": "성공 41",
        "failed": "실패 2",
        "code": "3000 잘못된 입력",
    },
    "en": {
        "title": "The last 24 hours",
        "sends": "Sends to the hub",
        "ok": "41 ok",
        "failed": "2 failed",
        "code": "3000 Bad input",
    },
}


@pytest.mark.parametrize("language", ["ko", "en"])
def test_a_superuser_reads_the_last_day_at_a_glance(page, live_server, shots, language):
    activity_data(timezone.now() - timedelta(minutes=1))
    user = UserFactory(is_staff=True, is_superuser=True)
    page.set_viewport_size({"width": 1366, "height": 1000})
    log_in(page, live_server, user, language)

    chart = page.locator(".activity")
    texts = TEXTS[language]
    expect(chart.locator("h2")).to_have_text(texts["title"])
    expect(chart.locator(".activity-sends figcaption")).to_contain_text(texts["sends"])
    expect(chart.locator(".activity-legend")).to_contain_text(texts["ok"])
    expect(chart.locator(".activity-legend")).to_contain_text(texts["failed"])
    expect(chart.locator(".activity-answers")).to_contain_text(texts["code"])
    # 24 hourly columns, the busiest as tall as the chart; the late backlog drawn as a problem.
    expect(chart.locator(".activity-hours g")).to_have_count(24)
    expect(chart.locator(".activity-backlog .backlog-late")).to_have_count(1)
    chart.screenshot(path=shots / f"dashboard-activity-{language}.png")
    page.screenshot(path=shots / f"dashboard-{language}.png", full_page=True)
    # In the dashboard's column (Django's, 600 px) the panels stand one under the other, each within the
    # column, every label on one line, and nothing is wider than the page.
    column = page.locator("#content").bounding_box()
    boxes = [chart.locator(f".activity-{name}").bounding_box() for name in ("sends", "backlog", "answers")]
    assert [box["y"] for box in boxes] == sorted(box["y"] for box in boxes)
    for box in boxes:
        assert box["x"] + box["width"] <= column["x"] + column["width"] + 1, (box, column)
    labels = chart.locator(".activity-bar-label")
    size = labels.first.evaluate("element => parseFloat(getComputedStyle(element).fontSize)")
    for index in range(labels.count()):
        assert labels.nth(index).bounding_box()["height"] < 2 * size, labels.nth(index).inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
