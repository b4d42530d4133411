"""Celery tasks of the inbox: thin wrappers that call one service."""

from celery import shared_task

from core.mail import MAIL_NOTIFY_TASK_OPTIONS, MAIL_SEND_TASK_OPTIONS, mail_send_or_retry

from .services import event_email_send, event_notify, events_purge


@shared_task(**MAIL_NOTIFY_TASK_OPTIONS)
def event_notify_task(event_id):
    """Queue the e-mails of a new inbox event, one per person who asked for them."""
    event_notify(event_id=event_id)


@shared_task(**MAIL_SEND_TASK_OPTIONS)
def event_email_send_task(self, event_id, user_id):
    """Send one person one inbox event by e-mail, retrying an SMTP server that fails (core.mail)."""
    mail_send_or_retry(self, lambda: event_email_send(event_id=event_id, user_id=user_id))


@shared_task(ignore_result=True)
def events_purge_task():
    """Delete read events a month after they last happened, and every event after a year."""
    events_purge()
