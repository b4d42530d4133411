"""Celery tasks of the sales channels area: thin wrappers that call one service.

Open requests, sales settings and mappings have no task of their own: the sync engine's sync_resource_task
task delivers them.
"""

from celery import shared_task

from core.background.jobs import JobTask

from ..content.models import Property
from ..hub.client import HubError
from ..hub.selectors import hub_scheduled_read_held
from .services import (
    property_channels_refresh,
    property_channels_refresh_requested,
    sales_channels_refresh,
)


def _retry_later(task, error):
    if not error.retryable:
        raise error
    # Below the broker's visibility timeout, so that a waiting retry is not delivered twice.
    countdown = min(error.retry_after or 60 * 2**task.request.retries, 60 * 60)
    raise task.retry(exc=error, countdown=countdown) from error


@shared_task(base=JobTask, bind=True, ignore_result=True, max_retries=5)
def sales_channels_refresh_task(self):
    """Read the hub's channel list (daily, from beat, and the admin's button); a busy hub is tried again."""
    if hub_scheduled_read_held("channel list refresh"):
        return
    try:
        sales_channels_refresh()
    except HubError as error:
        _retry_later(self, error)


@shared_task(base=JobTask, bind=True, ignore_result=True, max_retries=3)
def property_channels_refresh_task(self, property_id):
    """Read one property's channel statuses and requests from the hub (the admin's "refresh")."""
    prop = Property.objects.filter(pk=property_id).first()
    if prop is None:
        return
    try:
        property_channels_refresh(property=prop)
    except HubError as error:
        _retry_later(self, error)


@shared_task(ignore_result=True)
def property_channels_refresh_requested_task():
    """Read back the hub's review of every property's pending open requests (periodic, from beat)."""
    if not hub_scheduled_read_held("channel requests read-back"):
        property_channels_refresh_requested()
