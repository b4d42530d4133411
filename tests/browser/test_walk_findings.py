"""What the browser walk found, fixed and kept so (issue 40), in Korean and English at 1366 and 390 px: the
license list and the inbound calls list show their last column, a long typed date does not widen the
bookings page, the front desk's arrivals list (party, request, marks) fits and prints, the inbox's
choices page fits, and /api/docs/ loads nothing from outside."""

import datetime
import urllib.parse

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from bookings.models import Booking, InboundCall
from bookings.services import booking_desk_mark
from core.dates import KOREA, korea_today
from licenses.choices import ReviewStatus
from tests.bookings.factories import create_body, sellable
from tests.bookings.signing import HubClient
from tests.browser.login import log_in
from tests.factories import UserFactory, member
from tests.licenses.factories import BusinessLicenseRequestFactory, LicenseRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["ko", "en"]
WIDTHS = [1366, 390]


def window(page, width):
    page.set_viewport_size({"width": width, "height": 844 if width == 390 else 768})


def page_width(page):
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth")


def cut_cells(page):
    """The list's cells (header and rows) that end past the window's right edge or are clipped by the list's
    box: a column cut off."""
    return page.evaluate(
        """() => {
          const right = document.documentElement.clientWidth;
          const box = document.querySelector('#changelist .results') || document.body;
          const edge = Math.min(right, box.getBoundingClientRect().right);
          return [...document.querySelectorAll('#result_list th, #result_list td')]
            .filter(cell => cell.offsetParent !== null && cell.getBoundingClientRect().right > edge + 1)
            .map(cell => cell.className || cell.textContent.trim().slice(0, 20));
        }"""
    )


@pytest.fixture
def arrivals():
    """A property with today's arrivals (bookings of tomorrow moved to today): one with a long request, one
    checked in, and a canceled one."""
    _room_type, standalone, _package = sellable(allotment=30)
    hub = HubClient(Client())
    today = datetime.datetime.combine(korea_today(), datetime.time(15), tzinfo=KOREA)
    numbers = []
    for n, comment in enumerate(["늦게 도착합니다. 22시쯤 체크인 예정, 주차 공간 필요합니다.", "", "아기 침대 요청"]):
        guest = {"name": f"김민지 {n}", "adults": 2, "children": n, "infants": 0, "pets": 0, "cars": 1}
        body = create_body(standalone, guest=guest, special_comment=comment)
        number = hub.post("/bookings", body).json()["vendor_booking_number"]
        hub.put(f"/bookings/{number}/confirm")
        numbers.append(number)
    Booking.objects.filter(vendor_booking_number__in=numbers).update(checkin=today)
    booking_desk_mark(
        booking_id=Booking.objects.get(vendor_booking_number=numbers[1]).pk,
        status=Booking.Desk.CHECKED_IN,
        user=UserFactory(),
    )
    assert hub.post(f"/bookings/{numbers[2]}/cancel").status_code == 200
    return standalone.property


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_arrivals_list_fits_shows_party_and_request_and_prints(page, live_server, arrivals, language, width, shots):
    window(page, width)
    log_in(page, live_server, member(arrivals, "staff"), language)
    page.goto(live_server.url + reverse("admin:bookings_booking_changelist") + "?desk=arrivals")

    page.screenshot(path=str(shots / f"arrivals-{language}-{width}.png"), full_page=True)
    assert page_width(page) <= width
    assert cut_cells(page) == []
    expect(page.locator("#result_list .field-party", has_text="22")).to_be_visible()
    expect(page.locator("#result_list .booking-desk-checked_in")).to_be_visible()

    page.emulate_media(media="print")
    page.screenshot(path=str(shots / f"arrivals-print-{language}-{width}.png"), full_page=True)
    expect(page.locator(".desk-print-title")).to_be_visible()
    for hidden in ("#header", "#changelist-filter", ".desk-tabs", ".actions"):
        assert page.locator(hidden).first.is_hidden() or page.locator(hidden).count() == 0, hidden
    expect(page.locator("#result_list .field-party").first).to_be_visible()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", WIDTHS)
def test_a_long_typed_date_does_not_widen_the_bookings_page(page, live_server, arrivals, language, width, shots):
    window(page, width)
    log_in(page, live_server, member(arrivals, "staff"), language)
    typed = "2026-12-04" * 40
    query = urllib.parse.urlencode({"desk": "arrivals", "on": typed})
    page.goto(live_server.url + reverse("admin:bookings_booking_changelist") + "?" + query)

    page.screenshot(path=str(shots / f"bookings-long-date-{language}-{width}.png"), full_page=True)
    expect(page.locator("#desk-date-error")).to_be_visible()
    assert page_width(page) <= width


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_booking_page_offers_the_front_desks_marks(page, live_server, arrivals, language, width, shots):
    window(page, width)
    log_in(page, live_server, member(arrivals, "staff"), language)
    booking = Booking.objects.filter(property=arrivals, desk_status="", status=Booking.Status.CONFIRMED).get()
    page.goto(live_server.url + reverse("admin:bookings_booking_change", args=[booking.pk]))

    page.screenshot(path=str(shots / f"booking-desk-{language}-{width}.png"), full_page=True)
    assert page_width(page) <= width
    page.click(".booking-desk-actions button.booking-desk-checked_in")
    expect(page.locator(".messagelist .success")).to_be_visible()
    expect(page.locator(".booking-desk-actions button.booking-desk-checked_out")).to_be_visible()
    page.screenshot(path=str(shots / f"booking-desk-marked-{language}-{width}.png"), full_page=True)
    booking.refresh_from_db()
    assert booking.desk_status == Booking.Desk.CHECKED_IN


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_license_list_shows_its_status_column_at_1366(page, live_server, language, shots):
    prop = sellable()[0].property
    for n in range(3):
        LicenseRequestFactory(property=prop, hub_id=100 + n, status=ReviewStatus.CONFIRM)
    BusinessLicenseRequestFactory(
        property=prop,
        hub_id=200,
        status=ReviewStatus.REJECT,
        reason="사업자등록증 사본이 흐릿하여 등록번호를 읽을 수 없습니다. 다시 스캔하여 올려 주세요.",
    )
    window(page, 1366)
    log_in(page, live_server, member(prop, "manager"), language)
    page.goto(live_server.url + reverse("admin:licenses_licenserequest_changelist"))

    page.screenshot(path=str(shots / f"licenses-{language}-1366.png"), full_page=True)
    assert page_width(page) <= 1366
    assert cut_cells(page) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_inbound_calls_list_shows_its_last_column_at_1366(page, live_server, arrivals, language, shots):
    number = Booking.objects.filter(property=arrivals).first().vendor_booking_number
    for n in range(3):
        InboundCall.objects.create(
            method="PUT",
            path=f"/vendor/bookings/{number}/confirm?trace=%EC%98%88%EC%95%BD-{n}-" + "x" * 60,
            status=409,
            duration_ms=12,
            code="4007",
            booking_number=number,
            created_at=timezone.now(),
        )
    window(page, 1366)
    log_in(page, live_server, UserFactory(is_superuser=True, is_staff=True), language)
    page.goto(live_server.url + reverse("admin:bookings_inboundcall_changelist"))

    page.screenshot(path=str(shots / f"inbound-calls-{language}-1366.png"), full_page=True)
    assert page_width(page) <= 1366
    assert cut_cells(page) == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_inbox_choices_page_fits(page, live_server, arrivals, language, width, shots):
    window(page, width)
    log_in(page, live_server, member(arrivals, "staff", email="desk@example.com"), language)
    page.goto(live_server.url + reverse("admin:inbox_event_choices"))

    page.screenshot(path=str(shots / f"inbox-choices-{language}-{width}.png"), full_page=True)
    assert page_width(page) <= width
    page.uncheck(f"#shown-{arrivals.pk}")
    page.click(".submit-row input[type=submit]")
    expect(page.locator(".messagelist .success")).to_be_visible()
    expect(page.locator(f"#shown-{arrivals.pk}")).not_to_be_checked()


def test_the_api_docs_load_nothing_from_outside(page, live_server, shots):
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    refused = []
    page.on(
        "console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None
    )

    page.goto(live_server.url + "/api/docs/")
    page.wait_for_load_state("networkidle")

    page.screenshot(path=str(shots / "api-docs.png"), full_page=True)
    outside = [url for url in requested if not url.startswith((live_server.url, "data:", "blob:"))]
    assert outside == []
    assert refused == []
