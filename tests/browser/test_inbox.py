"""The inbox in a real browser, in Korean and English: a manager sees the header's badge, reads the inbox,
marks an event read and follows a cancellation to the booking."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from bookings.models import Booking
from inbox.choices import EventKind
from inbox.services import event_record
from tests.bookings.factories import create_body, sellable
from tests.bookings.signing import HubClient
from tests.browser.login import log_in
from tests.factories import member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "ko": {"inbox": "받은 알림", "canceled": "취소되었습니다", "drift": "곳 다릅니다", "mark": "읽음으로 표시"},
    "en": {"inbox": "Inbox", "canceled": "was canceled", "drift": "differs from ours", "mark": "Mark as read"},
}


@pytest.mark.parametrize("language", ["ko", "en"])
def test_a_manager_reads_the_inbox_marks_read_and_follows_a_cancellation(page, live_server, language, shots):
    texts = TEXTS[language]
    _room_type, standalone, _package = sellable(allotment=3)
    prop = standalone.property
    event_record(property_id=prop.pk, kind=EventKind.DRIFT_FOUND, object_id=1, subject=prop.name, detail="2")
    hub = HubClient(Client())
    number = hub.post("/bookings", create_body(standalone, nights=2)).json()["vendor_booking_number"]
    hub.put(f"/bookings/{number}/confirm")
    hub.post(f"/bookings/{number}/cancel")  # the vendor API's cancel records the event
    event_record(
        property_id=prop.pk,
        kind=EventKind.SEND_FAILED,
        object_id=2,
        subject="roomtype",
        detail="400 facility_tags: unknown code",
        now=timezone.now() - timedelta(hours=2),
    )
    manager = member(prop, "manager", username="manager-kim")

    log_in(page, live_server, manager, language)
    badge = page.locator("#user-tools .inbox-badge")
    expect(badge).to_have_text("3")
    for width, height in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(shots / f"inbox-badge-{language}-{width}.png"))

    page.set_viewport_size({"width": 1366, "height": 768})
    page.locator("#user-tools").get_by_role("link", name=texts["inbox"]).click()
    rows = page.locator("#result_list tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text(texts["canceled"])  # newest first
    for width, height in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(shots / f"inbox-list-{language}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 768})

    # Mark the drift read: the badge counts one fewer.
    rows.filter(has_text=texts["drift"]).locator("input.action-select").check()
    page.select_option("select[name=action]", "mark_read")
    page.locator("button[name=index]").click()
    expect(badge).to_have_text("2")
    expect(rows.filter(has_text=texts["drift"]).locator(".inbox-read")).to_be_visible()

    # Follow the cancellation to the booking.
    rows.filter(has_text=texts["canceled"]).get_by_role("link").click()
    expect(page).to_have_url(
        f"{live_server.url}/admin/bookings/booking/{Booking.objects.get(vendor_booking_number=number).pk}/change/"
    )
    expect(page.locator("#content")).to_contain_text(number)
    expect(badge).to_have_text("1")
    page.screenshot(path=str(shots / f"inbox-booking-{language}-1366.png"))
