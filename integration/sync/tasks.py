"""Celery tasks of the sync engine: thin wrappers that load by id and call one function of the engine.

Each is named by Celery's default, its module path (config.settings.RENAMED_TASKS keeps the old names for
one release); the outbox queues sync_resource_task by name (SEND_TASK) rather than importing this module.
"""

from celery import shared_task

from .outbox import sync_attempts_purge, sync_sweep
from .sender import send_time_limits, sync_send

_SEND_SOFT_LIMIT, _SEND_HARD_LIMIT = send_time_limits()


# Its time limits come from the hub's timeouts; the row's lease outlives the hard one (sender.py).
@shared_task(bind=True, ignore_result=True, soft_time_limit=_SEND_SOFT_LIMIT, time_limit=_SEND_HARD_LIMIT)
def sync_resource_task(self, state_id):
    """Send one resource's current state to the hub (retries are queued by the sender itself)."""
    sync_send(state_id, owner=self.request.hostname)


@shared_task(ignore_result=True)
def sync_sweeper_task():
    """Queue again what a lost broker message or a dead worker left pending."""
    sync_sweep()


@shared_task(ignore_result=True)
def sync_attempts_purge_task():
    """Delete the hub sync log's attempts older than HUB_SYNC_LOG_DAYS."""
    sync_attempts_purge()
