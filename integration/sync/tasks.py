"""Celery tasks of the sync engine: thin wrappers that load by id and call one function of the engine.

Each is named by Celery's default, its module path; the outbox queues sync_resource_task by name (SEND_TASK)
rather than importing this module.
"""

from celery import Task, shared_task

from core.background.jobs import JobTask
from core.background.leases import retried_if_database_lost

from .services.outbox import sync_attempts_purge, sync_sweep
from .services.pause import sync_resume_publish
from .services.sender import send_time_limits, sync_send
from .services.switch import sync_switch_publish

_SEND_SOFT_LIMIT, _SEND_HARD_LIMIT = send_time_limits()


# Its time limits come from the hub's timeouts; the row's lease outlives the hard one (sender.py).
@shared_task(bind=True, ignore_result=True, soft_time_limit=_SEND_SOFT_LIMIT, time_limit=_SEND_HARD_LIMIT)
def sync_resource_task(self: Task, state_id: int) -> None:
    """Send one resource's current state to the hub (retries are queued by the sender itself; a send that
    lost the database retries as this task, taking its row's lease back)."""
    with retried_if_database_lost(self):
        sync_send(state_id, owner=self.request.hostname, task=self.request.id)


@shared_task(ignore_result=True)
def sync_sweeper_task() -> None:
    """Queue again what a lost broker message or a dead worker left pending."""
    sync_sweep()


@shared_task(ignore_result=True)
def sync_attempts_purge_task() -> None:
    """Delete the hub sync log's attempts older than HUB_SYNC_LOG_DAYS."""
    sync_attempts_purge()


@shared_task(base=JobTask, ignore_result=True)
def sync_switch_publish_task(switch_id: int) -> None:
    """Queue the sends of a switch of hub environment, parents first (a durable job the switch records)."""
    sync_switch_publish(switch_id)


@shared_task(base=JobTask, ignore_result=True)
def sync_resume_publish_task() -> None:
    """Queue every pending send once distribution resumes, availability first (a durable job the resume
    records)."""
    sync_resume_publish()
