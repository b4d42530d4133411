"""Celery tasks of the sandbox: thin wrappers that call one service."""

from celery import shared_task

from .sales import sell_at_random


@shared_task(ignore_result=True)
def sandbox_sell_task():
    """Sell a room as the hub would, so that the demo shows bookings arriving (HUB_SANDBOX_SELL_SECONDS)."""
    sell_at_random()
