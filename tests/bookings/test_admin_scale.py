"""The bookings list and the call log at scale: the same queries whatever the number of rows, no count
over the whole table, every filter and the search still right, amounts with thousands separators."""

import datetime

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bookings.models import Booking, InboundCall
from core.admin import paging
from core.dates import KOREA, korea_today
from integration.access.choices import MembershipRole
from integration.access.services import membership_grant
from tests.factories import member
from tests.integration.ari.factories import day

from .factories import create_body, sellable

pytestmark = pytest.mark.django_db

BOOKINGS = reverse("admin:bookings_booking_changelist")
CALLS = reverse("admin:bookings_inboundcall_changelist")


@pytest.fixture
def booking(hub_client):
    _room_type, standalone, _package = sellable()
    number = hub_client.post("/bookings", create_body(standalone)).json()["vendor_booking_number"]
    return Booking.objects.get(vendor_booking_number=number)


def copies(booking, count):
    """count more bookings like booking (and a call about each), as the hub would have made them."""
    rows = []
    for n in range(count):
        row = Booking.objects.get(pk=booking.pk)
        row.pk, row.vendor_booking_number = None, f"VHCOPY{n:06d}"
        row.gds_sub_booking_number, row.channel_booking_number = f"SUB-{n}", f"CH-COPY-{n}"
        rows.append(row)
    made = Booking.objects.bulk_create(rows)
    InboundCall.objects.bulk_create(
        InboundCall(
            method="PUT",
            path=f"/bookings/{row.vendor_booking_number}/confirm",
            status=200,
            duration_ms=3,
            booking=row,
            booking_number=row.vendor_booking_number,
        )
        for row in made
    )


def queries_of(client, url, query=None):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, query or {})
    assert response.status_code == 200
    return [captured["sql"] for captured in queries.captured_queries]


PAGES = [
    (BOOKINGS, None),
    (BOOKINGS, {"status__exact": "pending", "checkin_range": "7", "channel": "7", "payment_type__exact": "prepayment"}),
    (BOOKINGS, {"q": "Kim"}),
    (BOOKINGS, {"desk": "inhouse", "on": day(1).isoformat()}),
    (CALLS, None),
    (CALLS, {"status_class": "2", "method": "PUT", "created_at__gte": "2000-01-01 00:00:00+09:00"}),
]


@pytest.mark.parametrize(("url", "query"), PAGES)
@pytest.mark.parametrize("role", [None, MembershipRole.STAFF])
def test_a_full_page_costs_the_queries_of_a_page_of_one_row(client, booking, url, query, role):
    client.force_login(member(booking.property, role) if role else _superuser())
    queries_of(client, url, query)  # sessions, caches and content types settle
    one = queries_of(client, url, query)

    copies(booking, 101)  # a full page of 100 and a second page
    many = queries_of(client, url, query)

    assert len(many) == len(one)


def test_an_unfiltered_page_counts_no_further_than_the_limit(client, booking):
    client.force_login(_superuser())
    for url in (BOOKINGS, CALLS):
        sqls = queries_of(client, url)
        # The header's inbox badge counts too (up to its own cap): not the list's count.
        counts = [sql for sql in sqls if "COUNT(" in sql.upper() and "inbox_event" not in sql]
        assert counts, "the page counts its rows up to the limit"
        assert all(f"LIMIT {paging.COUNT_LIMIT + 1}" in sql for sql in counts), counts
        assert not [sql for sql in sqls if "DISTINCT" in sql.upper()]


def test_past_the_limit_the_list_says_more_than_and_pages_through(client, booking, monkeypatch):
    monkeypatch.setattr(paging, "COUNT_LIMIT", 5)
    copies(booking, 6)
    client.force_login(_superuser())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(BOOKINGS)
    assert "more than 5 bookings" in page.content.decode()
    assert page.context["cl"].paginator.num_pages == 1  # five rows a page at most here: 5 / 100

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"
    assert "예약 5건 이상" in client.get(BOOKINGS).content.decode()


def test_amounts_have_thousands_separators(client, booking):
    client.force_login(_superuser())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "110,000 KRW" in client.get(BOOKINGS).content.decode()


def test_checkin_ranges_follow_korea_days(client, booking):
    client.force_login(_superuser())
    today = korea_today()

    def at(days, hour):
        return datetime.datetime.combine(today + datetime.timedelta(days=days), datetime.time(hour), tzinfo=KOREA)

    Booking.objects.filter(pk=booking.pk).update(checkin=at(0, 0), checkout=at(1, 11))  # midnight, Korea time

    def listed(value):
        return [row.pk for row in client.get(BOOKINGS, {"checkin_range": value}).context["cl"].result_list]

    assert listed("today") == [booking.pk]
    assert listed("7") == [booking.pk]
    assert listed("past") == []
    Booking.objects.filter(pk=booking.pk).update(checkin=at(-1, 23) + datetime.timedelta(minutes=59))
    assert listed("past") == [booking.pk]
    assert listed("today") == []
    Booking.objects.filter(pk=booking.pk).update(checkin=at(30, 0), checkout=at(31, 11))
    assert listed("later") == [booking.pk]
    assert listed("30") == []


def test_the_property_and_channel_filters_offer_own_properties_and_known_channels(client, booking):
    _other_room, other_plan, _ = sellable()
    _third_room, third_plan, _ = sellable()
    user = member(booking.property, MembershipRole.STAFF)
    membership_grant(user=user, property=third_plan.property, role=MembershipRole.STAFF)
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    filters = {str(spec.title): spec for spec in client.get(BOOKINGS).context["cl"].filter_specs}

    mine = sorted([booking.property, third_plan.property], key=lambda prop: prop.name)
    assert [pk for pk, _name in filters["property"].lookup_choices] == [prop.pk for prop in mine]
    assert [value for value, _name in filters["channel"].lookup_choices] == ["7"]
    other = {"property__id__exact": other_plan.property.pk}
    assert list(client.get(BOOKINGS, other).context["cl"].result_list) == []
    own = {"property__id__exact": booking.property.pk, "channel": "7"}
    assert [row.pk for row in client.get(BOOKINGS, own).context["cl"].result_list] == [booking.pk]


def test_the_call_log_filters_by_day_and_searches_by_booking_number(client, booking):
    copies(booking, 2)
    client.force_login(_superuser())

    def listed(query):
        return {call.booking_number for call in client.get(CALLS, query).context["cl"].result_list}

    assert listed({"q": "VHCOPY000001"}) == {"VHCOPY000001"}
    assert listed({"method": "PUT", "status_class": "2"}) == {"VHCOPY000000", "VHCOPY000001"}
    assert listed({"method": "POST"}) == {booking.vendor_booking_number}
    assert listed({"status_class": "4"}) == set()

    def since(days):
        start = datetime.datetime.combine(korea_today() + datetime.timedelta(days=days), datetime.time(0), tzinfo=KOREA)
        return {"created_at__gte": start.isoformat(sep=" ")}

    assert booking.vendor_booking_number in listed(since(-1))
    assert listed(since(2)) == set()


def _superuser():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_superuser("scale-admin", "", "scale-password-1")


def test_a_whole_booking_number_is_found_by_its_index_and_parts_by_the_trigram_search(client, booking):
    copies(booking, 3)
    client.force_login(_superuser())

    for term in (booking.vendor_booking_number, f" {booking.vendor_booking_number.lower()} "):
        with CaptureQueriesContext(connection) as queries:
            page = client.get(BOOKINGS, {"q": term})
        assert [found.pk for found in page.context["cl"].result_list] == [booking.pk]
        assert not [q["sql"] for q in queries.captured_queries if " LIKE " in q["sql"].upper()]

    def found(term):
        return {row.vendor_booking_number for row in client.get(BOOKINGS, {"q": term}).context["cl"].result_list}

    assert found("vhcopy00000") == {"VHCOPY000000", "VHCOPY000001", "VHCOPY000002"}  # a part of a number
    assert booking.vendor_booking_number in found(booking.guest_name[1:5].lower())  # a part of the name
    assert found("VHCOPY000001 ") == {"VHCOPY000001"}
    assert found("VH000000000000") == set()  # a whole number nobody holds: no booking
