"""The Celery application; its settings are the CELERY_* names in config.settings."""

import os

from celery import Celery, signals

from core import metrics, request_id
from core.background.heartbeat import WorkerHeartbeat

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("vendorhub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Every worker writes its heartbeat for the deep health check (core.background.heartbeat).
app.steps["worker"].add(WorkerHeartbeat)
# One request id from the request that queued a task to the tasks it queues (core.request_id).
signals.before_task_publish.connect(request_id.task_publishing, weak=False)
signals.task_prerun.connect(request_id.task_starting, weak=False)
signals.task_postrun.connect(request_id.task_finished, weak=False)
# Runs, failures and durations by task (core.metrics; nothing when METRICS_ENABLED is off).
signals.task_prerun.connect(metrics.task_started, weak=False)
signals.task_postrun.connect(metrics.task_ended, weak=False)


@signals.task_prerun.connect
def _database_checked(task=None, **kwargs):
    """A task starts with the database connection checked as a web request's is (the worker reuses it,
    settings.CELERY_DB_REUSE_MAX): one that failed, outlived CONN_MAX_AGE or no longer answers is replaced.
    Not for a task run eagerly, inside its caller's transaction."""
    from django.db import close_old_connections

    if not getattr(task.request, "is_eager", False):
        close_old_connections()


@signals.celeryd_init.connect
def _metrics_folder(sender=None, **kwargs):
    """A worker's main process, before it forks its pool: its own metrics folder, emptied (core.metrics)."""
    metrics.metrics_process_start(f"worker-{sender}")


@signals.celeryd_init.connect
def _niceness(sender=None, **kwargs):
    """A worker's main process, before it forks its pool: it and its processes (inheriting it) yield the
    CPU to the web process on a shared machine (settings.WORKER_NICENESS)."""
    from django.conf import settings

    if settings.WORKER_NICENESS:
        os.nice(settings.WORKER_NICENESS)


@signals.setup_logging.connect
def _django_logging(**kwargs):
    """Worker and beat keep Django's LOGGING (its format, and the filter that redacts tokens): with a
    receiver here, Celery configures no logging of its own (it would replace the root logger's handlers)."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)
