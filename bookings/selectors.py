"""Reads of bookings: what a booking sells and its price, a booking by its number and the refund policy
(the vendor API), and the screens' counts and lists."""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection, models
from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from core.dates import KOREA, korea_today
from core.db.sizes import table_bytes
from integration.content.choices import RatePlanType
from integration.models import Property, PropertyChannel, PropertyMembership, RatePlan, RatePlanDay, RoomType

from . import sql
from .errors import BAD_INPUT, NO_ROOMS, NOT_FOUND, BookingError
from .models import Booking, DeskMark, InboundCall, RefusedCall


@dataclass(frozen=True)
class Sold:
    """What a booking sells, as booking_sold read it: the room type (with its property), the rate plan
    (with its model) or None for a booking with no rate plan, and the property's row on the selling
    channel."""

    room_type: RoomType
    plan: RatePlan | None
    link: PropertyChannel | None

    @property
    def channel_sells(self) -> bool:
        """Whether the channel sells it: the rate plan, or without one the room type (open, on sale, not
        switched off, mapped on a cms channel)."""
        if self.link is None:
            return False
        return self.link.sells(self.plan) if self.plan else self.link.sells_room_type(self.room_type)


def booking_sold(
    property_id: str, roomtype_id: str, rateplan_id: str | None = None, channel_id: int | None = None
) -> Sold:
    """What a booking of these vendor ids sells (Sold); 3000 when the room type, or the rate plan when
    rateplan_id is given, is unknown."""
    rows = sql.sold_rows(
        property_id=property_id, roomtype_id=roomtype_id, rateplan_id=rateplan_id, channel_id=channel_id
    )
    if rows is None:
        raise BookingError(BAD_INPUT)
    room_type, prop, plan, model, channel, link = rows
    room_type.property = prop
    if rateplan_id is not None and plan is None:
        raise BookingError(BAD_INPUT)
    if plan is not None:
        plan.property, plan.room_type, plan.model = room_type.property, room_type, model  # type: ignore[assignment]
    if link is not None:
        link.property, link.channel = room_type.property, channel  # type: ignore[assignment]
    return Sold(room_type, plan, link)


def extra_charges(room_type: RoomType, *, adults: int, nights: int) -> Decimal:
    """The extra charges of a stay that we can compute (OURS, decision 0014: the 4001 rule; the spec: amount
    is the per-night amounts plus extra charges): each adult over the room type's standard capacity at
    the property's extra_adult_price (KRW), for each night (a day use: once). The spec prices extra
    adults only, so children and infants add nothing; without a standard capacity or a price, nothing."""
    price, standard = room_type.property.extra_adult_price, room_type.standard_capacity
    if not price or standard is None or adults <= standard:
        return Decimal(0)
    return Decimal((adults - standard) * price * nights)


def nightly_rates(plan: RatePlan, nights: list[datetime.date]) -> dict[datetime.date, Decimal]:
    """Our rate of plan on each night ({date: Decimal}); 4000 when a night has no rate or is not a business
    day. A package's rate is the standalone plan's rate of the same room type and day plus the package's
    difference."""
    package = plan.model.type == RatePlanType.PACKAGE
    rows = sql.plan_days(plan=plan, nights=nights, package=package)
    days = {day.date: day for day in rows if day.rate_plan_id == plan.pk}
    base = {day.date: day.rate for day in rows if day.rate_plan_id != plan.pk}
    return {night: _night_rate(days.get(night), base.get(night), package=package) for night in nights}


def _night_rate(day: RatePlanDay | None, base: int | None, *, package: bool) -> Decimal:
    """The rate of a night from its day of the plan (a package's: its difference on base, the standalone
    plan's rate); 4000 when it has none or is not a business day."""
    if day is None or not day.business_day:
        raise BookingError(NO_ROOMS)
    if package:
        if base is None or day.rate_modify is None:
            raise BookingError(NO_ROOMS)
        return Decimal(base + day.rate_modify)
    if day.rate is None:
        raise BookingError(NO_ROOMS)
    return Decimal(day.rate)


def checked_number(number: str) -> str:
    """number, or 4004 when no booking can have it (too long, a NUL byte, not valid text)."""
    try:
        number.encode("utf-8")
    except UnicodeEncodeError:
        raise BookingError(NOT_FOUND) from None
    if not number or len(number) > 100 or "\x00" in number:
        raise BookingError(NOT_FOUND)
    return number


def booking_repeated(payload: dict[str, Any], digest: str) -> Booking | None:
    """The existing booking this create repeats (same gds_sub_booking_number, same content), None when
    it is new; 3000 when it reuses a sub-booking number with other content or a channel's number."""
    existing = Booking.objects.filter(gds_sub_booking_number=payload["gds_sub_booking_number"]).first()
    if existing is not None:
        if existing.content_digest == digest:
            return existing
        raise BookingError(BAD_INPUT)
    number = payload.get("channel_booking_number")
    if number and Booking.objects.filter(channel_id=payload["channel_id"], channel_booking_number=number).exists():
        raise BookingError(BAD_INPUT)
    return None


LOOKUP_TYPES = ("vendor_booking_number", "channel_booking_number", "gds_sub_booking_number")


def booking_get(*, number: str, lookup: str = "vendor_booking_number", channel_id: int | None = None) -> Booking:
    """The booking with this number of the given kind (a channel number narrowed by channel_id when
    given); 4004 when there is none, or several."""
    number = checked_number(number)
    bookings = Booking.objects.select_related("property", "room_type", "rate_plan").filter(**{lookup: number})
    if channel_id is not None and lookup == "channel_booking_number":
        bookings = bookings.filter(channel_id=channel_id)
    found = list(bookings[:2])
    if len(found) != 1:
        raise BookingError(NOT_FOUND)
    return found[0]


def refund_policy(
    *, property_id: str, roomtype_id: str, rateplan_id: str | None = None, checkin: datetime.date | datetime.datetime
) -> dict[str, Any]:
    """{"refundable", "policies"}: for each "<n>d" of the property's refunds map, the percent refunded
    for a cancellation until the end of the Korea day n days before check-in; none when the rate plan's
    model is not refundable (without a rate plan, the property's map alone). Raises 3000 for an unknown
    room type or rate plan."""
    sold = booking_sold(property_id, roomtype_id, rateplan_id)
    if sold.plan is not None and not sold.plan.model.refundable:
        return {"refundable": False, "policies": []}
    checkin_day = checkin.astimezone(KOREA).date() if isinstance(checkin, datetime.datetime) else checkin
    policies = []
    refunds: dict[str, Any] = sold.room_type.property.refunds or {}
    for key in sorted(refunds, key=lambda key: -int(key[:-1])):
        day = checkin_day - datetime.timedelta(days=int(key[:-1]))
        until = datetime.datetime.combine(day, datetime.time(23, 59, 59), tzinfo=KOREA)
        percent = refunds[key]
        policies.append({"until": until.isoformat(), "percent": int(percent) if percent == int(percent) else percent})
    return {"refundable": True, "policies": policies}


class BookingCounts(NamedTuple):
    """A property's bookings of today (Korea) on the dashboard (or every property's together)."""

    received: int
    pending: int
    arrivals: int


def _today_counts() -> tuple[Q, dict[str, Count]]:
    """The dashboard's three counts (BookingCounts' fields) of the bookings that any of them counts:
    received today, pending holds and today's arrivals (canceled ones left out, as the front desk's list
    shows them struck through). Each condition reads an index (received, status, check-in)."""
    start, end = korea_day_bounds(korea_today())
    received, pending = Q(created_at__gte=start), Q(status=Booking.Status.PENDING)
    arrivals = Q(checkin__gte=start, checkin__lt=end) & ~Q(status=Booking.Status.CANCELED)
    counts = {
        "received": Count("pk", filter=received),
        "pending": Count("pk", filter=pending),
        "arrivals": Count("pk", filter=arrivals),
    }
    return received | pending | arrivals, counts


def booking_counts(property_ids: Iterable[int]) -> dict[int, BookingCounts]:
    """{property_id: BookingCounts} for the dashboard's cards, in one query."""
    counted, counts = _today_counts()
    rows = (
        Booking.objects.filter(counted, property_id__in=property_ids)
        .order_by()
        .values_list("property_id")
        .annotate(**counts)
    )
    return {property_id: BookingCounts(*numbers) for property_id, *numbers in rows}


def booking_totals() -> BookingCounts:
    """BookingCounts of every property together (the dashboard's summary of an estate), in one query."""
    counted, counts = _today_counts()
    return BookingCounts(**Booking.objects.filter(counted).aggregate(**counts))


def korea_day_bounds(day: datetime.date) -> tuple[datetime.datetime, datetime.datetime]:
    """The first instant of day in Korea and of the day after: bounds in time that the indexes on check-in,
    check-out and received serve (a cast of every row's time to a date would not)."""
    start = datetime.datetime.combine(day, datetime.time(0), tzinfo=KOREA)
    return start, start + datetime.timedelta(days=1)


class DeskView(models.TextChoices):
    """The front desk's lists of a day."""

    ARRIVALS = "arrivals", _("Arrivals")
    DEPARTURES = "departures", _("Departures")
    IN_HOUSE = "inhouse", _("In house")


def bookings_for_desk(queryset: QuerySet[Booking], *, view: str, day: datetime.date) -> QuerySet[Booking]:
    """queryset narrowed to the front desk's view of day (Korea): arrivals check in that day and departures
    check out that day (a day use does both; canceled ones stay, marked); in house are the guests who stay
    the night of that day or use the room on it, canceled ones left out. Each reads one index."""
    start, end = korea_day_bounds(day)
    if view == DeskView.ARRIVALS:
        return queryset.filter(checkin__gte=start, checkin__lt=end)
    if view == DeskView.DEPARTURES:
        return queryset.filter(checkout__gte=start, checkout__lt=end)
    staying = queryset.exclude(status=Booking.Status.CANCELED).filter(checkin__lt=end, checkout__gt=start)
    if connection.vendor == "postgresql":
        # The nights held (a day use: its date), through their GIN index (bookings/0008): those of that
        # day only, where check-in and check-out bounds would read every later stay. The bounds stay, true
        # of every stay of that day: without them the list's check-out order led the planner to walk the
        # check-out index from the oldest stay (6.9 s at 1,000,000 bookings).
        return staying.filter(nights__contains=[day.isoformat()])
    # The same by times (SQLite has no JSON containment): those who leave that day stayed the night
    # before, unless it is a day use.
    return staying.exclude(type=Booking.Type.OVERNIGHT, checkout__lt=end)


#: Ordering of each front desk list: who comes first, who leaves first.
DESK_ORDERING = {
    DeskView.ARRIVALS: ["checkin", "pk"],
    DeskView.DEPARTURES: ["checkout", "pk"],
    DeskView.IN_HOUSE: ["checkout", "pk"],
}


def booking_desk_marks(booking: Booking) -> QuerySet[DeskMark]:
    """The front desk's marks on booking, oldest first, with who put them."""
    return DeskMark.objects.filter(booking=booking).select_related("marked_by").order_by("marked_at", "pk")


#: The calls a booking's history lists (the call log, filtered, has them all).
HISTORY_CALLS = 50


def booking_hub_calls(booking: Booking) -> QuerySet[InboundCall]:
    """The last HISTORY_CALLS calls the hub made about booking, newest first, without their bodies: by its
    number, which a refused call carries too (while only an answered one is linked to the booking)."""
    return (
        InboundCall.objects.filter(booking_number=booking.vendor_booking_number)
        .defer("request_headers", "request_body", "response_body")
        .order_by("-created_at", "-pk")[:HISTORY_CALLS]
    )


def booking_email_recipients(property_id: int) -> QuerySet[User]:
    """The users who receive property_id's booking e-mails: its active members with an e-mail address who
    have not turned them off (with their NotificationPreference, if any)."""
    return (
        get_user_model()
        .objects.filter(is_active=True, property_memberships__property_id=property_id)
        .exclude(email="")
        .exclude(notification_preference__booking_emails=False)
        .select_related("notification_preference")
        .order_by("pk")
    )


def property_email_members(properties: Iterable[Property] | QuerySet[Property]) -> QuerySet[PropertyMembership]:
    """For the managers' view: each membership of these properties with its user and their preference,
    by property then username."""
    return (
        PropertyMembership.objects.filter(property__in=properties)
        .select_related("property", "user__notification_preference")
        .order_by("property__name", "user__username")
    )


def inbound_answers_by_code(since: datetime.datetime) -> dict[str, int]:
    """{code: count} of the vendor API's answers since then ("" for a booking or a policy answered), the
    refused calls' included."""
    counts: dict[str, int] = {}
    for model in (InboundCall, RefusedCall):
        rows = model.objects.filter(created_at__gte=since).order_by()
        for code, count in rows.values_list("code").annotate(count=Count("id")).values_list("code", "count"):
            counts[code] = counts.get(code, 0) + count
    return counts


def call_log_tables() -> list[str]:
    """The database tables of the vendor API's call log: the calls, and the calls refused by authentication."""
    return [InboundCall._meta.db_table, RefusedCall._meta.db_table]


class CallLogGrowth(NamedTuple):
    """What the vendor API's call log (its calls and refused calls) grew by in a span of time."""

    rows: int
    bytes: int


def call_log_growth(since: datetime.datetime) -> CallLogGrowth:
    """The call log's rows and bytes added since then, at the cost of a few index lookups whatever its size:
    the rows are the ids handed out since (a rolled-back insert counts too), the bytes each table's size,
    indexes included (core.db.sizes), times the share of its rows that are that new."""
    rows = size = 0
    for model in (InboundCall, RefusedCall):
        calls = model.objects.order_by()
        newest = calls.order_by("-pk").values_list("pk", flat=True).first()
        first_new = calls.filter(created_at__gte=since).order_by("created_at").values_list("pk", flat=True).first()
        oldest = calls.order_by("pk").values_list("pk", flat=True).first()
        if newest is None or first_new is None or oldest is None:
            continue
        new = max(newest - first_new + 1, 0)
        rows += new
        size += table_bytes(model._meta.db_table) * new // (newest - oldest + 1)
    return CallLogGrowth(rows, size)
