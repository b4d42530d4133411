"""E-mail backends that fail like an SMTP server does, for the notification tests."""

import smtplib

from django.core import mail
from django.core.mail.backends.locmem import EmailBackend

#: How many sends each failing backend refused in this test, and how many it should refuse (FLAKY).
calls = {"refused": 0, "fail_first": 0}


class DownBackend(EmailBackend):
    """An SMTP server that always fails."""

    def send_messages(self, messages):
        calls["refused"] += 1
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


class FlakyBackend(EmailBackend):
    """An SMTP server that fails calls["fail_first"] times, then delivers to mail.outbox."""

    def send_messages(self, messages):
        if calls["refused"] < calls["fail_first"]:
            calls["refused"] += 1
            raise smtplib.SMTPResponseException(421, b"Service not available, try again later")
        return super().send_messages(messages)


def reset(*, fail_first=0):
    """Start a test with no refusals counted and an empty outbox."""
    calls.update(refused=0, fail_first=fail_first)
    mail.outbox = []
