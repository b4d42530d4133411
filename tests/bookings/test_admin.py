"""The bookings admin: read-only, scoped by property membership, searchable and filterable, with the
hub's calls linked from each booking."""

import datetime

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from bookings.models import Booking, InboundCall
from integration.access.choices import MembershipRole
from tests.factories import member

from .factories import create_body, sellable

pytestmark = pytest.mark.django_db


@pytest.fixture
def booked(hub_client):
    _room_type, standalone, _package = sellable()
    body = create_body(standalone)
    number = hub_client.post("/bookings", body).json()["vendor_booking_number"]
    hub_client.put(f"/bookings/{number}/confirm")
    _other_room, other_plan, _ = sellable()
    other = hub_client.post("/bookings", create_body(other_plan, guest={**body["guest"], "name": "Park Other"}))
    return Booking.objects.get(vendor_booking_number=number), other.json()["vendor_booking_number"], body


@pytest.mark.parametrize("role", [MembershipRole.STAFF, MembershipRole.MANAGER])
def test_members_see_only_their_propertys_bookings(client, booked, role):
    booking, other_number, _body = booked
    client.force_login(member(booking.property, role))
    page = client.get(reverse("admin:bookings_booking_changelist")).content.decode()
    assert booking.vendor_booking_number in page
    assert other_number not in page
    other = Booking.objects.get(vendor_booking_number=other_number)
    assert client.get(reverse("admin:bookings_booking_change", args=[other.pk])).status_code == 404


def test_detail_is_read_only_and_links_the_calls(client, booked):
    booking, _other_number, _body = booked
    client.force_login(member(booking.property, MembershipRole.STAFF))
    response = client.get(reverse("admin:bookings_booking_change", args=[booking.pk]))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Kim Minji" in page
    assert booking.gds_sub_booking_number in page
    calls_url = reverse("admin:bookings_inboundcall_changelist") + f"?q={booking.vendor_booking_number}"
    assert calls_url.replace("&", "&amp;") in page or calls_url in page
    calls = client.get(calls_url)
    assert calls.status_code == 200
    assert calls.content.decode().count("/confirm") >= 1
    assert InboundCall.objects.filter(booking=booking).count() == 2
    assert client.post(reverse("admin:bookings_booking_change", args=[booking.pk]), {}).status_code == 403


def test_search_by_any_number_or_guest_name_and_filters(admin_client, booked):
    booking, other_number, body = booked
    url = reverse("admin:bookings_booking_changelist")
    for term in (
        booking.vendor_booking_number,
        body["channel_booking_number"],
        body["gds_booking_number"],
        body["gds_sub_booking_number"],
    ):
        page = admin_client.get(url, {"q": term}).content.decode()
        assert booking.vendor_booking_number in page
        assert other_number not in page
    page = admin_client.get(url, {"q": "Park Other"}).content.decode()
    assert other_number in page
    assert booking.vendor_booking_number not in page
    pending = admin_client.get(url, {"status__exact": "pending"}).content.decode()
    assert other_number in pending
    assert booking.vendor_booking_number not in pending
    for query in ({"channel": "7"}, {"checkin_range": "7"}, {"payment_type__exact": "prepayment"}):
        assert booking.vendor_booking_number in admin_client.get(url, query).content.decode()
    assert booking.vendor_booking_number not in admin_client.get(url, {"checkin_range": "past"}).content.decode()


def test_the_call_log_hides_tokens_and_signatures(admin_client, booked):
    booking, _other_number, _body = booked
    call = InboundCall.objects.filter(booking=booking).first()
    page = admin_client.get(reverse("admin:bookings_inboundcall_change", args=[call.pk])).content.decode()
    assert "webhook-id" in page.lower()
    assert "Bearer" not in page
    assert "v1," not in page


def test_the_dashboard_counts_todays_bookings_and_pending_holds_of_each_own_property(client, booked, hub_client):
    booking, _other_number, _body = booked  # confirmed here; the other one is pending at another property
    hub_client.post("/bookings", create_body(booking.rate_plan))
    client.force_login(member(booking.property, MembershipRole.STAFF))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    page = client.get(reverse("admin:index")).content.decode()

    assert "2 bookings received today" in page
    assert "1 pending hold<" in page
    pending = f"?property__id__exact={booking.property.pk}&amp;status__exact=pending"
    assert reverse("admin:bookings_booking_changelist") + pending in page
    listed = client.get(reverse("admin:bookings_booking_changelist") + pending.replace("&amp;", "&"))
    assert listed.status_code == 200
    assert [b.vendor_booking_number for b in listed.context["cl"].result_list] == [
        Booking.objects.get(property=booking.property, status="pending").vendor_booking_number
    ]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"
    assert "오늘 받은 예약 2건" in client.get(reverse("admin:index")).content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    yesterday = timezone.now() - datetime.timedelta(days=1)
    Booking.objects.filter(pk=booking.pk).update(created_at=yesterday)
    assert "1 booking received today" in client.get(reverse("admin:index")).content.decode()
