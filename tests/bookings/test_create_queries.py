"""The create's round trips: a stay of many nights costs the database as many statements as one night
(one read locks the nights in date order, one update changes them all), and no savepoint; and the
booking's row is inserted by plain SQL, not through the ORM's save()."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bookings.models import Booking
from integration.models import RoomTypeDay, SyncState

from .factories import create_body, sellable, stock

pytestmark = pytest.mark.django_db


def statements(hub_client, body):
    with CaptureQueriesContext(connection) as queries:
        response = hub_client.post("/bookings", body)
    assert response.status_code == 200, response.content
    return [query["sql"] for query in queries.captured_queries]


def test_a_seven_night_create_costs_as_many_queries_as_a_one_night_create(hub_client):
    room_type, standalone, _package = sellable(allotment=3, nights=14)
    statements(hub_client, create_body(standalone, first=10, nights=1))  # the outbox row exists from now on

    one = statements(hub_client, create_body(standalone, first=1, nights=1))
    seven = statements(hub_client, create_body(standalone, first=2, nights=7))

    assert len(seven) == len(one)
    table = RoomTypeDay._meta.db_table
    lock, update = [sql for sql in seven if table in sql]
    assert lock.startswith("SELECT")
    locks = " FOR UPDATE" if connection.features.has_select_for_update else ""  # SQLite locks the database
    assert lock.endswith(f"ORDER BY 1 ASC{locks}")  # the date, the first column read
    if connection.vendor == "postgresql":
        # The nights' update and the outbox's (the dirty range, the row's version) in one statement.
        assert update.startswith(f"WITH change AS (UPDATE {table} ")
        assert f"state AS (UPDATE {connection.ops.quote_name(SyncState._meta.db_table)} " in update
        assert "INSERT INTO integration_aridirtyrange" in update
    else:
        assert update.startswith("UPDATE")
    # The create's own transaction only (a savepoint here, inside the test's): the hold adds none.
    assert sum(sql.startswith("SAVEPOINT") for sql in seven) == 1
    assert [row[2:] for row in stock(room_type)][:9] == [(1, 0, 2)] + [(1, 0, 2)] * 7 + [(0, 0, 3)]


def _body(plan, kind, **fields):
    body = create_body(plan, **fields)
    if kind == "no rate plan":
        del body["rateplan_id"]
    return body


#: The create's statements on PostgreSQL, where the nights' update and the outbox's are one statement
#: (three elsewhere).
BOUNDS = {"standalone": 9, "package": 9, "no rate plan": 8}


@pytest.mark.parametrize("kind", BOUNDS)
def test_a_seven_night_create_fits_a_bound_of_queries(hub_client, django_assert_max_num_queries, kind):
    _room_type, standalone, package = sellable(allotment=3, nights=14)
    plan = package if kind == "package" else standalone
    statements(hub_client, _body(plan, kind, first=10, nights=1))

    # The webhook-id's row (the replay check, in authentication), the room type with its property, rate
    # plan and the channel's link to the property (one statement), the plan's rates (with a package's
    # standalone rates, one statement; none without a rate plan), the booking, the nights' lock, their
    # update with the outbox's in one statement (the dirty range added to the existing row, its version
    # bumped with the queue mark: no read of the row nor of the hub environment), the call log, and the
    # savepoint pair of the create's transaction (inside the test's; BEGIN and COMMIT outside
    # tests).
    bound = BOUNDS[kind] + (0 if connection.vendor == "postgresql" else 2)
    with django_assert_max_num_queries(bound):
        response = hub_client.post("/bookings", _body(plan, kind, first=2, nights=7))
    assert response.status_code == 200, response.content


def test_the_booking_is_inserted_without_the_orms_save(hub_client, monkeypatch):
    # Building the insert of its 35 columns through the ORM cost more CPU than the database spends on it.
    _room_type, standalone, _package = sellable(allotment=3, nights=14)

    def refused(*args, **kwargs):
        raise AssertionError("the create saved the booking through the ORM")

    monkeypatch.setattr(Booking, "save", refused)
    response = hub_client.post("/bookings", create_body(standalone, first=2, nights=2))

    assert response.status_code == 200, response.content
    booking = Booking.objects.get(vendor_booking_number=response.json()["vendor_booking_number"])
    assert booking.status == Booking.Status.PENDING
    assert len(booking.nights) == 2
    assert booking.created_at is not None
    assert booking.updated_at is not None
