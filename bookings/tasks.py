"""Celery tasks of the bookings app: thin wrappers that call one service."""

from celery import shared_task

from .services import bookings_release_expired


@shared_task(ignore_result=True)
def bookings_release_expired_task():
    """Give back the rooms of pending bookings the hub did not confirm within BOOKING_HOLD_MINUTES."""
    bookings_release_expired()
