"""Keeping the daily figures as bookings change: called by the booking services inside the transaction
that confirms, cancels (or, at the front desk, marks a no-show of) a booking, so that the figures and the
bookings never disagree. Only confirmed bookings count: a pending hold is not yet sold."""

import datetime
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction

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


@dataclass(frozen=True)
class _Stay:
    """What a booking adds to the figures: its nights with their share of the amount and the net price."""

    property_id: int
    channel_id: int
    nights: list[datetime.date]
    revenue: list[Decimal]
    net: list[Decimal]
    lead_days: int


def _stay(booking: Booking) -> _Stay:
    nights = [datetime.date.fromisoformat(night) for night in booking.nights]
    reserved = booking.reserved_at.astimezone(KOREA).date()
    return _Stay(
        property_id=booking.property_id,
        channel_id=booking.channel_id,
        nights=nights,
        revenue=split_evenly(booking.amount, len(nights)),
        net=split_evenly(booking.net_price, len(nights)),
        lead_days=max((nights[0] - reserved).days, 0),
    )


def _daily(stay: _Stay, sign: int, *, arrival: dict[str, int]) -> list[dict[str, Any]]:
    """The daily figures' rows of a stay, each night's added with sign, arrival's counts on the first."""
    return [
        {
            "property_id": stay.property_id,
            "date": night,
            "channel_id": stay.channel_id,
            "rooms": sign,
            "revenue": sign * revenue,
            "net": sign * net,
            "arrivals": sign if index == 0 else 0,
            "canceled": arrival.get("canceled", 0) if index == 0 else 0,
            "no_shows": arrival.get("no_shows", 0) if index == 0 else 0,
            "stay_nights": sign * len(stay.nights) if index == 0 else 0,
            "lead_days": sign * stay.lead_days if index == 0 else 0,
        }
        for index, (night, revenue, net) in enumerate(zip(stay.nights, stay.revenue, stay.net, strict=True))
    ]


def _pickup(stay: _Stay, day: datetime.date, *, kind: str) -> list[dict[str, Any]]:
    """The pickup rows of a stay booked (kind "booked") or canceled ("canceled") on day."""
    other = "canceled" if kind == "booked" else "booked"
    return [
        {
            "property_id": stay.property_id,
            "date": night,
            "day": day,
            f"rooms_{kind}": 1,
            f"revenue_{kind}": revenue,
            f"bookings_{kind}": 1 if index == 0 else 0,
            # Every row names every figure (the statement's columns), the other kind's unchanged.
            f"rooms_{other}": 0,
            f"revenue_{other}": Decimal(0),
            f"bookings_{other}": 0,
        }
        for index, (night, revenue) in enumerate(zip(stay.nights, stay.revenue, strict=True))
    ]


def _add(daily: list[dict[str, Any]], pickup: list[dict[str, Any]]) -> None:
    with transaction.atomic():
        sql.figures_add(DailyFigure, key=("property_id", "date", "channel_id"), rows=daily)
        sql.figures_add(PickupFigure, key=("property_id", "date", "day"), rows=pickup)


def figures_booked(*, booking: Booking) -> None:
    """Add a booking just confirmed: its nights sold, its arrival, and its pickup on the day the channel
    received it."""
    stay = _stay(booking)
    day = booking.reserved_at.astimezone(KOREA).date()
    _add(_daily(stay, 1, arrival={}), _pickup(stay, day, kind="booked"))


def figures_canceled(*, booking: Booking) -> None:
    """Take out a confirmed booking just canceled: its nights are no longer sold, its arrival counts as a
    cancellation, and its pickup on the day it was canceled is negative."""
    stay = _stay(booking)
    day = (booking.canceled_at or booking.updated_at).astimezone(KOREA).date()
    _add(_daily(stay, -1, arrival={"canceled": 1}), _pickup(stay, day, kind="canceled"))


def figures_no_show(*, booking: Booking) -> None:
    """Take out a confirmed booking whose guest did not come: its nights are no longer sold and its
    arrival counts as a no-show (not a cancellation; what was booked and when stays as it was)."""
    _add(_daily(_stay(booking), -1, arrival={"no_shows": 1}), [])


def _accumulate(
    totals: dict[tuple[Any, ...], dict[str, Any]], rows: list[dict[str, Any]], key: tuple[str, ...]
) -> None:
    """Add rows to totals (their values summed per key)."""
    for row in rows:
        found = totals.setdefault(tuple(row[name] for name in key), dict.fromkeys(key))
        for name, value in row.items():
            found[name] = value if name in key else found.get(name, 0) + value


@transaction.atomic
def figures_rebuild() -> tuple[int, int]:
    """Compute every daily figure again from the bookings (the upgrade that brings the reports, or a check
    that the kept figures agree): each booking ever confirmed is added, each of those canceled taken out
    again, as the services did when it happened. Replaces the tables' rows; returns how many of each."""
    daily: dict[tuple[Any, ...], dict[str, Any]] = {}
    pickup: dict[tuple[Any, ...], dict[str, Any]] = {}
    daily_key, pickup_key = ("property_id", "date", "channel_id"), ("property_id", "date", "day")
    fields = ("property_id", "channel_id", "nights", "amount", "net_price", "reserved_at", "status", "canceled_at")
    bookings = Booking.objects.filter(confirmed_at__isnull=False).only(*fields, "updated_at").order_by()
    for booking in bookings.iterator(chunk_size=5000):
        stay = _stay(booking)
        _accumulate(daily, _daily(stay, 1, arrival={}), daily_key)
        _accumulate(pickup, _pickup(stay, booking.reserved_at.astimezone(KOREA).date(), kind="booked"), pickup_key)
        if booking.status == Booking.Status.CANCELED:
            canceled = (booking.canceled_at or booking.updated_at).astimezone(KOREA).date()
            _accumulate(daily, _daily(stay, -1, arrival={"canceled": 1}), daily_key)
            _accumulate(pickup, _pickup(stay, canceled, kind="canceled"), pickup_key)
    DailyFigure.objects.all().delete()
    PickupFigure.objects.all().delete()
    DailyFigure.objects.bulk_create((DailyFigure(**row) for row in daily.values()), batch_size=5000)
    PickupFigure.objects.bulk_create((PickupFigure(**row) for row in pickup.values()), batch_size=5000)
    return len(daily), len(pickup)
