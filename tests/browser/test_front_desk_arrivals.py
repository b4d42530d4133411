"""The front desk in a real browser, in Korean and English: tomorrow's arrivals picked in the date picker
(a canceled one struck through, a bad date said on the page), and a canceled booking's page, history and
print, at 1366 px and on a 390 px phone."""

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from bookings.models import Booking
from integration.access.choices import MembershipRole
from tests.bookings.factories import create_body, sellable
from tests.bookings.signing import HubClient
from tests.browser.login import second_factor
from tests.factories import PASSWORD, member
from tests.integration.ari.factories import day

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = pytest.mark.parametrize("language", ["ko", "en"])
SIZES = {"1366": {"width": 1366, "height": 768}, "390": {"width": 390, "height": 844}}
TEXTS = {
    "ko": {
        "arrivals": "도착",
        "show": "보기",
        "canceled": "취소됨",
        "banner": "에 취소되었습니다.",
        "bad": "“2026-02-30”은(는) 날짜가 아닙니다.",
        "calls": "이 예약에 대한 허브의 호출",
    },
    "en": {
        "arrivals": "Arrivals",
        "show": "Show",
        "canceled": "Canceled",
        "banner": "Canceled on ",
        "bad": "“2026-02-30” is not a date.",
        "calls": "Calls the hub made about this booking",
    },
}


@pytest.fixture
def desk():
    """A front desk member; tomorrow three arrivals (one canceled by the hub) and one the day after."""
    _room_type, standalone, _package = sellable(allotment=5, nights=5)
    hub = HubClient(Client())
    guests = ["김민지", "남궁민수", "Alexander Montgomery-Smith", "선우예린"]
    numbers = [
        hub.post("/bookings", create_body(standalone, first=2 if n == 3 else 1, guest=guest(name))).json()[
            "vendor_booking_number"
        ]
        for n, name in enumerate(guests)
    ]
    hub.put(f"/bookings/{numbers[0]}/confirm")
    hub.post(f"/bookings/{numbers[1]}/cancel")
    return member(standalone.property, MembershipRole.STAFF), numbers


def guest(name):
    return {"name": name, "adults": 2, "children": 0, "infants": 0, "pets": 0, "cars": 0}


def log_in(page, live_server, user, language):
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, user)
    expect(page.locator("#user-tools")).to_be_visible()


@LANGUAGES
def test_the_front_desk_picks_a_date_and_reads_its_arrivals(page, live_server, desk, shots, language):
    user, numbers = desk
    texts = TEXTS[language]
    page.set_viewport_size(SIZES["1366"])
    log_in(page, live_server, user, language)
    page.goto(f"{live_server.url}/admin/bookings/booking/")

    page.locator(".desk-tabs").get_by_role("link", name=texts["arrivals"], exact=True).click()
    expect(page.locator(".desk-tabs li.selected")).to_have_text(texts["arrivals"])
    page.fill("#desk-date", day(1).isoformat())
    page.locator(".desk-date").get_by_role("button", name=texts["show"]).click()

    rows = page.locator("#result_list tbody tr")
    expect(rows).to_have_count(3)
    assert numbers[3] not in page.locator("#result_list").inner_text()  # arrives the day after
    expect(page.locator("#desk-date")).to_have_value(day(1).isoformat())
    canceled = page.locator("#result_list tbody tr", has_text=numbers[1])
    expect(canceled.locator(".booking-canceled-badge")).to_have_text(texts["canceled"])
    assert canceled.locator("td.field-total").evaluate("e => getComputedStyle(e).textDecorationLine") == "line-through"
    confirmed = page.locator("#result_list tbody tr", has_text=numbers[0])
    assert confirmed.locator("td.field-total").evaluate("e => getComputedStyle(e).textDecorationLine") == "none"
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    page.screenshot(path=str(shots / f"desk-arrivals-1366-{language}.png"), full_page=True)
    page.set_viewport_size(SIZES["390"])
    expect(page.locator(".desk-tabs")).to_be_visible()
    page.screenshot(path=str(shots / f"desk-arrivals-390-{language}.png"), full_page=False)

    page.goto(f"{live_server.url}/admin/bookings/booking/?desk=arrivals&on=2026-02-30")
    expect(page.locator("#desk-date-error")).to_contain_text(texts["bad"])
    expect(page.locator("#result_list")).to_have_count(0)


@LANGUAGES
def test_a_canceled_booking_says_so_on_its_page_its_history_and_paper(page, live_server, desk, shots, language):
    user, numbers = desk
    texts = TEXTS[language]
    booking = Booking.objects.get(vendor_booking_number=numbers[1])
    page.set_viewport_size(SIZES["1366"])
    log_in(page, live_server, user, language)
    page.goto(f"{live_server.url}/admin/bookings/booking/{booking.pk}/change/")

    banner = page.locator(".booking-canceled-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(texts["banner"])
    assert banner.bounding_box()["y"] < page.locator("fieldset.module").first.bounding_box()["y"]
    page.screenshot(path=str(shots / f"desk-canceled-1366-{language}.png"), full_page=False)
    page.emulate_media(media="print")
    expect(banner).to_be_visible()
    box = banner.evaluate("e => { const s = getComputedStyle(e); return [s.borderTopStyle, s.borderTopColor]; }")
    assert box == ["solid", "rgb(0, 0, 0)"]  # a black box on paper (on screen: a red edge on the left only)
    page.screenshot(path=str(shots / f"desk-canceled-print-{language}.png"), full_page=True)
    page.emulate_media(media="screen")
    page.set_viewport_size(SIZES["390"])
    expect(banner).to_be_visible()
    page.screenshot(path=str(shots / f"desk-canceled-390-{language}.png"), full_page=False)

    page.set_viewport_size(SIZES["1366"])
    page.goto(f"{live_server.url}/admin/bookings/booking/{booking.pk}/history/")
    expect(page.locator(".booking-hub-calls h2")).to_have_text(texts["calls"])
    expect(page.locator(".booking-hub-calls tbody tr")).to_have_count(2)  # the create and the cancel
    expect(page.locator(".booking-hub-calls tbody tr").first).to_contain_text("/cancel")
    page.screenshot(path=str(shots / f"desk-history-1366-{language}.png"), full_page=False)
