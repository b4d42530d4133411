"""The refused calls' list, for superusers, in Korean and in English: on a 1366 px screen every column fits
without scrolling sideways, and the dashboard says how much the call log grew in the last day; screenshots
at 1366 and 390 px."""

from pathlib import Path

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.browser.login import log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


@pytest.mark.parametrize(
    ("language", "title", "grew"), [("ko", "거부된 호출", "늘었습니다"), ("en", "refused calls", "grew by")]
)
def test_the_refused_calls_list_fits_and_the_dashboard_tells_the_growth(page, live_server, language, title, grew):
    caller = Client()
    for index in range(6):
        address = f"203.0.113.{index}"
        assert (
            caller.post("/bookings", b"x" * 20_000, content_type="application/json", REMOTE_ADDR=address).status_code
            == 403
        )
    superuser = UserFactory(is_staff=True, is_superuser=True)
    page.set_viewport_size({"width": 1366, "height": 900})
    log_in(page, live_server, superuser, language)

    expect(page.locator("body")).to_contain_text(grew)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"dashboard-call-log-{language}.png"), full_page=True)
    page.goto(f"{live_server.url}/admin/bookings/refusedcall/")
    expect(page.locator("#result_list tbody tr")).to_have_count(6)
    expect(page.locator("#result_list tbody tr").first).to_contain_text("203.0.113.5")
    expect(page.locator(".paginator")).to_contain_text(title)
    page.screenshot(path=str(SCREENSHOTS / f"refused-calls-{language}-1366.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    box = page.locator("#changelist .results").bounding_box()
    last = page.locator("#result_list thead th").last.bounding_box()
    assert last["x"] + last["width"] <= box["x"] + box["width"] + 1, (last, box)
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    expect(page.locator("#result_list tbody tr")).to_have_count(6)
    page.screenshot(path=str(SCREENSHOTS / f"refused-calls-{language}-390.png"), full_page=True)
