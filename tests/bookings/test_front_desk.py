"""The bookings screens made for the front desk: the list's columns and formatting (English room names
in English), the booking page's groups, nightly table, collapsed technical section and print, and the
dashboard's "received today" link."""

import datetime
import re

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from bookings.models import Booking
from integration.access.choices import MembershipRole
from integration.models import RoomType
from tests.factories import member
from tests.integration.ari.factories import day

from .factories import MODIFY, RATE, create_body, sellable

pytestmark = pytest.mark.django_db

LIST = reverse("admin:bookings_booking_changelist")


def in_language(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language


@pytest.fixture
def suite(hub_client):
    """A confirmed two-night booking of 대청 스위트 (English name: Daecheong suite), the channel sending
    its nightly amounts, total 1,250,000 KRW."""
    room_type, standalone, _package = sellable()
    RoomType.objects.filter(pk=room_type.pk).update(name="대청 스위트")
    room_type.translations.create(locale="en-US", name="Daecheong suite")
    body = create_body(
        standalone,
        nights=2,
        total_amount=1_250_000,
        rates=[{"date": day(1).isoformat(), "amount": RATE}, {"date": day(2).isoformat(), "amount": RATE}],
        guest={"name": "김민지", "adults": 2, "children": 1, "infants": 0, "pets": 0, "cars": 1},
    )
    number = hub_client.post("/bookings", body).json()["vendor_booking_number"]
    hub_client.put(f"/bookings/{number}/confirm")
    return Booking.objects.get(vendor_booking_number=number)


def row_of(page, number):
    """The list row (its <tr>) of a booking number."""
    match = re.search(r"<tr[^>]*>(?:(?!</tr>).)*" + number + r"(?:(?!</tr>).)*</tr>", page, re.S)
    assert match, f"{number} is not listed"
    return match.group(0)


def cell(row, column):
    match = re.search(rf'<td class="field-{column}[^"]*">(.*?)</td>', row, re.S)
    assert match, f"no {column} cell"
    return re.sub(r"<[^>]+>", " ", match.group(1)).split()


def test_the_list_shows_guest_stay_nights_room_status_and_total_in_english(admin_client, suite):
    in_language(admin_client, "en")
    response = admin_client.get(LIST)

    assert response.context["cl"].list_display[-7:] == [
        "vendor_booking_number",
        "guest",
        "stay",
        "nights_count",
        "room",
        "state",
        "total",
    ]
    row = row_of(response.content.decode(), suite.vendor_booking_number)
    assert cell(row, "guest") == ["김민지", "Channel", "Seven"]
    assert cell(row, "stay") == [day(1).isoformat(), "→", day(3).isoformat()]
    assert cell(row, "nights_count") == ["2"]
    assert cell(row, "room") == ["Daecheong", "suite", *suite.property.name.split()]
    assert cell(row, "state") == ["Confirmed"]
    assert cell(row, "total") == ["1,250,000", "KRW"]


def test_the_list_in_korean_names_the_room_in_korean_and_marks_a_pending_hold(admin_client, suite, hub_client):
    pending = hub_client.post("/bookings", create_body(suite.rate_plan, first=5)).json()["vendor_booking_number"]
    in_language(admin_client, "ko")
    page = admin_client.get(LIST).content.decode()

    row = row_of(page, suite.vendor_booking_number)
    assert cell(row, "room")[:2] == ["대청", "스위트"]
    assert cell(row, "state") == ["확정됨"]
    assert cell(row, "total") == ["1,250,000", "KRW"]
    assert cell(row_of(page, pending), "state")[:2] == ["대기", "중"]
    assert "0분째 보류" in " ".join(cell(row_of(page, pending), "state"))


def test_a_day_use_says_so_instead_of_a_count_of_nights(admin_client, suite):
    Booking.objects.filter(pk=suite.pk).update(type=Booking.Type.DAYUSE, nights=[day(1).isoformat()])
    in_language(admin_client, "en")
    row = row_of(admin_client.get(LIST).content.decode(), suite.vendor_booking_number)
    assert cell(row, "nights_count") == ["Day", "use"]


def test_amounts_with_cents_keep_them():
    from bookings.admin_display import amount_text

    assert amount_text(1234567.5, "USD") == "1,234,567.50 USD"
    assert amount_text(0, "KRW") == "0 KRW"


def _copies(booking, count):
    """count more bookings like booking, each of its own new room type (so names are read per row)."""
    made = []
    for n in range(count):
        room_type = RoomType.objects.get(pk=booking.room_type_id)
        room_type.pk = None
        room_type.vendor_id = f"{room_type.vendor_id}-{n}"
        room_type.save()
        room_type.translations.create(locale="en-US", name=f"Room {n}")
        made.append(
            Booking(
                **{
                    field.attname: getattr(booking, field.attname)
                    for field in Booking._meta.concrete_fields
                    if field.name
                    not in (
                        "id",
                        "vendor_booking_number",
                        "room_type",
                        "gds_sub_booking_number",
                        "channel_booking_number",
                    )
                },
                room_type=room_type,
                vendor_booking_number=f"VHCOPY{n:06d}",
                gds_sub_booking_number=f"{booking.gds_sub_booking_number}-{n}",
                channel_booking_number=f"{booking.channel_booking_number}-{n}",
            )
        )
    Booking.objects.bulk_create(made)


def test_a_page_of_30_bookings_reads_as_many_queries_as_a_page_of_one(client, suite, django_assert_max_num_queries):
    user = member(suite.property, MembershipRole.STAFF)
    client.force_login(user)
    in_language(client, "en")
    client.get(LIST)  # the session and the language settle

    with CaptureQueriesContext(connection) as one:
        client.get(LIST)
    _copies(suite, 29)
    with django_assert_max_num_queries(len(one)):
        page = client.get(LIST).content.decode()
    assert page.count('class="field-room"') == 30
    assert "Room 28" in page


def test_the_booking_page_groups_guest_booker_stay_money_channel(client, suite):
    client.force_login(member(suite.property, MembershipRole.STAFF))
    in_language(client, "en")
    page = client.get(reverse("admin:bookings_booking_change", args=[suite.pk])).content.decode()

    groups = re.findall(r'<fieldset class="module aligned ?([^"]*)"[^>]*>.*?<h2[^>]*>(.*?)</h2>', page, re.S)
    assert [title for _classes, title in groups] == [
        "Guest",
        "Booker",
        "Stay",
        "Money",
        "Channel",
        "Technical details",
    ]
    guest, stay, money = (_fieldset(page, title) for title in ("Guest", "Stay", "Money"))
    assert "김민지" in guest
    assert "adults 2, children 1, cars 1" in guest
    assert "Daecheong suite" in stay
    assert "1,250,000 KRW" in money
    assert f"{RATE * 2 - 5_000:,} KRW" in money  # the net price


def _fieldset(page, title):
    match = re.search(rf"<h2[^>]*>{title}</h2>(.*?)</fieldset>", page, re.S)
    assert match, f"no group {title}"
    return match.group(1)


def test_nightly_amounts_are_a_table_not_json(client, suite):
    client.force_login(member(suite.property, MembershipRole.STAFF))
    in_language(client, "en")
    page = client.get(reverse("admin:bookings_booking_change", args=[suite.pk])).content.decode()

    table = re.search(r'<table class="booking-nights">(.*?)</table>', page, re.S).group(1)
    rows = [re.sub(r"<[^>]+>", " ", tr).split() for tr in re.findall(r"<tr>(.*?)</tr>", table, re.S)]
    assert rows[1:] == [
        [day(1).isoformat(), day(1).strftime("(%a)"), "100,000", "KRW"],
        [day(2).isoformat(), day(2).strftime("(%a)"), "100,000", "KRW"],
        ["room", "amount", "200,000", "KRW"],
    ]
    assert '"amount"' not in page
    assert "&quot;amount&quot;" not in page
    assert "&quot;date&quot;" not in page


def test_nights_the_channel_sent_no_amount_for_show_a_dash(client, hub_client):
    _room_type, _standalone, package = sellable()
    number = hub_client.post("/bookings", create_body(package, nights=2)).json()["vendor_booking_number"]
    booking = Booking.objects.get(vendor_booking_number=number)
    client.force_login(member(booking.property, MembershipRole.STAFF))
    in_language(client, "en")
    page = client.get(reverse("admin:bookings_booking_change", args=[booking.pk])).content.decode()
    table = re.search(r'<table class="booking-nights">(.*?)</table>', page, re.S).group(1)
    cells = re.findall(r'<td class="booking-amount">(.*?)</td>', table)
    assert cells == ["-", "-", f"{(RATE + MODIFY) * 2:,} KRW"]


def test_ids_and_hashes_are_in_a_collapsed_technical_section(client, suite):
    client.force_login(member(suite.property, MembershipRole.STAFF))
    in_language(client, "ko")
    page = client.get(reverse("admin:bookings_booking_change", args=[suite.pk])).content.decode()

    technical = re.search(
        r'<fieldset class="module aligned collapse booking-technical"[^>]*>(.*?)</fieldset>', page, re.S
    )
    assert technical, "no collapsed technical section"
    body = technical.group(1)
    assert re.search(r"<details[^>]*>\s*<summary>", body)
    assert "<details open" not in body
    assert "기술 정보" in body
    for value in (suite.content_digest, suite.gds_sub_booking_number, suite.gds_booking_number):
        assert f">{value}<" in body
        assert page.count(f">{value}<") == 1  # only there, not in the front desk's groups


def test_the_booking_page_prints(client, suite):
    client.force_login(member(suite.property, MembershipRole.STAFF))
    in_language(client, "en")
    page = client.get(reverse("admin:bookings_booking_change", args=[suite.pk])).content.decode()

    assert '<a href="#" class="booking-print" role="button">Print</a>' in page
    assert "bookings/booking_print.js" in page
    assert "bookings/booking.css" in page


def test_the_dashboard_link_lists_only_the_bookings_received_today(client, suite, hub_client):
    today = hub_client.post("/bookings", create_body(suite.rate_plan, first=6)).json()["vendor_booking_number"]
    # Received yesterday just before midnight, Korea time: listed in the full list, not in today's.
    midnight = datetime.datetime.combine(timezone.now().astimezone(suite.checkin.tzinfo).date(), datetime.time(0))
    from core.dates import KOREA

    Booking.objects.filter(pk=suite.pk).update(
        created_at=datetime.datetime.combine(midnight.date(), datetime.time(0), tzinfo=KOREA)
        - datetime.timedelta(minutes=1)
    )
    client.force_login(member(suite.property, MembershipRole.STAFF))
    in_language(client, "en")

    dashboard = client.get(reverse("admin:index")).content.decode()
    link = re.search(r'<a href="([^"]+)" class="property-card-received">1 booking received today</a>', dashboard)
    assert link, "no received-today link"
    listed = client.get(link.group(1).replace("&amp;", "&"))
    assert [b.vendor_booking_number for b in listed.context["cl"].result_list] == [today]
    everything = client.get(LIST, {"property__id__exact": suite.property_id})
    assert {b.vendor_booking_number for b in everything.context["cl"].result_list} == {
        today,
        suite.vendor_booking_number,
    }


def test_a_superusers_dashboard_sums_up_every_propertys_bookings_of_today(admin_client, suite, hub_client):
    other = sellable()[1]
    hub_client.post("/bookings", create_body(other))  # a pending hold at another property, received today
    in_language(admin_client, "en")

    page = admin_client.get(reverse("admin:index"))

    summary = page.context["estate"]
    assert (summary.bookings.received, summary.bookings.pending) == (2, 1)
    assert '<a href="/admin/bookings/booking/?status__exact=pending">1 pending hold</a>' in page.content.decode()
