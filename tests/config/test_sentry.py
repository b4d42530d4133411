"""Error tracking: with SENTRY_DSN a task's exception reaches Sentry (here a fake transport that keeps the
envelopes), passed through the logs' redaction first; without it nothing is set up."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
import sentry_sdk
from celery import shared_task
from django.conf import settings
from sentry_sdk.transport import Transport

from config.log_filters import REDACTED
from config.sentry import sentry_init

pytestmark = pytest.mark.subprocess

GUEST_PHONE = "010-2345-6789"
GUEST_EMAIL = "guest.kim@example.co.kr"


class KeptEnvelopes(Transport):
    """A transport that sends nothing and keeps each envelope's events."""

    events = []

    def capture_envelope(self, envelope):
        self.events.extend(item.payload.json for item in envelope.items if item.type == "event")


@shared_task(name="tests.config.failing_booking_task")
def failing_booking_task(booking_number):
    guest = {"phone": GUEST_PHONE, "email": GUEST_EMAIL}  # a local variable, as a stack frame shows it
    raise RuntimeError(
        f"hub refused booking {booking_number} of {GUEST_EMAIL} ({GUEST_PHONE}) with Authorization: "
        f"{settings.HUB_API_TOKEN} {guest}"
    )


@pytest.fixture
def sentry():
    KeptEnvelopes.events = []
    sentry_init("https://public@sentry.invalid/1", environment="test", transport=KeptEnvelopes)
    yield KeptEnvelopes.events
    sentry_sdk.get_client().close()
    sentry_sdk.init()  # no DSN: reporting off again for the other tests


def test_a_task_exception_reaches_sentry_redacted(sentry):
    failing_booking_task.apply(("VH-1001",))
    sentry_sdk.flush()

    assert len(sentry) == 1
    event = sentry[0]
    exception = event["exception"]["values"][-1]
    assert exception["type"] == "RuntimeError"
    assert "VH-1001" in exception["value"]
    reported = repr(event)
    for secret in (settings.HUB_API_TOKEN, GUEST_PHONE, GUEST_EMAIL):
        assert secret not in reported
    assert REDACTED in exception["value"]
    frames = exception["stacktrace"]["frames"]
    assert any(frame.get("filename", "").endswith("test_sentry.py") for frame in frames)  # file names stay
    assert any(frame.get("vars", {}).get("guest") for frame in frames)  # the variables are there, redacted


def test_nothing_is_set_up_without_a_dsn():
    code = "import django; django.setup(); import sentry_sdk; print(sentry_sdk.get_client().is_active())"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "true"}
    env.pop("SENTRY_DSN", None)
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )

    assert result.stdout.strip() == "False"
