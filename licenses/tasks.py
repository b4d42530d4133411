"""Celery tasks of the licenses app: thin wrappers that load by id and call one service.

Submissions have no task of their own: the sync engine's sync_resource_task delivers them.
"""

from celery import shared_task

from core.background.jobs import JobTask
from integration.hub.client import HubError
from integration.hub.selectors import hub_scheduled_read_held
from integration.models import Property

from .services import license_requests_refresh, license_requests_refresh_open


@shared_task(ignore_result=True)
def license_requests_refresh_open_task():
    """Read back the hub's review of every request under review (periodic, from beat)."""
    if not hub_scheduled_read_held("license requests read-back"):
        license_requests_refresh_open()


@shared_task(base=JobTask, bind=True, ignore_result=True, max_retries=3)
def license_requests_refresh_task(self, property_id):
    """Read back the hub's review of one property's requests (the admin's "refresh"); a busy or
    unreachable hub is tried again."""
    prop = Property.objects.filter(pk=property_id).first()
    if prop is None:
        return
    try:
        license_requests_refresh(property=prop)
    except HubError as error:
        if not error.retryable:
            raise
        countdown = min(error.retry_after or 30 * 2**self.request.retries, 60 * 60)
        raise self.retry(exc=error, countdown=countdown) from error
