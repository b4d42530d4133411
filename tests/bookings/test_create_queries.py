"""The create's round trips: a stay of many nights costs the database as many statements as one night
(one read locks the nights in date order, one update changes them all), and no savepoint."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from integration.models import RoomTypeDay

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
    assert update.startswith("UPDATE")
    locks = " FOR UPDATE" if connection.features.has_select_for_update else ""  # SQLite locks the database
    assert lock.endswith(f"ORDER BY 1 ASC{locks}")  # the date, the first column read
    # The create's own transaction only (a savepoint here, inside the test's): the hold adds none.
    assert sum(sql.startswith("SAVEPOINT") for sql in seven) == 1
    assert [row[2:] for row in stock(room_type)][:9] == [(1, 0, 2)] + [(1, 0, 2)] * 7 + [(0, 0, 3)]


def _body(plan, kind, **fields):
    body = create_body(plan, **fields)
    if kind == "no rate plan":
        del body["rateplan_id"]
    return body


@pytest.mark.parametrize(("kind", "bound"), [("standalone", 11), ("package", 11), ("no rate plan", 10)])
def test_a_seven_night_create_fits_a_bound_of_queries(hub_client, django_assert_max_num_queries, kind, bound):
    _room_type, standalone, package = sellable(allotment=3, nights=14)
    plan = package if kind == "package" else standalone
    statements(hub_client, _body(plan, kind, first=10, nights=1))

    # The webhook-id's row (the replay check, in authentication), the room type with its property, rate
    # plan and the channel's link to the property (one statement), the plan's rates (with a package's
    # standalone rates, one statement; none without a rate plan), the booking, the nights (lock, update),
    # the outbox (the dirty range added to its existing row, its version with the queue mark: no read of the
    # row nor of the hub environment), the call log, and the savepoint pair of the create's transaction
    # (inside the test's; BEGIN and COMMIT outside tests).
    with django_assert_max_num_queries(bound):
        response = hub_client.post("/bookings", _body(plan, kind, first=2, nights=7))
    assert response.status_code == 200, response.content
