"""E-mails to the people of the back office (booking e-mails, the inbox's): built in the reader's language
from a subject, a plain text and an HTML template, and sent once per event and person (mail_send_once) by
a durable job that retries what the SMTP server did not take."""

import hashlib
import logging
import random
import smtplib
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import timezone, translation

from core.background.jobs import JobTask
from core.background.retention import purge_before
from core.models import SentMail

logger = logging.getLogger(__name__)

#: Retries of one e-mail whose SMTP server fails or cannot be reached (exponential, about three hours).
MAIL_MAX_RETRIES = 8
#: The e-mails sent are remembered this long (far longer than a job may run again), then deleted.
SENT_MAILS_KEPT = timedelta(days=30)

#: The Celery options of a task that sends one e-mail as a durable job: one SMTP exchange (EMAIL_TIMEOUT, 10 s)
#: cut at a minute and a half; a worker that died in the middle delays the mail two minutes (the lease outlives
#: the hard limit).
MAIL_SEND_TASK_OPTIONS = {
    "base": JobTask,
    "lease": timedelta(minutes=2),
    "soft_time_limit": 60,
    "time_limit": 90,
    "bind": True,
    "ignore_result": True,
    "max_retries": MAIL_MAX_RETRIES,
}

#: The Celery options of a task that records an event's e-mails as jobs, one per recipient (a few
#: statements): a lease of a minute, so that a run cut off by a database restart whose retry message was
#: lost too (a Redis restarted empty) delays the e-mails a minute, not ten.
MAIL_NOTIFY_TASK_OPTIONS = {
    "base": JobTask,
    "lease": timedelta(minutes=1),
    "soft_time_limit": 30,
    "time_limit": 45,
    "ignore_result": True,
}


def mail_message(*, template_prefix, context, language, to):
    """The e-mail rendered in language from `<template_prefix>_subject.txt`, `_body.txt` and `_body.html`
    (the context gets `language`), to the addresses to."""
    with translation.override(language):
        context = {**context, "language": language}
        subject = " ".join(render_to_string(f"{template_prefix}_subject.txt", context).split())
        text = render_to_string(f"{template_prefix}_body.txt", context)
        html = render_to_string(f"{template_prefix}_body.html", context)
    message = EmailMultiAlternatives(subject, text, to=to)
    message.attach_alternative(html, "text/html")
    return message


def mail_send_or_retry(task, send, *, counted=None):
    """Run send() in the bound Celery task: an address the SMTP server refuses is logged and dropped, any
    other SMTP or network error (OSError) retries the task with exponential backoff and jitter. counted(
    "sent" | "refused" | "failed") is told each outcome when given; send() returns whether it sent."""
    try:
        sent = send()
    except smtplib.SMTPRecipientsRefused as error:
        if counted:
            counted("refused")
        logger.warning("the SMTP server refused %s in %s", list(error.recipients), task.name)
        return False
    except OSError as error:  # smtplib.SMTPException, refused connections and timeouts
        if counted:
            counted("failed")
        # Below the broker's visibility timeout, so that a waiting retry is not delivered twice.
        countdown = min(60 * 2**task.request.retries, 60 * 60)
        raise task.retry(exc=error, countdown=countdown + random.uniform(0, countdown / 4)) from error  # noqa: S311 (jitter)
    if sent and counted:
        counted("sent")
    return sent


def mail_send_once(message, *, key, user, event_at):
    """Send message to user unless the e-mail of key was sent to them already. The send is claimed in its
    own statement (committed: call it outside a transaction) before the SMTP exchange and marked sent
    after it; a claim left unconfirmed (the process died, or the database went away, in between) is sent
    again with the same Message-ID, derived from key, so that the receiving mail system drops the copy.
    An error of the send releases the claim and reaches the caller (which retries). event_at: when the
    event happened. Returns whether it sent."""
    claim, _created = SentMail.objects.get_or_create(key=key, user=user, defaults={"event_at": event_at})
    if claim.sent_at is not None:
        logger.info("e-mail %s to user %s was sent already: not sent again", key, user.pk)
        return False
    message.extra_headers["Message-ID"] = mail_message_id(key, user.pk)
    try:
        message.send()
    except Exception:
        SentMail.objects.filter(pk=claim.pk).delete()
        raise
    SentMail.objects.filter(pk=claim.pk).update(sent_at=timezone.now())
    return True


def mail_message_id(key, user_id):
    """The Message-ID of the e-mail of key to the user of user_id: the same for every send of it."""
    digest = hashlib.sha256(f"{key}/{user_id}".encode()).hexdigest()[:32]
    return f"<{digest}@{urlsplit(settings.SITE_URL).hostname or 'vendorhub'}>"


def sent_mails_purge(*, now=None):
    """Delete the records of e-mails claimed more than SENT_MAILS_KEPT ago. Returns how many."""
    return purge_before(SentMail.objects.all(), (now or timezone.now()) - SENT_MAILS_KEPT)
