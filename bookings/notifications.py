"""Booking e-mails: new, changed and canceled bookings told to the property's members, each in their
language, unless they turned them off.

The decisions, in this one place (README, "Booking e-mails"):
- A booking is news to the front desk once it is confirmed (by the hub's confirm, or on create for a cms
  channel): a pending hold (which may expire unseen) sends nothing, its confirmation sends "new booking";
  changes and cancellations are sent only for bookings that were confirmed (confirmed_at set), so that a
  hold the hub drops stays silent.
- Recipients are the property's members (PropertyMembership) who are active, have an e-mail address and
  have not turned booking e-mails off; a member without a NotificationPreference gets them in Korean.
- The booking services only record, in their transaction, one durable job per event (NOTIFY_TASK, queued
  after the commit); that task records one job per recipient (SEND_TASK), so that an SMTP failure retries
  that one mail alone and never touches the booking or the vendor API's answer. Jobs survive a broker
  outage and a dead worker (core.background.jobs): a mail is delayed by them, never lost.
- Each event is one occurrence (an id drawn when it is recorded: a booking changed twice is two), sent
  once per recipient whatever restarts (core.mail.mail_send_once, keyed "booking:<id>:<event>:<occurrence>").
"""

from datetime import datetime
from uuid import uuid4

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.background.jobs import job_queue
from core.mail import mail_message, mail_send_once

from .models import Booking, NotificationPreference
from .selectors import booking_email_recipients
from .signals import booking_received

#: The Celery tasks (bookings.tasks), queued by name: services never import tasks.
NOTIFY_TASK = "bookings.tasks.booking_notify_task"
SEND_TASK = "bookings.tasks.booking_email_send_task"
#: The language of a member who never chose one.
DEFAULT_EMAIL_LANGUAGE = "ko"


class BookingEvent(models.TextChoices):
    """What happened to a booking, as its e-mail tells it."""

    CREATED = "created", _("New booking")
    MODIFIED = "modified", _("Booking changed")
    CANCELED = "canceled", _("Booking canceled")


def booking_notify_on_commit(*, booking: Booking, event: BookingEvent) -> None:
    """Record, in the caller's transaction, that the e-mails of event for booking are to be sent, queued
    once it commits (nothing if it rolls back). A broker that is down delays them, never fails the caller."""
    job_queue(NOTIFY_TASK, booking.pk, str(event), *_occurrence())


def _occurrence() -> tuple[str, str]:
    """A new occurrence of an event: its id (what tells two changes of one booking apart) and when it
    happened (ISO 8601)."""
    return uuid4().hex, timezone.now().isoformat()


def booking_notify(*, booking_id: int, event: str, occurrence: str | None, event_at: str | None) -> int:
    """Queue one e-mail of event (its occurrence, which happened at event_at, ISO 8601) per member of the
    booking's property who receives them, and for a new booking tell the inbox (booking_received).
    Returns how many e-mails."""
    booking = Booking.objects.filter(pk=booking_id).first()
    if booking is None or booking.confirmed_at is None:
        return 0
    if occurrence is None:  # a job recorded before occurrences were
        occurrence, event_at = _occurrence()
    user_ids = [user.pk for user in booking_email_recipients(booking.property_id)]
    with transaction.atomic():
        # The apps above (the inbox) hear of the new booking in the same transaction as its e-mails' jobs.
        if event == BookingEvent.CREATED:
            booking_received.send(sender=Booking, booking=booking)
        for user_id in user_ids:
            job_queue(SEND_TASK, booking_id, str(event), user_id, occurrence, event_at)
    return len(user_ids)


def booking_email_send(
    *, booking_id: int, event: str, user_id: int, occurrence: str | None, event_at: str | None
) -> bool:
    """Send one member the e-mail of event's occurrence (which happened at event_at, ISO 8601), if they
    still receive them and were not sent it already. Returns whether it was sent; SMTP errors (OSError)
    reach the caller, which retries."""
    booking = (
        Booking.objects.select_related("property", "room_type", "rate_plan__model")
        .prefetch_related(
            "room_type__translations", "rate_plan__room_type__translations", "rate_plan__model__translations"
        )
        .filter(pk=booking_id)
        .first()
    )
    user = booking_email_recipients(booking.property_id).filter(pk=user_id).first() if booking else None
    if booking is None or user is None:  # the booking is gone, or the member left or turned e-mails off since
        return False
    if occurrence is None or event_at is None:  # a job recorded before occurrences were (both None): its own
        occurrence, event_at = _occurrence()
    return mail_send_once(
        booking_email_message(booking=booking, event=BookingEvent(event), user=user),
        key=f"booking:{booking_id}:{event}:{occurrence}",
        user=user,
        event_at=datetime.fromisoformat(event_at),
    )


def email_language(user: User) -> str:
    """The language of user's e-mails (booking e-mails and the inbox's): their choice, Korean by default."""
    try:
        return user.notification_preference.language
    except NotificationPreference.DoesNotExist:
        return DEFAULT_EMAIL_LANGUAGE


def booking_email_message(*, booking: Booking, event: BookingEvent, user: User) -> EmailMultiAlternatives:
    """The e-mail (plain text and HTML) telling user of event, in user's language."""
    context = {
        "booking": booking,
        "event": event,
        "event_label": event.label,
        "user": user,
        "admin_url": settings.SITE_URL + reverse("admin:bookings_booking_change", args=[booking.pk]),
        "guests": booking.adults + booking.children + booking.infants,
    }
    return mail_message(
        template_prefix="bookings/email/booking", context=context, language=email_language(user), to=[user.email]
    )


def notification_preference_set(*, user: User, booking_emails: bool, language: str) -> NotificationPreference:
    """Record whether user receives booking e-mails and in which language."""
    preference, _created = NotificationPreference.objects.update_or_create(
        user=user, defaults={"booking_emails": booking_emails, "language": language}
    )
    return preference
