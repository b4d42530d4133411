"""Celery tasks of settlement reconciliation: thin wrappers that call one service."""

from celery import shared_task

from .services import RUN_TASK, reconciliation_run, reconciliations_nightly

NIGHTLY_TASK = "settlement.tasks.reconciliations_nightly_task"


@shared_task(name=RUN_TASK, ignore_result=True)
def reconciliation_run_task(reconciliation_id):
    """Run one reconciliation (asked for on the screen, or by the nightly task)."""
    reconciliation_run(reconciliation_id=reconciliation_id)


@shared_task(name=NIGHTLY_TASK, ignore_result=True)
def reconciliations_nightly_task():
    """Ask for the previous month's reconciliation of every property (beat, every night)."""
    reconciliations_nightly()
