"""gunicorn's settings for the web process (`gunicorn -c python:config.gunicorn`, Procfile): the bind,
workers and access log stay on the command line; this only prepares the metrics folder in the master,
before it forks its workers (core.metrics)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def on_starting(server):
    """The master, once: the web processes' metrics folder, emptied of a previous run's files."""
    from core.metrics import metrics_process_start

    metrics_process_start("web")
