"""Celery tasks of going live: thin wrappers that call one service."""

from celery import shared_task

from .backup import backup_nightly


@shared_task(ignore_result=True, soft_time_limit=3 * 60 * 60, time_limit=3 * 60 * 60 + 300)
def backup_nightly_task():
    """The nightly backup into BACKUP_DIR (from beat, when BACKUP_DIR is set)."""
    backup_nightly()
