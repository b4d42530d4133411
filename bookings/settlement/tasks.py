"""Celery tasks of settlement reconciliation: thin wrappers that call one service."""

from datetime import timedelta

from celery import shared_task

from core.background.jobs import JobTask
from integration.hub.selectors import hub_scheduled_read_held

from .services import reconciliation_run, reconciliations_nightly


# A run starts over when run again: no second run may start while one works (100,000 records take about
# 20 s to a few minutes). Cut at 50 minutes (the run is then failed, saying so: reconciliation_run), killed
# at 55; the lease outlives that.
@shared_task(
    base=JobTask,
    lease=timedelta(hours=1),
    ignore_result=True,
    soft_time_limit=50 * 60,
    time_limit=55 * 60,
)
def reconciliation_run_task(reconciliation_id):
    """Run one reconciliation (asked for on the screen, or by the nightly task)."""
    reconciliation_run(reconciliation_id=reconciliation_id)


@shared_task(ignore_result=True)
def reconciliations_nightly_task():
    """Ask for the previous month's reconciliation of every property (beat, every night)."""
    if not hub_scheduled_read_held("nightly settlement reconciliation"):
        reconciliations_nightly()
