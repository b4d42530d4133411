"""The Celery application; its settings are the CELERY_* names in config.settings."""

import os

from celery import Celery

from core.heartbeat import WorkerHeartbeat

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("vendorhub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Every worker writes its heartbeat for the deep health check (core.heartbeat).
app.steps["worker"].add(WorkerHeartbeat)
