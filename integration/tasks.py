"""Celery tasks of the integration app: thin wrappers that load by id and call one service."""

from celery import shared_task

from .sync.outbox import sync_sweep
from .sync.sender import sync_send


@shared_task(ignore_result=True)
def sync_resource(state_id):
    """Send one resource's current state to the hub (retries are queued by the sender itself)."""
    sync_send(state_id)


@shared_task(ignore_result=True)
def sync_sweeper():
    """Queue again what a lost broker message or a dead worker left pending."""
    sync_sweep()
