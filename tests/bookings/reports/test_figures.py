"""The reports' figures, exactly: bookings made through the vendor API (two channels, a stay crossing the
range's end, a pending hold, a cancellation) and last year's bookings made by hand, every figure of every
report checked; the kept figures equal those rebuilt from the bookings."""

import datetime
from decimal import Decimal

import pytest

from bookings import services
from bookings.models import Booking
from bookings.reports.figures import figures_rebuild, split_evenly
from bookings.reports.models import DailyFigure, PickupFigure
from bookings.reports.selectors import (
    LAST_YEAR,
    bookings_report,
    channel_report,
    pace_report,
    performance_report,
    pickup_report,
)
from core.dates import KOREA, korea_today
from integration.models import Property
from tests.factories import UserFactory
from tests.integration.ari.factories import day

from ..factories import create_body, open_channel, sellable

pytestmark = pytest.mark.django_db

D = Decimal


def received(days_ago):
    """A reserved_at days_ago days before today, at 10:00 Korea time."""
    when = datetime.datetime.combine(korea_today() - datetime.timedelta(days=days_ago), datetime.time(10))
    return when.replace(tzinfo=KOREA).isoformat()


@pytest.fixture
def estate(hub_client):
    """Stock of 5 rooms a night. A: channel 7, standard plan, nights 1-2, net 195,000, received 3 days ago.
    B: channel 9, package plan (120,000 a night), nights 2-4 (the range ends at night 3), net 250,000,
    received yesterday. C: channel 7, night 3, received 2 days ago, canceled today. P: pending, never
    confirmed."""
    room_type, standard, package = sellable(allotment=5)
    open_channel(room_type.property, 9)

    def book(plan, *, confirm=True, **fields):
        number = hub_client.post("/bookings", create_body(plan, **fields)).json()["vendor_booking_number"]
        if confirm:
            assert hub_client.put(f"/bookings/{number}/confirm").status_code == 200
        return number

    book(standard, first=1, nights=2, net_price=195_000, reserved_at=received(3))
    book(package, first=2, nights=3, net_price=250_000, reserved_at=received(1), channel_id=9)
    canceled = book(standard, first=3, nights=1, reserved_at=received(2))
    assert hub_client.post(f"/bookings/{canceled}/cancel").status_code == 200
    book(standard, first=1, nights=1, confirm=False)
    return Property.objects.filter(pk=room_type.property_id)


def rows(report):
    return [dict(row) for row in report.rows]


def test_performance_counts_sold_nights_of_confirmed_bookings_within_the_range(estate):
    report = performance_report(estate, day(1), day(3), "day")
    assert rows(report) == [
        {"label": day(1).isoformat(), "available": 5, "rooms": 1, "occupancy": D("20.00"), "adr": D("100000.00"),
         "revpar": D("20000.00"), "revenue": D("100000.00"), "net": D("97500.00")},
        {"label": day(2).isoformat(), "available": 5, "rooms": 2, "occupancy": D("40.00"), "adr": D("110000.00"),
         "revpar": D("44000.00"), "revenue": D("220000.00"), "net": D("180833.34")},
        {"label": day(3).isoformat(), "available": 5, "rooms": 1, "occupancy": D("20.00"), "adr": D("120000.00"),
         "revpar": D("24000.00"), "revenue": D("120000.00"), "net": D("83333.33")},
    ]  # fmt: skip
    assert {key: value for key, value in report.total.items() if key != "label"} == {
        "available": 15, "rooms": 4, "occupancy": D("26.67"), "adr": D("110000.00"),
        "revpar": D("29333.33"), "revenue": D("440000.00"), "net": D("361666.67"),
    }  # fmt: skip


def test_booking_patterns_count_by_arrival(estate):
    report = bookings_report(estate, day(1), day(3), "day")
    keys = ("received", "canceled", "cancellation", "staying", "length", "lead")
    assert [tuple(row[key] for key in keys) for row in report.rows] == [
        (1, 0, D("0.00"), 1, D("2.00"), D("4.00")),
        (1, 0, D("0.00"), 1, D("3.00"), D("3.00")),
        (1, 1, D("100.00"), 0, None, None),
    ]  # fmt: skip
    total = report.total
    assert (total["received"], total["canceled"], total["cancellation"], total["no_shows"]) == (3, 1, D("33.33"), 0)
    assert (total["staying"], total["length"], total["lead"]) == (2, D("2.50"), D("3.50"))


def test_channel_mix(estate):
    report = channel_report(estate, day(1), day(3))
    assert rows(report) == [
        {"label": "Channel 9", "bookings": 1, "rooms": 2, "revenue": D("240000.00"), "mix": D("54.55"),
         "net": D("166666.67"), "kept": D("73333.33"), "kept_share": D("30.56")},
        {"label": "Channel 7", "bookings": 1, "rooms": 2, "revenue": D("200000.00"), "mix": D("45.45"),
         "net": D("195000.00"), "kept": D("5000.00"), "kept_share": D("2.50")},
    ]  # fmt: skip
    assert report.total["revenue"] == D("440000.00")
    assert report.total["kept"] == D("78333.33")
    assert report.total["mix"] == D("100.00")


def test_pickup_by_day_received(estate):
    report = pickup_report(estate, day(1), day(3), "day")
    assert [(r["label"], r["bookings"], r["booked"], r["canceled"], r["pickup"], r["revenue"], r["on_books"])
            for r in report.rows] == [
        (day(-3).isoformat(), 1, 2, 0, 2, D("200000.00"), 2),
        (day(-2).isoformat(), 1, 1, 0, 1, D("100000.00"), 3),
        (day(-1).isoformat(), 1, 2, 0, 2, D("240000.00"), 5),
        (day(0).isoformat(), 0, 0, 1, -1, D("-100000.00"), 4),
    ]  # fmt: skip
    assert (report.total["pickup"], report.total["on_books"], report.total["revenue"]) == (4, 4, D("440000.00"))


def shifted(booking, *, reserved, canceled=None):
    """A copy of booking 52 weeks earlier, received `reserved` days before today's same point last year,
    canceled `canceled` days after it (None: not canceled)."""
    point = datetime.datetime.combine(korea_today() - LAST_YEAR, datetime.time(10), tzinfo=KOREA)
    booking.pk = None
    booking.vendor_booking_number = f"LY{booking.vendor_booking_number}"
    booking.gds_sub_booking_number = f"LY-{booking.gds_sub_booking_number}"
    booking.channel_booking_number = None
    booking.nights = [(datetime.date.fromisoformat(n) - LAST_YEAR).isoformat() for n in booking.nights]
    booking.checkin -= LAST_YEAR
    booking.checkout -= LAST_YEAR
    booking.reserved_at = booking.confirmed_at = point - datetime.timedelta(days=reserved)
    booking.status = Booking.Status.CANCELED if canceled is not None else Booking.Status.CONFIRMED
    booking.canceled_at = None if canceled is None else point + datetime.timedelta(days=canceled)
    booking.save()


def test_pace_against_last_year_and_the_rebuild_agrees_with_the_kept_figures(estate):
    kept = {model: sorted(model.objects.values_list(*[f.attname for f in model._meta.concrete_fields][1:]))
            for model in (DailyFigure, PickupFigure)}  # fmt: skip
    a, b, c = (Booking.objects.get(checkin__date=day(n), rate_plan__isnull=False, status=s) for n, s in
               ((1, "confirmed"), (2, "confirmed"), (3, "canceled")))  # fmt: skip
    assert figures_rebuild() == (len(kept[DailyFigure]), len(kept[PickupFigure]))
    for model, values in kept.items():
        assert sorted(model.objects.values_list(*[f.attname for f in model._meta.concrete_fields][1:])) == values
    # Last year: A' on the books at the same point; B' received after it; C' canceled after it.
    shifted(a, reserved=3)
    shifted(b, reserved=-1)
    shifted(c, reserved=2, canceled=5)
    figures_rebuild()
    report = pace_report(estate, day(1), day(3), "day", today=korea_today())
    assert [(r["rooms"], r["revenue"], r["last_rooms"], r["last_revenue"], r["difference"], r["last_final"])
            for r in report.rows] == [
        (1, D("100000.00"), 1, D("100000.00"), 0, 1),
        (2, D("220000.00"), 1, D("100000.00"), 1, 2),
        (1, D("120000.00"), 1, D("100000.00"), 0, 1),
    ]  # fmt: skip
    assert (report.total["rooms"], report.total["last_rooms"], report.total["last_final"]) == (4, 3, 4)


def _figures():
    return {model: sorted(model.objects.values_list(*[f.attname for f in model._meta.concrete_fields][1:]))
            for model in (DailyFigure, PickupFigure)}  # fmt: skip


def test_a_no_show_marked_at_the_desk_counts_apart_from_cancellations_and_a_late_check_in_undoes_it(
    estate, monkeypatch
):
    booking = Booking.objects.get(checkin__date=day(1), status="confirmed")
    desk = UserFactory()
    monkeypatch.setattr(services, "korea_today", lambda: day(1))
    before = _figures()
    services.booking_desk_mark(booking_id=booking.pk, status=Booking.Desk.NO_SHOW, user=desk)

    performance = performance_report(estate, day(1), day(3), "day")
    assert (performance.total["rooms"], performance.total["revenue"]) == (2, D("240000.00"))
    patterns = bookings_report(estate, day(1), day(3), "day").total
    assert (patterns["received"], patterns["canceled"], patterns["no_shows"], patterns["staying"]) == (3, 1, 1, 1)
    kept = _figures()
    figures_rebuild()
    assert _figures() == kept

    services.booking_desk_mark(booking_id=booking.pk, status=Booking.Desk.CHECKED_IN, user=desk)
    assert _figures() == before


def test_grouping_by_week_and_month_adds_the_days_up(estate):
    for grouping in ("week", "month"):
        report = performance_report(estate, day(1), day(3), grouping)
        assert sum(row["rooms"] for row in report.rows) == 4
        assert sum(row["available"] for row in report.rows) == 15


def test_split_evenly_adds_up_to_the_total():
    assert split_evenly(D("250000"), 3) == [D("83333.34"), D("83333.33"), D("83333.33")]
    assert sum(split_evenly(D("100.01"), 7)) == D("100.01")
