"""The reports' page: managers only (their properties), every report rendered with its chart data, bad
input a form error, a formula-safe CSV, the same queries with more bookings; the dashboard's small charts."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from integration.access.choices import MembershipRole
from tests.factories import member
from tests.integration.ari.factories import day

from ..factories import create_body, sellable

pytestmark = pytest.mark.django_db

PAGE = reverse("admin:reports_dailyfigure_changelist")
KINDS = ("performance", "pickup", "pace", "channels", "bookings")


@pytest.fixture
def plans():
    _room_type, standard, package = sellable(allotment=5)
    return standard, package


def book(hub_client, plan, **fields):
    number = hub_client.post("/bookings", create_body(plan, **fields)).json()["vendor_booking_number"]
    hub_client.put(f"/bookings/{number}/confirm")
    return number


def query(kind, **fields):
    return {"report": kind, "start": day(1).isoformat(), "end": day(10).isoformat(), "grouping": "day", **fields}


def test_a_manager_reads_every_report_of_their_property(client, hub_client, plans):
    standard, _package = plans
    book(hub_client, standard, first=1, nights=2)
    client.force_login(member(standard.property, MembershipRole.MANAGER))
    for kind in KINDS:
        page = client.get(PAGE, query(kind))
        assert page.status_code == 200, kind
        assert page.context["report"].rows, kind
        assert 'id="report-chart-data"' in page.content.decode()
    assert client.get(PAGE).status_code == 200


def test_staff_and_other_managers_see_no_figures(client, hub_client, plans):
    standard, _package = plans
    book(hub_client, standard, first=1, nights=2)
    client.force_login(member(standard.property, MembershipRole.STAFF))
    assert client.get(PAGE).status_code == 403
    other, _ = sellable()[1:]
    client.force_login(member(other.property, MembershipRole.MANAGER))
    page = client.get(PAGE, query("performance"))
    assert page.context["report"].total["rooms"] == 0
    refused = client.get(PAGE, query("performance", property=standard.property_id))
    assert refused.status_code == 200
    assert refused.context["report"] is None
    assert "property" in refused.context["form"].errors


@pytest.mark.parametrize(
    "fields",
    [
        {"start": "2026-13-40"},
        {"start": "9999-12-31", "end": "0001-01-01"},
        {"start": "2020-01-01", "end": "2026-01-01"},
        {"grouping": "year"},
        {"report": "nothing"},
        {"property": "x"},
    ],
)
def test_bad_input_is_a_form_error(admin_client, plans, fields):
    page = admin_client.get(PAGE, query("performance", **fields))
    assert page.status_code == 200
    assert page.context["report"] is None
    assert page.context["form"].errors


def test_csv_is_formula_safe(admin_client, hub_client, plans):
    from integration.models import SalesChannel

    standard, _package = plans
    SalesChannel.objects.filter(channel_id=7).update(name="=HYPERLINK(1)")
    book(hub_client, standard, first=1, nights=2)
    response = admin_client.get(PAGE, query("channels", format="csv"))
    text = b"".join(response.streaming_content).decode()
    assert response["Content-Type"].startswith("text/csv")
    assert '"\'=HYPERLINK(1)",1,2,200000' in text


def test_each_report_costs_the_same_queries_with_more_bookings(admin_client, hub_client, plans):
    standard, package = plans

    def counts():
        found = {}
        for kind in KINDS:
            with CaptureQueriesContext(connection) as queries:
                assert admin_client.get(PAGE, query(kind)).status_code == 200
            found[kind] = len(queries)
        return found

    book(hub_client, standard, first=1, nights=1)
    few = counts()
    for first in range(1, 8):
        book(hub_client, package, first=first, nights=2, channel_id=7)
    assert counts() == few


def test_the_dashboard_draws_a_managers_small_charts(client, hub_client, plans):
    standard, _package = plans
    book(hub_client, standard, first=1, nights=2, reserved_at=timezone.now().isoformat())
    client.force_login(member(standard.property, MembershipRole.MANAGER))
    card = client.get(reverse("admin:index")).context["property_cards"][0]
    charts = card["charts"]
    assert len(charts.occupancy) == 30
    assert charts.occupancy[0].height == 0.0  # no stock today
    assert charts.occupancy[1].height == 8.0  # 1 of 5 rooms: a fifth of 40 units
    assert charts.pickup_total == 2
    staff = member(standard.property, MembershipRole.STAFF)
    client.force_login(staff)
    assert "charts" not in client.get(reverse("admin:index")).context["property_cards"][0]
