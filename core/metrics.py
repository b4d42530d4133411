"""Metrics in the Prometheus format (prometheus-client), recorded only when METRICS_ENABLED.

gunicorn and the Celery worker each run several processes, and a scrape reaches one of them: every
process writes its values to files (prometheus-client's multiprocess mode) and the scrape view
(config.metrics) adds up the files of every process. Each kind of process keeps its files in a folder of
its own under METRICS_DIR (`web`, `worker-<node name>`), emptied when that process starts
(`metrics_process_start`, called by gunicorn's master and by each worker's main process before they fork),
so that a restart of the web server does not delete the files a running worker writes to.

The metric objects are made at their first use, in the process that records (a gunicorn worker, a pool
process), never at import: where values go (files or memory) is chosen from PROMETHEUS_MULTIPROC_DIR then,
and with metrics off nothing is made or recorded.
docs/operator/monitoring.md ("Metrics") lists each series.
"""

import functools
import os
import shutil
import time
from pathlib import Path

from django.conf import settings

from core.once import made_once

#: Histogram buckets (seconds) of calls to the hub and of the vendor API's answers.
CALL_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
#: Task durations reach from a send (under a second) to a reconciliation (minutes).
TASK_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600)


def metrics_process_start(name):
    """Called once by a process that forks the ones that record (gunicorn's master, a worker's main
    process): its folder METRICS_DIR/name, emptied, becomes PROMETHEUS_MULTIPROC_DIR for it and its
    children. Nothing when metrics are off."""
    if not settings.METRICS_ENABLED:
        return
    folder = Path(settings.METRICS_DIR) / name
    shutil.rmtree(folder, ignore_errors=True)  # the files of this process's previous life
    folder.mkdir(parents=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(folder)


@made_once
def _metrics():
    from prometheus_client import Counter, Histogram, values

    # prometheus-client chose files or memory when it was first imported, which in a worker's main process
    # (its URLs load config.metrics) comes before metrics_process_start: choose again, now.
    values.ValueClass = values.get_value_class()

    return {
        "hub_requests": Counter("vendorhub_hub_requests", "Calls to the hub API", ["endpoint", "method", "status"]),
        "hub_seconds": Histogram(
            "vendorhub_hub_request_duration_seconds",
            "Time of a call to the hub API",
            ["endpoint", "method"],
            buckets=CALL_BUCKETS,
        ),
        "vendor_api_calls": Counter(
            "vendorhub_vendor_api_calls", "Calls of the hub to the vendor API, by answer code", ["operation", "code"]
        ),
        "vendor_api_seconds": Histogram(
            "vendorhub_vendor_api_call_duration_seconds",
            "Time the vendor API took to answer",
            ["operation"],
            buckets=CALL_BUCKETS,
        ),
        "task_runs": Counter("vendorhub_task_runs", "Runs of Celery tasks, by how they ended", ["task", "outcome"]),
        "task_seconds": Histogram(
            "vendorhub_task_duration_seconds", "Time of a Celery task's run", ["task"], buckets=TASK_BUCKETS
        ),
        "booking_emails": Counter("vendorhub_booking_emails", "Booking e-mails sent or not", ["outcome"]),
        "reconciliations": Counter("vendorhub_reconciliation_runs", "Settlement reconciliations finished", ["outcome"]),
        "drift_checks": Counter("vendorhub_drift_checks", "Drift checks finished", ["outcome"]),
    }


def _record(function):
    """The recording function, run only when metrics are on (with its metrics as first argument)."""

    @functools.wraps(function)
    def record(*args, **kwargs):
        if settings.METRICS_ENABLED:
            function(_metrics(), *args, **kwargs)

    return record


@_record
def hub_request_observed(metrics, endpoint, method, status, seconds):
    """One call to the hub: status is the HTTP status, or "timeout" / "unreachable" without an answer."""
    metrics["hub_requests"].labels(endpoint, method, str(status)).inc()
    metrics["hub_seconds"].labels(endpoint, method).observe(seconds)


@_record
def vendor_api_call_observed(metrics, operation, code, seconds):
    """One answer of the vendor API: code is the error code of decision 0012, or "ok"."""
    metrics["vendor_api_calls"].labels(operation, code or "ok").inc()
    metrics["vendor_api_seconds"].labels(operation).observe(seconds)


@_record
def booking_email_counted(metrics, outcome):
    """One booking e-mail: "sent", "failed" (the SMTP server failed: retried) or "refused" (the address)."""
    metrics["booking_emails"].labels(outcome).inc()


@_record
def reconciliation_counted(metrics, outcome):
    metrics["reconciliations"].labels(outcome).inc()


@_record
def drift_check_counted(metrics, outcome):
    metrics["drift_checks"].labels(outcome).inc()


def task_started(task, **kwargs):
    """Celery's task_prerun: the run's start, for its duration."""
    task.request.vendorhub_started = time.monotonic()


@_record
def _task_run(metrics, name, outcome, seconds):
    metrics["task_runs"].labels(name, outcome).inc()
    if seconds is not None:
        metrics["task_seconds"].labels(name).observe(seconds)


def task_ended(task, state=None, **kwargs):
    """Celery's task_postrun: one run of the task, by its end state (success, failure, retry)."""
    started = getattr(task.request, "vendorhub_started", None)
    _task_run(task.name, (state or "unknown").lower(), None if started is None else time.monotonic() - started)
