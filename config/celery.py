"""The Celery application; its settings are the CELERY_* names in config.settings."""

import os

from celery import Celery, signals

from core.heartbeat import WorkerHeartbeat

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("vendorhub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Every worker writes its heartbeat for the deep health check (core.heartbeat).
app.steps["worker"].add(WorkerHeartbeat)


@signals.setup_logging.connect
def _django_logging(**kwargs):
    """Worker and beat keep Django's LOGGING (its format, and the filter that redacts tokens): with a
    receiver here, Celery configures no logging of its own (it would replace the root logger's handlers)."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)
