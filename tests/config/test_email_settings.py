"""E-mail settings from the environment: an SMTP URL (django-environ), the EMAIL_* variables, and the
console in development."""

import json

import pytest

from .test_production_settings import PRODUCTION_ENV, manage

pytestmark = pytest.mark.subprocess

SHOW = (
    "import json; from django.conf import settings as s; print(json.dumps({name: getattr(s, name) for name in "
    "('EMAIL_BACKEND', 'EMAIL_HOST', 'EMAIL_PORT', 'EMAIL_HOST_USER', 'EMAIL_HOST_PASSWORD', 'EMAIL_USE_TLS', "
    "'EMAIL_USE_SSL', 'EMAIL_FILE_PATH', 'EMAIL_TIMEOUT', 'DEFAULT_FROM_EMAIL', 'SITE_URL')}))"
)


def email_settings(**env):
    result = manage("shell", "-c", SHOW, env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_an_smtp_url_configures_the_smtp_backend():
    found = email_settings(
        **PRODUCTION_ENV,
        EMAIL_URL="smtp+tls://mailer:p%40ss%2Fword@smtp.example.com:587",
        DEFAULT_FROM_EMAIL="Hotel desk <desk@example.com>",
    )

    assert found["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (found["EMAIL_HOST"], found["EMAIL_PORT"]) == ("smtp.example.com", 587)
    assert (found["EMAIL_HOST_USER"], found["EMAIL_HOST_PASSWORD"]) == ("mailer", "p@ss/word")
    assert found["EMAIL_USE_TLS"] is True
    assert found["DEFAULT_FROM_EMAIL"] == "Hotel desk <desk@example.com>"
    # Links in e-mails point at the production host.
    assert found["SITE_URL"] == "https://vendor.example.com"


def test_without_a_url_production_uses_smtp_from_the_email_variables():
    found = email_settings(
        **PRODUCTION_ENV, EMAIL_HOST="mail.example.com", EMAIL_PORT="465", EMAIL_USE_SSL="true", EMAIL_TIMEOUT="5"
    )

    assert found["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (found["EMAIL_HOST"], found["EMAIL_PORT"], found["EMAIL_USE_SSL"]) == ("mail.example.com", 465, True)
    assert found["EMAIL_TIMEOUT"] == 5


def test_the_file_backend_writes_where_email_file_path_says():
    found = email_settings(
        **PRODUCTION_ENV,
        EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
        EMAIL_FILE_PATH="/srv/vendorhub/mail",
    )

    assert found["EMAIL_BACKEND"] == "django.core.mail.backends.filebased.EmailBackend"
    assert found["EMAIL_FILE_PATH"] == "/srv/vendorhub/mail"


def test_development_prints_mails_on_the_console():
    found = email_settings(DJANGO_DEBUG="true", PORT="8123")

    assert found["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert found["SITE_URL"] == "http://127.0.0.1:8123"
