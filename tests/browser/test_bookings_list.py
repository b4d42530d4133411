"""The bookings list and the call log on a 1366 px wide screen, in Korean and in English: every column
fits without scrolling sideways, amounts have thousands separators."""

from pathlib import Path

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.bookings.factories import create_body, sellable
from tests.bookings.signing import HubClient
from tests.browser.login import second_factor
from tests.factories import PASSWORD, member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
WIDTH = 1366


def assert_no_sideways_scrolling(page):
    """Neither the page nor the list (the admin lets a wide table scroll inside its box) is wider than
    the screen shows: the list's last column ends inside the box."""
    page.wait_for_load_state("load")  # the stylesheets applied
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    box = page.locator("#changelist .results").bounding_box()
    last = page.locator("#result_list thead th").last.bounding_box()
    assert last["x"] + last["width"] <= box["x"] + box["width"] + 1, (last, box)


@pytest.mark.parametrize(
    ("language", "title", "amount"), [("ko", "예약", "110,000 KRW"), ("en", "bookings", "110,000 KRW")]
)
def test_the_bookings_list_fits_1366_pixels(page, live_server, language, title, amount):
    _room_type, standalone, _package = sellable(allotment=30)
    hub = HubClient(Client())
    for n in range(12):
        guest = {"name": f"김민지 Kim Minji {n}", "adults": 2, "children": 0, "infants": 0, "pets": 0, "cars": 0}
        assert hub.post("/bookings", create_body(standalone, first=1 + n % 5, guest=guest)).status_code == 200
    user = member(standalone.property, "manager")
    page.set_viewport_size({"width": WIDTH, "height": 900})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page.goto(f"{live_server.url}/admin/login/?next=/admin/bookings/booking/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, user)

    expect(page.locator("#result_list tbody tr")).to_have_count(12)
    expect(page.locator("#result_list tbody tr").first).to_contain_text(amount)
    expect(page.locator(".paginator")).to_contain_text(title)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"bookings-list-{language}.png"), full_page=True)
    assert_no_sideways_scrolling(page)

    page.goto(f"{live_server.url}/admin/bookings/inboundcall/")
    expect(page.locator("#result_list tbody tr")).to_have_count(12)
    page.screenshot(path=str(SCREENSHOTS / f"call-log-{language}.png"), full_page=True)
    assert_no_sideways_scrolling(page)
