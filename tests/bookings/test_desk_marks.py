"""The front desk's marks: check-in, check-out and no-show, with who and when; only the allowed steps; the
buttons and list actions of the bookings screen; the arrivals list's party and request; a no-show in the
settlement comparison."""

import datetime

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from bookings.models import Booking, DeskMark
from bookings.services import DeskRefused, booking_desk_mark, desk_marks_allowed
from core.dates import KOREA, korea_today
from integration.access.choices import MembershipRole
from tests.factories import PropertyFactory, UserFactory, member

from .factories import create_body, sellable

pytestmark = pytest.mark.django_db

IN, OUT, NO_SHOW = Booking.Desk.CHECKED_IN, Booking.Desk.CHECKED_OUT, Booking.Desk.NO_SHOW


def page(booking):
    return reverse("admin:bookings_booking_change", args=[booking.pk])


def desk(booking):
    return reverse("admin:bookings_booking_desk", args=[booking.pk])


def arriving_today(hub_client, **guest):
    """A confirmed booking of tomorrow's night whose check-in was moved to today, 15:00 Korea (the sandbox
    rates start tomorrow)."""
    _room_type, standalone, _package = sellable()
    body = create_body(standalone, special_comment="Late arrival, around 22:00")
    if guest:
        body["guest"] = {**body["guest"], **guest}
    number = hub_client.post("/bookings", body).json()["vendor_booking_number"]
    hub_client.put(f"/bookings/{number}/confirm")
    today = datetime.datetime.combine(korea_today(), datetime.time(15), tzinfo=KOREA)
    Booking.objects.filter(vendor_booking_number=number).update(checkin=today)
    return Booking.objects.get(vendor_booking_number=number)


@pytest.fixture
def booking(hub_client):
    return arriving_today(hub_client)


@pytest.fixture
def clerk(booking):
    return member(booking.property, MembershipRole.STAFF)


def test_check_in_then_out_keeps_who_and_when(booking, clerk):
    booking_desk_mark(booking_id=booking.pk, status=IN, user=clerk)
    booking_desk_mark(booking_id=booking.pk, status=OUT, user=clerk)

    booking.refresh_from_db()
    assert booking.desk_status == OUT
    marks = list(DeskMark.objects.filter(booking=booking).values_list("status", "marked_by"))
    assert marks == [(IN, clerk.pk), (OUT, clerk.pk)]
    assert all(mark.marked_at is not None for mark in DeskMark.objects.filter(booking=booking))


def test_a_no_show_may_still_come_late(booking, clerk):
    booking_desk_mark(booking_id=booking.pk, status=NO_SHOW, user=clerk)
    booking_desk_mark(booking_id=booking.pk, status=IN, user=clerk)

    booking.refresh_from_db()
    assert booking.desk_status == IN


@pytest.mark.parametrize(
    ("before", "status"),
    [("", OUT), (IN, NO_SHOW), (IN, IN), (OUT, IN), (OUT, NO_SHOW), (NO_SHOW, OUT)],
)
def test_steps_not_allowed_are_refused_and_change_nothing(booking, clerk, before, status):
    Booking.objects.filter(pk=booking.pk).update(desk_status=before)

    with pytest.raises(DeskRefused):
        booking_desk_mark(booking_id=booking.pk, status=status, user=clerk)

    booking.refresh_from_db()
    assert booking.desk_status == before
    assert not DeskMark.objects.exists()


def test_a_canceled_or_pending_booking_takes_no_mark(booking, clerk):
    for state in (Booking.Status.CANCELED, Booking.Status.PENDING):
        Booking.objects.filter(pk=booking.pk).update(status=state)
        booking.refresh_from_db()
        assert desk_marks_allowed(booking) == []
        for status in (IN, NO_SHOW):
            with pytest.raises(DeskRefused):
                booking_desk_mark(booking_id=booking.pk, status=status, user=clerk)
    assert not DeskMark.objects.exists()


def test_nothing_before_the_check_in_day(booking, clerk):
    Booking.objects.filter(pk=booking.pk).update(checkin=booking.checkin + datetime.timedelta(days=1))
    booking.refresh_from_db()

    assert desk_marks_allowed(booking) == []
    with translation.override("en"), pytest.raises(DeskRefused, match="not come yet"):
        booking_desk_mark(booking_id=booking.pk, status=IN, user=clerk)


def test_the_page_offers_the_allowed_marks_and_a_button_marks(client, booking, clerk):
    client.force_login(clerk)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    text = client.get(page(booking)).content.decode()
    assert 'value="checked_in"' in text
    assert 'value="no_show"' in text
    assert 'value="checked_out"' not in text

    response = client.post(desk(booking), {"status": IN}, follow=True)

    assert "1 booking marked “Checked in”" in response.content.decode()
    text = response.content.decode()
    assert 'value="checked_out"' in text
    assert 'value="checked_in"' not in text
    assert clerk.username in text  # who marked it, on the page
    assert DeskMark.objects.get().marked_by == clerk


def test_a_refused_mark_is_said_not_an_error_page(client, booking, clerk):
    client.force_login(clerk)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    for status in (OUT, "sleeping"):
        response = client.post(desk(booking), {"status": status}, follow=True)
        assert response.status_code == 200
        assert "cannot be marked" in response.content.decode() or "Unknown" in response.content.decode()
    assert not DeskMark.objects.exists()


def test_another_propertys_staff_cannot_mark(client, booking):
    outsider = member(PropertyFactory(), MembershipRole.MANAGER)
    client.force_login(outsider)

    assert client.post(desk(booking), {"status": IN}).status_code == 404
    assert client.get(desk(booking)).status_code in (404, 405)
    assert not DeskMark.objects.exists()


def test_the_list_action_marks_the_chosen_bookings(client, hub_client, booking, clerk):
    client.force_login(clerk)
    url = reverse("admin:bookings_booking_changelist") + "?desk=arrivals"
    response = client.post(url, {"action": "desk_checked_in", "_selected_action": [booking.pk]}, follow=True)

    assert response.status_code == 200
    booking.refresh_from_db()
    assert booking.desk_status == IN


def test_the_arrivals_list_shows_the_party_and_the_request_and_the_mark(client, hub_client, clerk):
    arrival = arriving_today(hub_client, adults=2, children=1)
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    booking_desk_mark(booking_id=arrival.pk, status=IN, user=clerk)

    response = client.get(reverse("admin:bookings_booking_changelist") + "?desk=arrivals")

    assert "party" in response.context["cl"].list_display
    text = response.content.decode()
    assert "adults 2, children 1, cars 1" in text
    assert "Late arrival, around 22:00" in text
    assert 'class="booking-desk booking-desk-checked_in"' in text
    assert 'class="booking-print button"' in text  # the printable list
    # Not on the plain list: the front desk's columns only.
    plain = client.get(reverse("admin:bookings_booking_changelist"))
    assert "party" not in plain.context["cl"].list_display
