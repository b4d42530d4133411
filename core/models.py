"""Durable jobs, process heartbeats and the e-mails sent."""

from django.conf import settings
from django.db import models


class Job(models.Model):
    """Work that must happen (a booking e-mail, a reconciliation run, a read-back a screen asked for),
    recorded in the transaction that asks for it and queued by task name after the commit. The row lives
    until the task has run: a message the broker lost, or a worker that died, is queued again by the
    sweeper (core.background.jobs)."""

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    #: When it may run: at once, or after a retry's backoff.
    due_at = models.DateTimeField()
    #: When its message was last published; null when that failed (the broker was down).
    queued_at = models.DateTimeField(null=True)
    #: While a worker runs it: no other worker takes it before this time.
    lease_until = models.DateTimeField(null=True)
    #: The Celery task id of the run holding the lease: its retry takes the lease back (core.background.leases).
    lease_task = models.CharField(max_length=200, null=True)  # noqa: DJ001
    attempts = models.PositiveIntegerField(default=0)
    #: Set when it failed for good; the sweeper leaves it, the health page counts it.
    failed_at = models.DateTimeField(null=True)
    last_error = models.TextField(blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["due_at"], name="job_waiting", condition=models.Q(failed_at__isnull=True)),
        ]

    def __str__(self):
        return f"{self.task}{tuple(self.args)!r}"


class Heartbeat(models.Model):
    """The last sign of life of a process (a worker by its node name, beat), for the deep health check."""

    name = models.CharField(max_length=200, primary_key=True)
    at = models.DateTimeField()
    #: The queues a worker takes, comma-separated (empty for beat).
    queues = models.CharField(max_length=200, blank=True)

    def __str__(self):
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"


class SentMail(models.Model):
    """One e-mail of one event to one person, by its key (core.mail.mail_send_once): claimed before the SMTP
    exchange and marked sent after it, so that a job run again sends nothing, or (a claim left unconfirmed)
    the same message again, which the receiving mail system drops by its Message-ID. Its times give an
    e-mail's delay: the event's, the claim's and the send's."""

    #: What the e-mail tells, one occurrence of an event: "booking:<id>:<event>:<occurrence>", "inbox:<id>".
    key = models.CharField(max_length=200)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    #: When the event happened.
    event_at = models.DateTimeField()
    #: When the send was first claimed.
    created_at = models.DateTimeField(auto_now_add=True)
    #: When the SMTP server took it; null while claimed (a sending run, or one that died before marking it).
    sent_at = models.DateTimeField(null=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "user"], name="sent_mail_once")]

    def __str__(self):
        return f"{self.key} to {self.user_id}"
