"""One bad booking row stops neither the hold-expiry task nor the admin's lists: a timestamp stored before
the input was checked (year 0 in UTC, which Python cannot hold) is read as year 1, and a row whose
release fails for any reason is logged and skipped while the others are released."""

import datetime
import logging

import pytest
from django.db import connection
from django.db.backends.postgresql.psycopg_any import register_tzloader
from django.urls import reverse
from django.utils import timezone
from psycopg.pq import Format

from bookings import services
from bookings.models import Booking, InboundCall
from bookings.tasks import bookings_release_expired_task
from integration.access.choices import MembershipRole
from tests.factories import member

from .factories import create_body, sellable, stock

pytestmark = pytest.mark.django_db

#: What the unchecked create once stored for reserved_at "0001-01-01T00:00:00+14:00": 1 BC in UTC.
BEFORE_YEAR_1 = "0001-01-01 00:00:00+14"


def expired_holds(hub_client, settings, count):
    """count pending bookings of one room type (one night each), their holds expired."""
    room_type, standalone, _package = sellable(allotment=count)
    answers = [hub_client.post("/bookings", create_body(standalone)).json() for _ in range(count)]
    Booking.objects.update(created_at=timezone.now() - datetime.timedelta(minutes=settings.BOOKING_HOLD_MINUTES + 1))
    return room_type, [Booking.objects.get(vendor_booking_number=answer["vendor_booking_number"]) for answer in answers]


def poison(booking):
    """Store the BC timestamp in the booking's row, as the old create did."""
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE bookings_booking SET reserved_at = %s::timestamptz, checkin = %s::timestamptz WHERE id = %s",
            [BEFORE_YEAR_1, BEFORE_YEAR_1, booking.pk],
        )


@pytest.fixture
def psycopgs_own_loaders():
    """The connection reads timestamps as psycopg and Django do by default: a BC one fails to load."""
    adapters = connection.connection.adapters
    timestamptz = adapters.types["timestamptz"].oid
    before = adapters.get_loader(timestamptz, Format.TEXT)
    register_tzloader(connection.timezone, connection.connection)
    yield
    adapters.register_loader(timestamptz, before)


def statuses(bookings):
    return list(Booking.objects.filter(pk__in=[b.pk for b in bookings]).order_by("pk").values_list("status", flat=True))


def test_a_hold_whose_release_fails_is_logged_and_the_others_are_released(hub_client, settings, monkeypatch, caplog):
    room_type, bookings = expired_holds(hub_client, settings, 3)
    bad = bookings[1]
    release = services._release

    def release_or_fail(booking):
        if booking.pk == bad.pk:
            raise RuntimeError("this row cannot be released")
        release(booking)

    monkeypatch.setattr(services, "_release", release_or_fail)
    with caplog.at_level(logging.ERROR):
        bookings_release_expired_task()

    assert statuses(bookings) == ["canceled", "pending", "canceled"]
    assert stock(room_type)[0][1:] == (3, 1, 0, 2)  # only the bad hold still holds its room
    assert f"row {bad.pk} failed" in caplog.text
    assert "this row cannot be released" in caplog.text  # with its traceback

    monkeypatch.undo()  # the next run releases it
    assert services.bookings_release_expired() == 1


@pytest.mark.postgres
def test_an_unloadable_row_is_logged_and_skipped_without_the_clamping_loaders(
    hub_client, settings, psycopgs_own_loaders, caplog
):
    _room_type, bookings = expired_holds(hub_client, settings, 3)
    poison(bookings[0])

    with caplog.at_level(logging.ERROR):
        assert services.bookings_release_expired() == 2

    assert statuses(bookings) == ["pending", "canceled", "canceled"]
    assert f"row {bookings[0].pk} failed" in caplog.text
    assert "timestamp too small" in caplog.text


@pytest.mark.postgres
def test_a_hold_with_a_bc_timestamp_is_released_with_the_others(hub_client, settings):
    room_type, bookings = expired_holds(hub_client, settings, 3)
    poison(bookings[0])

    bookings_release_expired_task()

    assert statuses(bookings) == ["canceled"] * 3
    assert stock(room_type)[0][1:] == (3, 0, 0, 3)
    bad = Booking.objects.get(pk=bookings[0].pk)
    assert (bad.reserved_at.year, bad.checkin.year) == (1, 1)  # read as year 1, still stored as it was
    with connection.cursor() as cursor:
        cursor.execute("SELECT reserved_at < '0001-01-01+00' FROM bookings_booking WHERE id = %s", [bad.pk])
        assert cursor.fetchone() == (True,)


@pytest.mark.postgres
@pytest.mark.parametrize("role", [MembershipRole.STAFF, MembershipRole.MANAGER])
def test_the_admin_shows_bookings_and_calls_of_a_row_with_a_bc_timestamp(hub_client, settings, client, role):
    _room_type, bookings = expired_holds(hub_client, settings, 2)
    bad = bookings[0]
    poison(bad)
    call = InboundCall.objects.filter(booking=bad).get()
    client.force_login(member(bad.property, role))

    pages = {
        "bookings": reverse("admin:bookings_booking_changelist"),
        "bookings checked in before today": reverse("admin:bookings_booking_changelist") + "?checkin_range=past",
        "booking": reverse("admin:bookings_booking_change", args=[bad.pk]),
        "calls": reverse("admin:bookings_inboundcall_changelist"),
        "calls of the booking": reverse("admin:bookings_inboundcall_changelist") + f"?booking__id__exact={bad.pk}",
        "call": reverse("admin:bookings_inboundcall_change", args=[call.pk]),
    }
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, name
        assert bad.vendor_booking_number in response.content.decode(), name
