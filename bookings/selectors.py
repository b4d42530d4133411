"""Reads of bookings for screens."""

import datetime
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.db import connection, models
from django.db.models import Count, Q
from django.utils.translation import gettext_lazy as _

from core.dates import KOREA, korea_today
from integration.models import PropertyMembership

from .models import Booking, InboundCall


class BookingCounts(NamedTuple):
    """A property's bookings of today (Korea) on the dashboard (or every property's together)."""

    received: int
    pending: int
    arrivals: int


def _today_counts():
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


def booking_counts(property_ids):
    """{property_id: BookingCounts} for the dashboard's cards, in one query."""
    counted, counts = _today_counts()
    rows = (
        Booking.objects.filter(counted, property_id__in=property_ids)
        .order_by()
        .values_list("property_id")
        .annotate(**counts)
    )
    return {property_id: BookingCounts(*numbers) for property_id, *numbers in rows}


def booking_totals():
    """BookingCounts of every property together (the dashboard's summary of an estate), in one query."""
    counted, counts = _today_counts()
    return BookingCounts(**Booking.objects.filter(counted).aggregate(**counts))


def korea_day_bounds(day):
    """The first instant of day in Korea and of the day after: bounds in time that the indexes on check-in,
    check-out and received serve (a cast of every row's time to a date would not)."""
    start = datetime.datetime.combine(day, datetime.time(0), tzinfo=KOREA)
    return start, start + datetime.timedelta(days=1)


class DeskView(models.TextChoices):
    """The front desk's lists of a day."""

    ARRIVALS = "arrivals", _("Arrivals")
    DEPARTURES = "departures", _("Departures")
    IN_HOUSE = "inhouse", _("In house")


def bookings_for_desk(queryset, *, view, day):
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


#: The calls a booking's history lists (the call log, filtered, has them all).
HISTORY_CALLS = 50


def booking_hub_calls(booking):
    """The last HISTORY_CALLS calls the hub made about booking, newest first, without their bodies: by its
    number, which a refused call carries too (while only an answered one is linked to the booking)."""
    return (
        InboundCall.objects.filter(booking_number=booking.vendor_booking_number)
        .defer("request_headers", "request_body", "response_body")
        .order_by("-created_at", "-pk")[:HISTORY_CALLS]
    )


def booking_email_recipients(property_id):
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


def property_email_members(properties):
    """For the managers' view: each membership of these properties with its user and their preference,
    by property then username."""
    return (
        PropertyMembership.objects.filter(property__in=properties)
        .select_related("property", "user__notification_preference")
        .order_by("property__name", "user__username")
    )


def inbound_answers_by_code(since):
    """{code: count} of the vendor API's answers since then ("" for a booking or a policy answered)."""
    rows = InboundCall.objects.filter(created_at__gte=since).order_by()
    return dict(rows.values_list("code").annotate(count=Count("id")).values_list("code", "count"))
