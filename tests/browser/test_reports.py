"""The reports in the browser, in Korean and English at 1366 and 390 px: the chart is drawn from our own
Chart.js under the strict Content-Security-Policy (no console error), the table's every column shows at
1366 px, and the page never scrolls sideways."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.bookings.factories import create_body, sellable
from tests.bookings.signing import HubClient
from tests.browser.login import second_factor
from tests.factories import PASSWORD, member
from tests.integration.ari.factories import day

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["ko", "en"])
def test_each_report_draws_its_chart_and_fits_the_screen(page, live_server, shots, language):
    _room_type, standalone, _package = sellable(allotment=5)
    hub = HubClient(Client())
    for first in range(1, 5):
        number = hub.post("/bookings", create_body(standalone, first=first, nights=2)).json()["vendor_booking_number"]
        assert hub.put(f"/bookings/{number}/confirm").status_code == 200
    user = member(standalone.property, "manager")
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page.goto(f"{live_server.url}/admin/login/?next=/admin/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, user)
    expect(page.locator(".property-card-charts svg")).to_have_count(2)
    dates = f"start={day(1)}&end={day(10)}"
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        for kind in ("performance", "pickup", "pace", "channels", "bookings"):
            page.goto(f"{live_server.url}/admin/reports/dailyfigure/?report={kind}&{dates}")
            page.wait_for_load_state("load")
            drawn = page.wait_for_function("window.Chart && window.Chart.getChart('report-chart') !== undefined")
            assert drawn
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            if width == 1366:
                box = page.locator(".vh-report-table").bounding_box()
                last = page.locator(".vh-report-table thead th").last.bounding_box()
                assert last["x"] + last["width"] <= box["x"] + box["width"] + 1, kind
            page.screenshot(path=str(shots / f"reports-{kind}-{language}-{width}.png"), full_page=True)
    assert errors == []
