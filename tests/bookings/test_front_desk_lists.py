"""The front desk's bookings: arrivals, departures and in house of a date (Korea's today by default, a bad
date said, never an error page), a canceled booking unmistakable, the booking's history of hub calls, the
search for any part of any number or the guest's name, and today's arrivals on the dashboard."""

import datetime

import pytest
from django.conf import settings
from django.db import connection
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from bookings.models import Booking, InboundCall
from bookings.selectors import HISTORY_CALLS
from bookings.services import stay_nights
from core.dates import KOREA, korea_today
from integration.access.choices import MembershipRole
from tests.factories import member

from .factories import create_body, sellable

pytestmark = pytest.mark.django_db

LIST = reverse("admin:bookings_booking_changelist")
DAY = datetime.date(2026, 12, 4)
SEARCHED = (
    "vendor_booking_number",
    "channel_booking_number",
    "gds_booking_number",
    "gds_sub_booking_number",
    "guest_name",
)


def at(day, hour):
    return datetime.datetime.combine(day, datetime.time(hour), tzinfo=KOREA)


@pytest.fixture
def first(hub_client):
    _room_type, standalone, _package = sellable()
    number = hub_client.post("/bookings", create_body(standalone)).json()["vendor_booking_number"]
    return Booking.objects.get(vendor_booking_number=number)


def like(booking, name, checkin, checkout, **fields):
    """A booking like booking, for guest name, staying from checkin to checkout (Korea times)."""
    row = Booking.objects.get(pk=booking.pk)
    row.pk, row.vendor_booking_number = None, f"VH{name.upper()}"
    row.gds_sub_booking_number, row.channel_booking_number = f"SUB-{name}", f"CH-{name}"
    row.guest_name, row.checkin, row.checkout = name, checkin, checkout
    row.nights = [
        night.isoformat()
        for night in stay_nights(checkin=checkin, checkout=checkout, stay_type=fields.get("type", row.type))
    ]
    for field, value in fields.items():
        setattr(row, field, value)
    row.save()
    return row


@pytest.fixture
def stays(first):
    """Around DAY: who leaves, who arrives, who stays on, a day use, a canceled arrival and one who left
    the day before."""
    d = DAY
    one = datetime.timedelta(days=1)
    return {
        "leaving": like(first, "leaving", at(d - one * 2, 15), at(d, 11)),
        "arriving": like(first, "arriving", at(d, 16), at(d + one, 11)),
        "early": like(first, "early", at(d, 14), at(d + one * 2, 11)),
        "staying": like(first, "staying", at(d - one, 15), at(d + one, 11)),
        "dayuse": like(first, "dayuse", at(d, 10), at(d, 16), type=Booking.Type.DAYUSE),
        "canceled": like(
            first,
            "canceled",
            at(d, 15),
            at(d + one, 11),
            status=Booking.Status.CANCELED,
            canceled_at=at(d - one, 9),
        ),
        "gone": like(first, "gone", at(d - one * 3, 15), at(d - one, 11)),
    }


def listed(client, **query):
    response = client.get(LIST, query)
    assert response.status_code == 200
    return [booking.guest_name for booking in response.context["cl"].result_list], response


@pytest.mark.parametrize(
    ("view", "expected"),
    [
        # In the order guests come or leave.
        ("arrivals", ["dayuse", "early", "canceled", "arriving"]),
        ("departures", ["leaving", "dayuse"]),
        ("inhouse", ["staying", "arriving", "early", "dayuse"]),
    ],
)
def test_the_front_desk_lists_of_a_date(admin_client, stays, view, expected):
    names, _response = listed(admin_client, desk=view, on=DAY.isoformat())
    if view == "inhouse":
        # Who leaves first: the day use, then those leaving the next day (by id), then the day after.
        assert sorted(names) == sorted(expected)
        assert names[0] == "dayuse"
        assert names[-1] == "early"
    else:
        assert names == expected


def test_without_a_date_the_lists_are_of_koreas_today(admin_client, stays, first):
    today = korea_today()
    Booking.objects.filter(pk=stays["arriving"].pk).update(
        checkin=at(today, 16), checkout=at(today + datetime.timedelta(days=1), 11)
    )
    names, response = listed(admin_client, desk="arrivals")
    assert names == ["arriving"]
    assert response.context["desk"]["day"] == today
    assert f'value="{today.isoformat()}"' in response.text


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "“2026-13-45” is not a date."), ("ko", "“2026-13-45”은(는) 날짜가 아닙니다.")],
)
def test_a_bad_date_is_said_in_the_readers_language_and_lists_nothing(admin_client, stays, language, said):
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    names, response = listed(admin_client, desk="departures", on="2026-13-45")
    assert names == []
    assert said in response.text
    assert 'aria-invalid="true"' in response.text


def test_the_tabs_keep_the_date_and_the_other_filters(admin_client, stays, first):
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    _names, response = listed(admin_client, desk="arrivals", on=DAY.isoformat(), property__id__exact=first.property_id)
    tabs = {str(label): (url, current) for label, url, current in response.context["desk"]["tabs"]}
    assert tabs["Arrivals"][1]
    assert not tabs["All"][1]
    assert "desk=departures" in tabs["Departures"][0]
    assert f"on={DAY.isoformat()}" in tabs["Departures"][0]
    assert f"property__id__exact={first.property_id}" in tabs["In house"][0]
    assert "desk" not in tabs["All"][0]
    assert "on=" not in tabs["All"][0]


def test_a_canceled_booking_is_marked_on_the_list_and_its_page_says_when(client, stays):
    canceled = stays["canceled"]
    client.force_login(member(canceled.property, MembershipRole.STAFF))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    page = client.get(LIST, {"desk": "arrivals", "on": DAY.isoformat()}).text
    row = page.split("VHCANCELED", 1)[1].split("</tr>", 1)[0]
    assert 'class="booking-canceled-badge">Canceled<' in row
    assert "VHARRIVING" in page
    assert page.count("booking-canceled-badge") == 1

    detail = client.get(reverse("admin:bookings_booking_change", args=[canceled.pk])).text
    assert 'class="booking-canceled-banner"' in detail
    assert "Canceled on Dec. 3, 2026, 9 a.m.: the guest is not coming" in detail
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"
    detail = client.get(reverse("admin:bookings_booking_change", args=[canceled.pk])).text
    assert "2026년 12월 3일 9:00 오전에 취소되었습니다." in detail
    arriving = client.get(reverse("admin:bookings_booking_change", args=[stays["arriving"].pk])).text
    assert "booking-canceled-banner" not in arriving


def test_the_history_lists_the_hubs_calls_refused_ones_with_their_code(client, admin_client, first, hub_client):
    number = first.vendor_booking_number
    hub_client.put(f"/bookings/{number}/cancel", {"reason": "x"})  # refused: 400, code 3000
    hub_client.put(f"/bookings/{number}/confirm")
    client.force_login(member(first.property, MembershipRole.STAFF))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    response = client.get(reverse("admin:bookings_booking_history", args=[first.pk]))

    calls = InboundCall.objects.filter(booking_number=number).order_by("-created_at", "-pk")
    assert [call.path for call in response.context["hub_calls"]] == [call.path for call in calls]
    assert [call.status for call in calls] == [200, 400, 200]  # the refused one is not linked to the booking
    page = response.text
    assert "have a change history" not in page
    for call in calls:
        assert reverse("admin:bookings_inboundcall_change", args=[call.pk]) in page
    assert "Refused (400)" in page
    assert "code 3000" in page
    log_url = f"/admin/bookings/inboundcall/?q={number}"
    assert log_url in page
    assert admin_client.get(log_url).context["cl"].result_count == 3


def test_the_history_shows_the_last_calls_and_says_so(admin_client, first):
    InboundCall.objects.bulk_create(
        InboundCall(
            method="GET",
            path=f"/bookings/{first.vendor_booking_number}",
            status=409 if n % 2 else 200,
            code="4003" if n % 2 else "",
            duration_ms=3,
            booking=first,
            booking_number=first.vendor_booking_number,
        )
        for n in range(HISTORY_CALLS + 5)
    )
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"
    response = admin_client.get(reverse("admin:bookings_booking_history", args=[first.pk]))
    assert len(response.context["hub_calls"]) == HISTORY_CALLS
    assert f"최근 {HISTORY_CALLS}건입니다." in response.text
    assert "거절 (409)" in response.text
    assert "코드 4003" in response.text


def test_the_search_finds_any_part_of_any_number_or_name_whatever_the_case(admin_client, stays):
    arriving = stays["arriving"]
    for term in ("vharr", "ch-arriv", "sub-arriving", "RRIVIN", "Arriving", arriving.gds_booking_number.lower()):
        names, _response = listed(admin_client, q=term)
        assert "arriving" in names, term
        if term != arriving.gds_booking_number.lower():  # the copies share the first booking's gds number
            assert names == ["arriving"], term


@pytest.mark.postgres
def test_the_search_reads_the_trigram_index(stays):
    from django.contrib.admin import site

    request = RequestFactory().get(LIST, {"q": "rrivin"})
    queryset, _duplicates = site._registry[Booking].get_search_results(request, Booking.objects.all(), "rrivin")
    # A few rows: the planner reads the table unless told not to; with only bitmap scans allowed it takes
    # any index that serves the search, which must be the trigram one.
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off; SET enable_indexscan = off")
        try:
            plan = queryset.order_by().explain()
        finally:
            cursor.execute("RESET enable_seqscan; RESET enable_indexscan")
    assert "Bitmap Index Scan on booking_search_trgm" in plan, plan
    assert "Seq Scan" not in plan, plan
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'booking_search_trgm'")
        (definition,) = cursor.fetchone()
    for column in SEARCHED:
        assert f"upper(({column})::text) gin_trgm_ops" in definition


def test_the_dashboard_counts_todays_arrivals_beside_bookings_received_today(client, stays, first):
    today = korea_today()
    Booking.objects.filter(pk=stays["arriving"].pk).update(checkin=at(today, 16), checkout=at(today, 23))
    Booking.objects.filter(pk=stays["canceled"].pk).update(checkin=at(today, 15), checkout=at(today, 23))
    Booking.objects.exclude(pk=first.pk).update(created_at=timezone.now() - datetime.timedelta(days=2))
    client.force_login(member(first.property, MembershipRole.STAFF))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    page = client.get(reverse("admin:index")).text

    assert "1 arrival today" in page  # the canceled one is not coming
    assert "1 booking received today" in page
    assert f"{LIST}?property__id__exact={first.property_id}&amp;desk=arrivals" in page
    health = client.get(reverse("admin:integration_property_health", args=[first.property_id])).text
    assert "Arrivals today" in health
    assert "Bookings received today" in health
    assert "Bookings today" not in health
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"
    assert "오늘 도착 1건" in client.get(reverse("admin:index")).text
