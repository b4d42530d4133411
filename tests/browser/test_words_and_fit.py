"""Pages fit the window, in Korean and English: no page is wider than a 1366 px screen (nor a 390 px phone,
where sensible), no list scrolls sideways inside its box at 1366, a phone shows each booking's status and
total; a refused page is the admin's own, translated, with its way back."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from bookings.models import Booking
from bookings.settlement.choices import Category, RunStatus
from bookings.settlement.models import Reconciliation
from core.dates import korea_today
from inbox.choices import EventKind
from inbox.services import event_record
from integration.content.resources import path_params
from integration.hub import endpoints
from integration.models import ResourceKind, SyncAttempt
from integration.sync.services.outbox import sync_state_ensure
from tests.bookings.factories import create_body, sellable
from tests.bookings.signing import HubClient
from tests.browser.login import log_in
from tests.factories import member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = ["ko", "en"]


@pytest.fixture
def selling():
    """A property with content and sync states, four bookings of Korean guests, one of them canceled."""
    room_type, standalone, package = sellable(allotment=30)
    for obj in (standalone.property, room_type, standalone, package):
        sync_state_ensure(obj)
    hub = HubClient(Client())
    numbers = []
    for n in range(4):
        guest = {"name": f"김민지 {n}", "adults": 2, "children": 0, "infants": 0, "pets": 0, "cars": 0}
        numbers.append(hub.post("/bookings", create_body(standalone, first=1 + n, guest=guest)).json())
    assert hub.post(f"/bookings/{numbers[0]['vendor_booking_number']}/cancel").status_code == 200
    return standalone.property


def settled(prop):
    """A finished reconciliation of prop's bookings (the report's widest table: ten columns)."""
    today = korea_today()
    reconciliation = Reconciliation.objects.create(
        date_from=today, date_to=today + datetime.timedelta(days=30), status=RunStatus.DONE
    )
    reconciliation.properties.set([prop])
    for booking in Booking.objects.filter(property=prop):
        reconciliation.rows.create(
            category=Category.AMOUNT_DIFFERS,
            vendor_booking_number=booking.vendor_booking_number,
            booking=booking,
            property=prop,
            date=today,
            month=today.replace(day=1),
            hub_status="confirm",
            our_status=booking.status,
            hub_total_amount=booking.total_amount + 1_000_000,
            our_total_amount=booking.total_amount,
            hub_net_price=booking.net_price,
            our_net_price=booking.net_price,
        )
    return reconciliation


def logged(prop):
    """Sync log rows of prop's widest kind: a rate plan's rates, one sent, one refused with the hub's reason."""
    rate_plan = prop.rate_plans.order_by("pk").first()
    state = sync_state_ensure(rate_plan, kind=ResourceKind.ARI_RATES)
    path = endpoints.ARI_RATES.path(**path_params(rate_plan))
    for status, outcome, message in (
        (200, SyncAttempt.Outcome.SUCCESS, ""),
        (400, SyncAttempt.Outcome.FAILED, "rates.0.date: must be within the next 365 days (2026-11-28 .. 2027-11-27)"),
    ):
        SyncAttempt.objects.create(
            state=state,
            property=prop,
            method="POST",
            path=path,
            request_body={},
            status_code=status,
            hub_message=message,
            outcome=outcome,
            duration_ms=83,
        )


def fits(page, width):
    """Neither the page nor a list inside its box is wider than the window shows."""
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wider = page.evaluate(  # a phone may scroll the settlement's wide tables inside their own box
        "width => [...document.querySelectorAll("
        "'#changelist .results, .module' + (width > 767 ? ', .settlement-scroll' : ''))]"
        ".filter(box => box.scrollWidth > box.clientWidth + 1).map(box => box.className)",
        width,
    )
    assert wider == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width", [1366, 390])
def test_the_pages_fit_the_window(page, live_server, selling, language, width, shots):
    manager = member(selling, "manager")
    page.set_viewport_size({"width": width, "height": 844 if width == 390 else 768})
    log_in(page, live_server, manager, language)
    pages = {
        "bookings": reverse("admin:bookings_booking_changelist"),
        "checklist": reverse("admin:integration_property_checklist", args=[selling.pk]),
        "licenses": reverse("admin:licenses_licenserequest_changelist"),
        "settlement": reverse("admin:settlement_reconciliation_change", args=[settled(selling).pk]),
    }
    # A long sentence beside a long property name on the inbox: its last column must stay on screen.
    type(selling).objects.filter(pk=selling.pk).update(name="서촌 한옥스테이 게스트하우스 본관")
    event_record(
        property_id=selling.pk,
        kind=EventKind.CHANNEL_OPENED,
        object_id=1,
        subject="The hub approved the channel Direct channel (CMS): it sells the property now.",
    )
    if width == 1366:  # on a phone the admin puts the filters under the list, which then scrolls in its box
        pages["sync-states"] = reverse("admin:integration_syncstate_changelist")
        logged(selling)
        pages["sync-log"] = reverse("admin:integration_syncattempt_changelist")
        pages["inbox"] = reverse("admin:inbox_event_changelist")
    for name, url in pages.items():
        page.goto(live_server.url + url)
        page.screenshot(path=str(shots / f"{name}-{language}-{width}.png"), full_page=True)
        fits(page, width)


@pytest.mark.parametrize(("language", "canceled"), [("ko", "취소됨"), ("en", "Canceled")])
def test_a_phone_shows_each_bookings_status_and_total(page, live_server, selling, language, canceled, shots):
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server, member(selling, "staff"), language)

    page.goto(live_server.url + reverse("admin:bookings_booking_changelist"))

    page.screenshot(path=str(shots / f"bookings-phone-{language}.png"), full_page=True)
    rows = page.locator("#result_list tbody tr")
    expect(rows).to_have_count(4)
    for row in rows.all():
        for column in ("state", "total"):
            box = row.locator(f".field-{column}").bounding_box()
            assert box, column
            assert box["x"] >= 0, (column, box)
            assert box["x"] + box["width"] <= 390, (column, box)
    expect(page.locator("#result_list .field-state", has_text=canceled)).to_be_visible()


@pytest.mark.parametrize(
    ("language", "title", "dashboard"),
    [
        ("ko", "이 페이지를 열 수 없습니다", "대시보드로 가기"),
        ("en", "You cannot open this page", "Go to the dashboard"),
    ],
)
def test_a_refused_page_is_the_admins_own_with_a_way_back(
    page, live_server, selling, language, title, dashboard, shots
):
    """Staff cannot see licenses: following a link there (typed, or an old bookmark) refuses inside the
    admin, in the reader's language, with the page they came from and the dashboard."""
    staff = member(selling, "staff")
    log_in(page, live_server, staff, language)
    came_from = live_server.url + reverse("admin:bookings_booking_changelist")
    page.goto(came_from)

    page.evaluate("url => { window.location.href = url; }", live_server.url + "/admin/licenses/licenserequest/")
    page.wait_for_url("**/licenses/licenserequest/")

    page.screenshot(path=str(shots / f"forbidden-{language}.png"), full_page=True)
    expect(page.locator("#content h1")).to_have_text(title)
    expect(page.locator("#language-switch")).to_be_visible()
    expect(page.locator("#forbidden-back")).to_have_attribute("href", came_from)
    page.click(f"text={dashboard}")
    expect(page.locator("#user-tools")).to_be_visible()
    assert page.url.rstrip("/").endswith("/admin")
