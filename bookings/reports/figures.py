"""Keeping the daily figures as bookings change: called by the booking services inside the transaction
that confirms, cancels (or, at the front desk, marks a no-show of) a booking, so that the figures and the
bookings never disagree. Only confirmed bookings count: a pending hold is not yet sold."""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.apps import apps as django_apps
from django.apps.registry import Apps
from django.db import DEFAULT_DB_ALIAS, transaction

from core.dates import KOREA

from ..models import Booking
from . import sql
from .models import DailyFigure, PickupFigure

_CENT = Decimal("0.01")


def split_evenly(total: Decimal, parts: int) -> list[Decimal]:
    """total in parts cents apart at most, the first ones taking the odd cents: they add up to total
    exactly (a booking's amount and net price spread over its nights)."""
    cents = int((Decimal(total) / _CENT).to_integral_value())
    base, extra = divmod(cents, parts)
    return [(base + (1 if index < extra else 0)) * _CENT for index in range(parts)]


#: The daily figures' key and the figures added to it (bookings.reports.models), in the order the rows
#: below give their values.
DAILY_KEY = ("property_id", "date", "channel_id")
DAILY_FIELDS = ("rooms", "revenue", "net", "arrivals", "canceled", "no_shows", "stay_nights", "lead_days")
PICKUP_KEY = ("property_id", "date", "day")
PICKUP_FIELDS = (
    "rooms_booked",
    "revenue_booked",
    "bookings_booked",
    "rooms_canceled",
    "revenue_canceled",
    "bookings_canceled",
)

#: A row to add: its key, and a value per field.
Row = tuple[tuple[Any, ...], tuple[Any, ...]]


@dataclass(frozen=True)
class _Stay:
    """What a booking adds to the figures: its nights with their share of the amount and the net price."""

    property_id: int
    channel_id: int
    nights: list[datetime.date]
    revenue: list[Decimal]
    net: list[Decimal]
    lead_days: int


def _stay(
    property_id: int, channel_id: int, nights: list[str], amount: Decimal, net: Decimal, reserved: datetime.date
) -> _Stay:
    dates = [datetime.date.fromisoformat(night) for night in nights]
    return _Stay(
        property_id=property_id,
        channel_id=channel_id,
        nights=dates,
        revenue=split_evenly(amount, len(dates)),
        net=split_evenly(net, len(dates)),
        lead_days=max((dates[0] - reserved).days, 0),
    )


def _booking_stay(booking: Booking) -> _Stay:
    reserved = booking.reserved_at.astimezone(KOREA).date()
    return _stay(booking.property_id, booking.channel_id, booking.nights, booking.amount, booking.net_price, reserved)


def _daily(stay: _Stay, sign: int, *, canceled: int = 0, no_shows: int = 0) -> list[Row]:
    """The daily figures' rows of a stay, each night's added with sign, its arrival counted on the first
    (and as a cancellation or a no-show when given)."""
    rows = []
    for index, (night, revenue, net) in enumerate(zip(stay.nights, stay.revenue, stay.net, strict=True)):
        first = index == 0
        arrival = (sign, canceled, no_shows, sign * len(stay.nights), sign * stay.lead_days) if first else (0,) * 5
        rows.append(((stay.property_id, night, stay.channel_id), (sign, sign * revenue, sign * net, *arrival)))
    return rows


def _pickup(stay: _Stay, day: datetime.date, *, canceled: bool) -> list[Row]:
    """The pickup rows of a stay booked (or canceled) on day: the booking counted on its first night."""
    rows = []
    for index, (night, revenue) in enumerate(zip(stay.nights, stay.revenue, strict=True)):
        figures = (1, revenue, 1 if index == 0 else 0)
        nothing = (0, Decimal(0), 0)
        rows.append(((stay.property_id, night, day), (*nothing, *figures) if canceled else (*figures, *nothing)))
    return rows


def _daily_fields(key: tuple[Any, ...], values: Iterable[Any]) -> dict[str, Any]:
    return dict(zip(DAILY_KEY + DAILY_FIELDS, (*key, *values), strict=True))


def _pickup_fields(key: tuple[Any, ...], values: Iterable[Any]) -> dict[str, Any]:
    return dict(zip(PICKUP_KEY + PICKUP_FIELDS, (*key, *values), strict=True))


def _add(daily: list[Row], pickup: list[Row]) -> None:
    with transaction.atomic():
        sql.figures_add(DailyFigure, key=DAILY_KEY, rows=[_daily_fields(key, values) for key, values in daily])
        sql.figures_add(PickupFigure, key=PICKUP_KEY, rows=[_pickup_fields(key, values) for key, values in pickup])


def _canceled_day(canceled_at: datetime.datetime | None, updated_at: datetime.datetime) -> datetime.date:
    return (canceled_at or updated_at).astimezone(KOREA).date()


def figures_booked(*, booking: Booking) -> None:
    """Add a booking just confirmed: its nights sold, its arrival, and its pickup on the day the channel
    received it."""
    stay = _booking_stay(booking)
    _add(_daily(stay, 1), _pickup(stay, booking.reserved_at.astimezone(KOREA).date(), canceled=False))


def figures_canceled(*, booking: Booking) -> None:
    """Take out a confirmed booking just canceled: its nights are no longer sold, its arrival counts as a
    cancellation, and its pickup on the day it was canceled is negative."""
    stay = _booking_stay(booking)
    day = _canceled_day(booking.canceled_at, booking.updated_at)
    _add(_daily(stay, -1, canceled=1), _pickup(stay, day, canceled=True))


def figures_no_show(*, booking: Booking, undone: bool = False) -> None:
    """Take out a confirmed booking whose guest did not come: its nights are no longer sold and its
    arrival counts as a no-show (not a cancellation; what was booked and when stays as it was). undone: the
    guest came after all (checked in late), so put it back."""
    stay = _booking_stay(booking)
    _add(_daily(stay, 1, no_shows=-1) if undone else _daily(stay, -1, no_shows=1), [])


def _accumulate(totals: dict[tuple[Any, ...], list[Any]], rows: list[Row]) -> None:
    """Add rows to totals (their values summed per key)."""
    for key, values in rows:
        found = totals.get(key)
        if found is None:
            totals[key] = list(values)
        else:
            for index, value in enumerate(values):
                found[index] += value


def figures_rebuild(*, apps: Apps | None = None, using: str = DEFAULT_DB_ALIAS) -> tuple[int, int]:
    """Compute every daily figure again from the bookings (the migration that brings the reports, with its
    historical models as apps; manage.py reports_rebuild, to check that the kept figures agree): each
    booking ever confirmed is added, each of those canceled or marked a no-show taken out again, as the
    services did when it happened. Replaces the tables' rows (of the database using), in one transaction;
    returns how many of each."""
    with transaction.atomic(using=using):
        return _rebuild(apps or django_apps, using)


def _rebuild(models: Apps, using: str) -> tuple[int, int]:
    bookings_model = models.get_model("bookings", "Booking")
    daily_model, pickup_model = models.get_model("reports", "DailyFigure"), models.get_model("reports", "PickupFigure")
    daily: dict[tuple[Any, ...], list[Any]] = {}
    pickup: dict[tuple[Any, ...], list[Any]] = {}
    fields = ["property_id", "channel_id", "nights", "amount", "net_price", "reserved_at", "status", "canceled_at"]
    fields.append("desk_status")
    bookings = (
        bookings_model.objects.using(using)
        .filter(confirmed_at__isnull=False, status__in=(Booking.Status.CONFIRMED, Booking.Status.CANCELED))
        .order_by()
        .values_list(*fields, "updated_at")
    )
    for prop, channel, nights, amount, net, reserved_at, status, canceled_at, desk, updated_at in bookings.iterator(
        chunk_size=5000
    ):
        if not nights:
            continue
        reserved = reserved_at.astimezone(KOREA).date()
        stay = _stay(prop, channel, nights, amount, net, reserved)
        _accumulate(daily, _daily(stay, 1))
        _accumulate(pickup, _pickup(stay, reserved, canceled=False))
        if status == Booking.Status.CANCELED:
            _accumulate(daily, _daily(stay, -1, canceled=1))
            _accumulate(pickup, _pickup(stay, _canceled_day(canceled_at, updated_at), canceled=True))
        elif desk == Booking.Desk.NO_SHOW:
            _accumulate(daily, _daily(stay, -1, no_shows=1))
    daily_model.objects.using(using).all().delete()
    pickup_model.objects.using(using).all().delete()
    daily_model.objects.using(using).bulk_create(
        (daily_model(**_daily_fields(key, values)) for key, values in daily.items()), batch_size=5000
    )
    pickup_model.objects.using(using).bulk_create(
        (pickup_model(**_pickup_fields(key, values)) for key, values in pickup.items()), batch_size=5000
    )
    return len(daily), len(pickup)
