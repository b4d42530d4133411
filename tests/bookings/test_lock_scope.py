"""On PostgreSQL, staff and hub work on a property lock only the rows they change: a rooms-to-sell edit or a
read of the property's channel statuses, held open, does not make a booking of the property wait (a lock on
the property row would hold up the booking's foreign-key check), and a vendor API write that PostgreSQL gives
up to a real deadlock is run again and answered, not answered 1000."""

import logging
import threading
import time
from contextlib import contextmanager

import pytest
from django.db import connection, transaction
from django.test import Client

from bookings.api.serializers import BookingCreateSerializer
from bookings.models import Booking
from bookings.services import booking_create
from integration.ari.dates import DateRange
from integration.ari.services.bulk import ari_change_apply
from integration.ari.services.edits import AriEdit, Operation, ari_edit_plan
from integration.channels.services import property_channels_refresh
from integration.hub import endpoints
from integration.hub.client import HubResponse
from integration.models import AriChangeSource, RoomTypeDay
from tests.factories import RoomTypeFactory
from tests.integration.ari.factories import day

from .factories import CHANNEL_ID, create_body, sellable
from .signing import HubClient

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: Wait for a thread's step at most this long (a bound against hanging, not a measure).
PATIENCE = 60


@contextmanager
def held_open(work):
    """Run work() in a transaction of another connection (a thread's) and keep that transaction open, its
    locks held and nothing committed, while the block runs; it commits after the block."""
    ready, release, failures = threading.Event(), threading.Event(), []

    def run():
        try:
            with transaction.atomic():
                work()
                ready.set()
                release.wait(PATIENCE)
        except Exception as error:
            failures.append(error)
        finally:
            ready.set()
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    ready.wait(PATIENCE)
    try:
        assert not failures, failures
        yield
    finally:
        release.set()
        thread.join()
    assert not failures, failures


@contextmanager
def lock_timeout():
    """This connection gives up a lock it waits for after a few seconds (a lock timeout error) instead of
    waiting for the other transaction to end."""
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '3s'")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")


def create(body):
    """A booking created by the service the vendor API calls, from the body as the API validates it."""
    serializer = BookingCreateSerializer(data=body)
    serializer.is_valid(raise_exception=True)
    return booking_create(payload=serializer.validated_data)


def test_a_booking_of_the_property_goes_through_while_a_rooms_to_sell_edit_of_it_is_open():
    room_type, standalone, _package = sellable(nights=5)
    edited = RoomTypeFactory(property=room_type.property)
    RoomTypeDay.objects.bulk_create(
        RoomTypeDay(room_type=edited, date=day(n), allotment=3, available=3) for n in range(1, 6)
    )
    edit = AriEdit(
        ranges=(DateRange(day(1), day(5)),), operation=Operation.SET_AVAILABILITY, value=4, room_types=(edited,)
    )
    # As the admin's bulk edit applies it: checked against its preview, so with the preview's cells locked.
    preview = ari_edit_plan(edit).fingerprint()

    def staff_edit():
        ari_change_apply(prop=edited.property, edit=edit, source=AriChangeSource.BULK, expected=preview)

    with held_open(staff_edit), lock_timeout():
        booking, created = create(create_body(standalone, first=2, nights=2))

    assert created
    assert booking.status == Booking.Status.PENDING
    assert set(RoomTypeDay.objects.filter(room_type=edited).values_list("allotment", flat=True)) == {4}


class StatusesHub:
    """The hub's answers to a read of a property's channels: the given statuses and no open request."""

    def __init__(self, statuses):
        self.answers = {endpoints.PROPERTY_CHANNELS: statuses, endpoints.OPEN_REQUEST_LIST: []}

    def call(self, endpoint, *, path_params=None, query=None, body=None):
        return HubResponse(status=200, data=self.answers[endpoint], duration_ms=1)


def test_a_booking_of_the_property_goes_through_while_its_channel_statuses_are_stored():
    room_type, standalone, _package = sellable()
    hub = StatusesHub([{"channel_id": CHANNEL_ID, "status": "open"}])

    with held_open(lambda: property_channels_refresh(property=room_type.property, client=hub)), lock_timeout():
        booking, created = create(create_body(standalone))

    assert created
    assert booking.status == Booking.Status.PENDING


def backend_pid():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_a_cancel_that_meets_a_deadlock_is_run_again_and_answered(caplog):
    room_type, standalone, _package = sellable()
    hub = HubClient(Client())
    number = hub.post("/bookings", create_body(standalone, first=1, nights=1)).json()["vendor_booking_number"]
    booking = Booking.objects.get(vendor_booking_number=number)
    cancel_pid = backend_pid()
    # The cancel locks the booking, then its night; the other transaction locks the night, then the booking.
    # Each waits for the other: PostgreSQL gives one of them up, the cancel (its deadlock check comes first).
    night_locked, failures = threading.Event(), []

    def cross():
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SET LOCAL deadlock_timeout = '60s'")
                cursor.execute(
                    f"UPDATE {RoomTypeDay._meta.db_table} SET held = held WHERE room_type_id = %s AND date = %s",  # noqa: S608
                    [room_type.pk, day(1)],
                )
                night_locked.set()
                for _ in range(PATIENCE * 100):
                    cursor.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE pid = %s AND wait_event_type = 'Lock'",
                        [cancel_pid],
                    )
                    if cursor.fetchone()[0]:
                        break
                    time.sleep(0.01)
                cursor.execute(f"SELECT 1 FROM {Booking._meta.db_table} WHERE id = %s FOR UPDATE", [booking.pk])  # noqa: S608
        except Exception as error:
            failures.append(error)
        finally:
            night_locked.set()
            connection.close()

    with connection.cursor() as cursor:
        cursor.execute("SET deadlock_timeout = '500ms'")
    thread = threading.Thread(target=cross)
    thread.start()
    try:
        night_locked.wait(PATIENCE)
        with caplog.at_level(logging.WARNING, logger="core.db.transactions"):
            response = hub.post(f"/bookings/{number}/cancel")
    finally:
        thread.join()
        with connection.cursor() as cursor:
            cursor.execute("RESET deadlock_timeout")

    assert not failures, failures
    assert (response.status_code, response.json().get("status")) == (200, "canceled"), response.json()
    assert "booking_cancel: DeadlockDetected, attempt 1 of 4" in caplog.text
    assert RoomTypeDay.objects.get(room_type=room_type, date=day(1)).held == 0
