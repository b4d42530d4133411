"""Reads of bookings for screens."""

import datetime

from django.db.models import Count, Q

from integration.ari.dates import KOREA, korea_today

from .models import Booking


def booking_counts(property_ids):
    """{property_id: (bookings arrived today in Korea, pending holds)} for the dashboard, in one query."""
    today = datetime.datetime.combine(korea_today(), datetime.time(0), tzinfo=KOREA)
    arrived, pending = Q(created_at__gte=today), Q(status=Booking.Status.PENDING)
    rows = (
        Booking.objects.filter(arrived | pending, property_id__in=property_ids)
        .order_by()
        .values("property_id")
        .annotate(arrived=Count("pk", filter=arrived), pending=Count("pk", filter=pending))
    )
    return {row["property_id"]: (row["arrived"], row["pending"]) for row in rows}
