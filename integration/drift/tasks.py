"""Celery tasks of the drift check: thin wrappers around its services (the services queue the runner by
its name, RUN_TASK)."""

from datetime import timedelta

from celery import shared_task

from core.background.jobs import JobTask

from ..hub.selectors import hub_scheduled_read_held
from .services import drift_checks_request_all, drift_checks_run


class DriftRunnerJob(JobTask):
    """A runner starts no check after RUNNER_BUDGET (30 minutes) and is cut at its soft limit (an hour): its
    lease outlives the hard limit. A second runner queued while one runs finds the runner's lock held and
    returns at once."""

    lease = timedelta(minutes=70)


@shared_task(base=DriftRunnerJob, ignore_result=True, soft_time_limit=60 * 60, time_limit=62 * 60)
def drift_checks_run_task():
    """Run the queued drift checks, paced (one runner at a time)."""
    drift_checks_run()


@shared_task(ignore_result=True)
def drift_checks_weekly_task():
    """Queue a drift check of every property (beat, weekly); the runner then works through them."""
    if not hub_scheduled_read_held("weekly drift check"):
        drift_checks_request_all()
