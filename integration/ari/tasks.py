"""Celery tasks of rates and availability: thin wrappers that call one function of the area."""

from celery import shared_task

from .history import ari_history_purge


@shared_task(ignore_result=True)
def ari_history_purge_task():
    """Delete the history of rates and availability older than ARI_HISTORY_DAYS."""
    ari_history_purge()
