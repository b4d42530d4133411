"""Celery tasks of the integration app: thin wrappers that load by id and call one service."""

from celery import shared_task

from .catalog import catalog_refresh
from .hub.client import HubError
from .sync.outbox import sync_attempts_purge, sync_sweep
from .sync.sender import sync_send


@shared_task(bind=True, ignore_result=True)
def sync_resource(self, state_id):
    """Send one resource's current state to the hub (retries are queued by the sender itself)."""
    sync_send(state_id, owner=self.request.hostname)


@shared_task(ignore_result=True)
def sync_sweeper():
    """Queue again what a lost broker message or a dead worker left pending."""
    sync_sweep()


@shared_task(ignore_result=True)
def sync_attempts_purge_task():
    """Delete the hub sync log's attempts older than HUB_SYNC_LOG_DAYS."""
    sync_attempts_purge()


@shared_task(bind=True, ignore_result=True, max_retries=5)
def catalog_refresh_task(self):
    """Fetch and store the hub's code catalog (daily, from beat); a busy or unreachable hub is tried again."""
    try:
        catalog_refresh()
    except HubError as error:
        if not error.retryable:
            raise
        # Below the broker's visibility timeout, so that a waiting retry is not delivered twice.
        countdown = min(error.retry_after or 60 * 2**self.request.retries, 60 * 60)
        raise self.retry(exc=error, countdown=countdown) from error
