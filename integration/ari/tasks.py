"""Celery tasks of rates and availability: thin wrappers that call one function of the area."""

from datetime import timedelta

from celery import shared_task

from core.background.jobs import JobTask

from .services.history import ari_history_purge
from .services.imports import APPLY_TASK, CHECK_TASK, ari_import_apply, ari_import_check


@shared_task(ignore_result=True)
def ari_history_purge_task() -> None:
    """Delete the history of rates and availability older than ARI_HISTORY_DAYS."""
    ari_history_purge()


# A file of 8 MB (some 165,000 rows) is checked in one to a few minutes, and applied in a few; cut at 20
# minutes (the import is then failed, saying so), killed at 22; the lease outlives that.
IMPORT_TASK_OPTIONS = {
    "base": JobTask,
    "lease": timedelta(minutes=30),
    "ignore_result": True,
    "soft_time_limit": 20 * 60,
    "time_limit": 22 * 60,
}


@shared_task(name=CHECK_TASK, **IMPORT_TASK_OPTIONS)
def ari_import_check_task(import_id: int) -> None:
    """Check every row of an uploaded rates and availability file (queued by the upload)."""
    ari_import_check(import_id=import_id)


@shared_task(name=APPLY_TASK, **IMPORT_TASK_OPTIONS)
def ari_import_apply_task(import_id: int) -> None:
    """Apply the rows of a checked file that change, without the rows with errors."""
    ari_import_apply(import_id=import_id)
