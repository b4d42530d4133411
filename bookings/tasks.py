"""Celery tasks of the bookings app: thin wrappers that call one service."""

from celery import shared_task

from core.mail import MAIL_NOTIFY_TASK_OPTIONS, MAIL_SEND_TASK_OPTIONS, mail_send_or_retry
from core.metrics import booking_email_counted

from .notifications import booking_email_send, booking_notify
from .services import bookings_release_expired, inbound_calls_purge, seen_webhooks_purge


@shared_task(ignore_result=True)
def bookings_release_expired_task():
    """Give back the rooms of pending bookings the hub did not confirm within BOOKING_HOLD_MINUTES."""
    bookings_release_expired()


@shared_task(ignore_result=True)
def inbound_calls_purge_task():
    """Delete the vendor API's call log rows older than VENDOR_API_CALL_LOG_DAYS."""
    inbound_calls_purge()


@shared_task(ignore_result=True)
def seen_webhooks_purge_task():
    """Delete the webhook-ids seen longer ago than a call carrying them could be accepted."""
    seen_webhooks_purge()


@shared_task(**MAIL_NOTIFY_TASK_OPTIONS)
def booking_notify_task(booking_id, event, occurrence=None, event_at=None):
    """Queue the e-mails of a booking event, one per member who receives them. (occurrence and event_at are
    missing from the jobs recorded before 1.0.0: their e-mails still go, as a new occurrence.)"""
    booking_notify(booking_id=booking_id, event=event, occurrence=occurrence, event_at=event_at)


@shared_task(**MAIL_SEND_TASK_OPTIONS)
def booking_email_send_task(self, booking_id, event, user_id, occurrence=None, event_at=None):
    """Send one member one booking e-mail; an SMTP server that fails or cannot be reached is tried again
    with exponential backoff and jitter (eight times, over about three hours), a refused address is not."""
    mail_send_or_retry(
        self,
        lambda: booking_email_send(
            booking_id=booking_id, event=event, user_id=user_id, occurrence=occurrence, event_at=event_at
        ),
        counted=booking_email_counted,
    )
