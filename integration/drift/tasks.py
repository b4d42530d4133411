"""Celery tasks of the drift check: thin wrappers around its services, named integration.tasks.* like
every task of the app (the services queue the runner by that name)."""

from celery import shared_task

from .services import RUN_TASK, drift_checks_request_all, drift_checks_run


@shared_task(name=RUN_TASK, ignore_result=True)
def drift_checks_run_task():
    """Run the queued drift checks, paced (one runner at a time)."""
    drift_checks_run()


@shared_task(name="integration.tasks.drift_checks_weekly", ignore_result=True)
def drift_checks_weekly():
    """Queue a drift check of every property (beat, weekly); the runner then works through them."""
    drift_checks_request_all()
