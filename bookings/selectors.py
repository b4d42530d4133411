"""Reads of bookings for screens."""

import datetime

from django.contrib.auth import get_user_model
from django.db.models import Count, Q

from core.dates import KOREA, korea_today
from integration.models import PropertyMembership

from .models import Booking, InboundCall


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
