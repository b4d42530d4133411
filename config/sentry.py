"""Error tracking with Sentry, on when SENTRY_DSN is set: exceptions of requests (Django) and of tasks
(Celery) are reported, each event first passed through the same redaction as the logs
(config.log_filters.redact_data), so that no token, signature, license file, guest phone or e-mail
leaves in a report."""

import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration
from sentry_sdk.integrations.logging import LoggingIntegration

from .log_filters import redact_data


def scrub_event(event, hint):
    """Sentry's before_send (and before_breadcrumb): the event, redacted."""
    return redact_data(event)


def sentry_init(dsn, *, environment, release=None, **options):
    """Start reporting to dsn (settings call it when SENTRY_DSN is set); options go to sentry_sdk.init
    (a test passes its own transport)."""
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release or None,
        integrations=[
            DjangoIntegration(),
            CeleryIntegration(),
            # Errors logged (logger.exception) are reported as events; lower levels only as breadcrumbs.
            LoggingIntegration(),
        ],
        before_send=scrub_event,
        before_send_transaction=scrub_event,
        before_breadcrumb=scrub_event,
        traces_sample_rate=0.0,
        **options,
    )
