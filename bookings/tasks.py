"""Celery tasks of the bookings app: thin wrappers that call one service."""

from celery import shared_task

from .services import bookings_release_expired, inbound_calls_purge


@shared_task(ignore_result=True)
def bookings_release_expired_task():
    """Give back the rooms of pending bookings the hub did not confirm within BOOKING_HOLD_MINUTES."""
    bookings_release_expired()


@shared_task(ignore_result=True)
def inbound_calls_purge_task():
    """Delete the vendor API's call log rows older than VENDOR_API_CALL_LOG_DAYS."""
    inbound_calls_purge()
