"""One e-mail per event and person, whatever restarts (core.mail.mail_send_once): a claim before the SMTP
exchange, marked sent after it; a claim left unconfirmed is sent again with the same Message-ID."""

import email
import os
import signal
import subprocess
import sys
from datetime import timedelta

import pytest
from celery import current_app
from django.conf import settings
from django.core import mail
from django.db import connection
from django.utils import timezone

from core.background import jobs
from core.background import queue as core_queue
from core.mail import mail_message_id, mail_send_once, sent_mails_purge
from core.models import Job, SentMail
from inbox.choices import EventKind
from inbox.models import InboxPreference
from inbox.services import SEND_TASK, event_notify, event_record
from tests.factories import UserFactory, member
from tests.hub_fixtures import wait_until

from .mail_worker import run_job

pytestmark = pytest.mark.django_db(transaction=True)


def message(to="a@example.com"):
    return mail.EmailMessage("subject", "body", to=[to])


def test_a_key_sent_already_is_not_sent_again():
    user = UserFactory(email="a@example.com")
    at = timezone.now()

    assert mail_send_once(message(), key="booking:1:modified:a", user=user, event_at=at) is True
    assert mail_send_once(message(), key="booking:1:modified:a", user=user, event_at=at) is False
    # Another occurrence of the same event (the booking changed again) is its own e-mail.
    assert mail_send_once(message(), key="booking:1:modified:b", user=user, event_at=at) is True

    assert len(mail.outbox) == 2
    sent = SentMail.objects.get(key="booking:1:modified:a")
    assert sent.event_at == at
    assert sent.created_at <= sent.sent_at


def test_a_claim_left_unconfirmed_is_sent_again_with_the_same_message_id():
    user = UserFactory(email="a@example.com")
    SentMail.objects.create(key="inbox:7", user=user, event_at=timezone.now())  # a run died after its claim

    assert mail_send_once(message(), key="inbox:7", user=user, event_at=timezone.now()) is True

    [sent] = mail.outbox
    assert sent.message()["Message-ID"] == mail_message_id("inbox:7", user.pk)
    assert SentMail.objects.get(key="inbox:7").sent_at is not None


def test_an_smtp_error_releases_the_claim_so_that_the_retry_sends(settings):
    settings.EMAIL_BACKEND = "tests.bookings.mail_backends.DownBackend"
    user = UserFactory(email="a@example.com")

    with pytest.raises(OSError, match="Connection unexpectedly closed"):
        mail_send_once(message(), key="inbox:8", user=user, event_at=timezone.now())

    assert not SentMail.objects.exists()


def test_records_of_sent_mails_are_purged_after_a_month():
    user = UserFactory(email="a@example.com")
    old = SentMail.objects.create(key="inbox:1", user=user, event_at=timezone.now(), sent_at=timezone.now())
    SentMail.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=31))
    SentMail.objects.create(key="inbox:2", user=user, event_at=timezone.now(), sent_at=timezone.now())

    assert sent_mails_purge() == 1
    assert list(SentMail.objects.values_list("key", flat=True)) == ["inbox:2"]


def _database_url():
    database = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{database['NAME']}"
    return f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"


@pytest.mark.subprocess
def test_a_worker_killed_after_the_smtp_exchange_leaves_the_recipient_one_e_mail(
    property_a, tmp_path, monkeypatch, empty_queues
):
    """The worker's process dies after the SMTP server took the e-mail and before its job's end (the
    send unconfirmed, the job held): the job runs again once its lease expires, and the recipient's mail
    system holds the e-mail once (the same Message-ID twice is one message)."""
    recipient = member(property_a, "manager", email="manager@example.com")
    InboxPreference.objects.create(user=recipient, emails=True)
    event = event_record(property_id=property_a.pk, kind=EventKind.LICENSE_REJECTED, object_id=1, subject="#7")
    Job.objects.all().delete()  # the fan-out is run here; the test runs the one send job it queues
    event_notify(event_id=event.pk)
    current_app.control.purge()
    job = Job.objects.get(task=SEND_TASK)
    mailbox = tmp_path / "mailbox"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": _database_url(),
        "EMAIL_BACKEND": "tests.core.mail_worker.BlockingFileBackend",
        "EMAIL_FILE_PATH": str(mailbox),
        "CELERY_BROKER_URL": "memory://localhost/",
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "tests.core.mail_worker", SEND_TASK, str(job.pk)],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert worker.stdout.readline() == b"sent\n"
    finally:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()
    assert Job.objects.get(pk=job.pk).lease_until > timezone.now()  # held by the dead process

    # Its lease expires (its message, taken by the dead process, long gone); the sweeper queues it again,
    # and a worker runs it.
    long_ago = timezone.now() - jobs.QUEUE_GRACE * 2
    Job.objects.filter(pk=job.pk).update(lease_until=long_ago, queued_at=long_ago, due_at=long_ago)
    queued = []
    monkeypatch.setattr(core_queue, "publish", lambda task, args=(), **options: queued.append(task) or True)
    jobs.broker_lost_messages("jobs")
    assert jobs.job_sweep() == 1
    assert queued == [SEND_TASK]
    monkeypatch.setattr(settings, "EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
    monkeypatch.setattr(settings, "EMAIL_FILE_PATH", str(mailbox))
    run_job(SEND_TASK, job.pk)

    wait_until(lambda: not Job.objects.filter(pk=job.pk).exists(), message="the job's end")
    received = [email.message_from_bytes(path.read_bytes()) for path in sorted(mailbox.iterdir())]
    assert [message["To"] for message in received] == ["manager@example.com"] * 2  # sent, and sent again
    assert len({message["Message-ID"] for message in received}) == 1  # one e-mail to the recipient
    assert SentMail.objects.get(user=recipient).sent_at is not None
