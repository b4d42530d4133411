"""Logs never contain tokens, secrets or license file contents."""

import base64
import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from pythonjsonlogger.json import JsonFormatter

from config.log_filters import REDACTED, RedactSecretsFilter


@pytest.fixture
def log():
    """A logger wired like production's: the redaction filter, then the JSON formatter."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactSecretsFilter())
    handler.setFormatter(JsonFormatter("%(levelname)s %(name)s %(message)s"))
    logger = logging.getLogger("tests.redaction")
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.INFO)
    yield logger, stream
    logger.removeHandler(handler)


def records(stream):
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_configured_tokens_and_secrets_are_removed(log):
    logger, stream = log

    logger.warning("calling hub with %s and vendor token %s", settings.HUB_API_TOKEN, settings.VENDOR_API_TOKEN)
    logger.warning("secret %s", settings.VENDOR_API_SECRETS[0])

    text = stream.getvalue()
    assert settings.HUB_API_TOKEN not in text
    assert settings.VENDOR_API_TOKEN not in text
    assert settings.VENDOR_API_SECRETS[0] not in text
    assert records(stream)[0]["message"] == f"calling hub with {REDACTED} and vendor token {REDACTED}"


@pytest.mark.parametrize(
    "message",
    [
        "headers={'Authorization': 'Bearer abc.def-ghi'}",
        'request {"token": "tok_1234567890"}',
        "webhook-signature: v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
        'body {"password": "hunter2-is-long"}',
    ],
)
def test_sensitive_fields_are_removed(log, message):
    logger, stream = log

    logger.info(message)

    logged = records(stream)[0]["message"]
    assert REDACTED in logged
    for secret in ("abc.def-ghi", "tok_1234567890", "K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN", "hunter2"):
        assert secret not in logged


def test_license_file_contents_are_removed(log):
    logger, stream = log
    pdf = base64.b64encode(b"%PDF-1.7\n" + bytes(range(256)) * 4).decode()

    logger.info("license body %s", {"data": {"type": "permit", "payload": pdf}})

    assert pdf[:60] not in stream.getvalue()


def test_tracebacks_are_redacted_too(log):
    logger, stream = log

    try:
        raise RuntimeError(f"hub refused token {settings.HUB_API_TOKEN}")
    except RuntimeError:
        logger.exception("sync failed")

    assert settings.HUB_API_TOKEN not in stream.getvalue()
    assert "RuntimeError" in records(stream)[0]["exc_info"]


def run_python(script, *, log_format):
    """Run script in a new Python process with the product's settings (development mode, log_format) and
    return what it wrote."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "LOG_FORMAT": log_format, "DJANGO_DEBUG": "true"}
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )


CELERY_LOGGING = """
import logging, os
from config.celery import app
app.log.setup(loglevel=logging.INFO)  # what `celery worker` and `celery beat` run at start
logging.getLogger("integration.hub.client").warning("retrying with Authorization: tok-SECRET-123456")
"""


@pytest.mark.subprocess
def test_the_worker_and_beat_keep_the_json_format_and_the_redaction():
    """Celery's own logging setup (hijacking the root logger by default) must leave Django's in place."""
    result = run_python(CELERY_LOGGING, log_format="json")

    line = json.loads(result.stderr.strip().splitlines()[-1])
    assert line["logger"] == "integration.hub.client"
    assert "tok-SECRET-123456" not in result.stderr
    assert line["message"] == f"retrying with Authorization: {REDACTED}"


def test_guest_phone_numbers_and_e_mail_addresses_are_removed_and_dates_and_ids_kept(log):
    logger, stream = log

    logger.info(
        "guest kim.min@example.co.kr 010-2345-6789 (+82 10 2345 6789, 02-345-6789) %s, booked 2026-11-25 09:30:12 "
        "as VH-20261125-0001, request 123e4567-e89b-12d3-a456-426614174000",
        {"guest_phone": "01023456789"},
    )

    logged = records(stream)[0]["message"]
    for personal in ("kim.min@example.co.kr", "010-2345-6789", "+82 10 2345 6789", "02-345-6789", "01023456789"):
        assert personal not in logged
    for kept in ("2026-11-25 09:30:12", "VH-20261125-0001", "123e4567-e89b-12d3-a456-426614174000"):
        assert kept in logged


@pytest.mark.parametrize("hostile", ["a" * 100_000, "1-" * 50_000, "a@" + "b" * 100_000, "x." * 50_000])
def test_a_hostile_100_kb_value_in_a_message_is_logged_and_an_address_after_it_still_removed(log, hostile):
    # Tried at every character, the e-mail pattern backtracked quadratically over such a value: a form posted
    # back with it held a web worker for minutes while its error was logged.
    logger, stream = log

    logger.warning("bad value %s, guest kim.min@example.co.kr", hostile)

    logged = records(stream)[0]["message"]
    assert logged.startswith("bad value ")
    assert logged.endswith(f"guest {REDACTED}")


REFUSED_AND_FAILED = """
import django
django.setup()
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseForbidden, HttpResponseServerError
from django.utils.log import log_response

# As Django's handler logs a refused request and a server error (django.core.handlers.exception).
try:
    raise PermissionDenied
except PermissionDenied as error:
    log_response(
        "Forbidden (Permission denied): %s", "/admin/licenses/", response=HttpResponseForbidden(), exception=error
    )
try:
    raise RuntimeError("boom")
except RuntimeError as error:
    log_response("Internal Server Error: %s", "/admin/", response=HttpResponseServerError(), exception=error)
"""


@pytest.mark.subprocess
@pytest.mark.parametrize("log_format", ["plain", "json"])
def test_a_refused_request_is_one_line_without_a_traceback_and_a_failure_keeps_its_own(log_format):
    """A 403 was written twice, each time with its traceback (Django's console handler and ours); a server
    error keeps its traceback, written once."""
    result = run_python(REFUSED_AND_FAILED, log_format=log_format)

    lines = [line for line in result.stderr.splitlines() if line.strip()]
    refused = [line for line in lines if "Forbidden" in line]
    assert len(refused) == 1, result.stderr
    assert "Traceback" not in result.stderr.split("Internal Server Error")[0]
    assert "PermissionDenied" not in result.stderr
    failed = result.stderr.split("Forbidden")[1]
    assert failed.count("Internal Server Error") == 1, result.stderr
    assert "RuntimeError" in failed
