"""Celery tasks of core: thin wrappers that call one function."""

from celery import shared_task

from core.background.jobs import job_sweep
from core.mail import sent_mails_purge


@shared_task(ignore_result=True)
def job_sweeper_task():
    """Queue again the durable jobs whose message was lost, never sent or left by a dead worker."""
    job_sweep()


@shared_task(ignore_result=True)
def sent_mails_purge_task():
    """Delete the records of the e-mails sent a month ago and more."""
    sent_mails_purge()
