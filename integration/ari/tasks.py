"""Celery tasks of rates and availability: thin wrappers that call one function of the area."""

from datetime import timedelta

from celery import shared_task

from core.background.jobs import JobTask
from core.background.periodic import for_each_row

from ..content.models import Property
from .services.avail_rules import cutoff_push, cutoffs_due, lead_days_push
from .services.history import ari_history_purge
from .services.horizon import horizon_check_property, horizon_open_property
from .services.imports import APPLY_TASK, CHECK_TASK, ari_import_apply, ari_import_check


@shared_task(ignore_result=True)
def ari_history_purge_task() -> None:
    """Delete the history of rates and availability older than ARI_HISTORY_DAYS."""
    ari_history_purge()


@shared_task(ignore_result=True)
def ari_cutoffs_push_task() -> int:
    """Close today at the hub for the properties whose same-day cut-off has passed (Korea time)."""
    return for_each_row(cutoffs_due(), cutoff_push, what="same-day cut-off")


@shared_task(ignore_result=True)
def ari_lead_days_nightly_task() -> int:
    """Close at the hub the day each channel's lead days reach tonight."""
    return lead_days_push()


@shared_task(ignore_result=True)
def ari_horizon_nightly_task() -> int:
    """Open and push the day that comes within ARI_HORIZON_DAYS tonight, property by property."""
    ids = Property.objects.order_by("pk").values_list("pk", flat=True)
    return for_each_row(ids, horizon_open_property, what="horizon")


@shared_task(ignore_result=True)
def ari_horizon_check_nightly_task() -> int:
    """Find, property by property, the days the hub should hold and does not, and queue them again."""
    ids = Property.objects.order_by("pk").values_list("pk", flat=True)
    return for_each_row(ids, horizon_check_property, what="horizon check")


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
