"""Celery tasks of the catalog: thin wrappers that call one service."""

from celery import shared_task

from core.background.jobs import JobTask

from ..hub.client import HubError
from ..hub.selectors import hub_scheduled_read_held
from .services.catalog import catalog_refresh


@shared_task(base=JobTask, bind=True, ignore_result=True, max_retries=5)
def catalog_refresh_task(self):
    """Fetch and store the hub's code catalog (daily, from beat); a busy or unreachable hub is tried again."""
    if hub_scheduled_read_held("catalog refresh"):
        return
    try:
        catalog_refresh()
    except HubError as error:
        if not error.retryable:
            raise
        # Below the broker's visibility timeout, so that a waiting retry is not delivered twice.
        countdown = min(error.retry_after or 60 * 2**self.request.retries, 60 * 60)
        raise self.retry(exc=error, countdown=countdown) from error
