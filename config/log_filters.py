"""The one redaction of what leaves the process (log records, error reports to Sentry): tokens, secrets,
signatures, license file contents, and guests' phone numbers and e-mail addresses."""

import logging
import re

from django.conf import settings

REDACTED = "[redacted]"

#: Header and field names whose values are never logged or reported (a guest's phone and e-mail too).
_SENSITIVE_NAMES = r"authorization|webhook-signature|password|secret|token|api[_-]?key|file|phone|e-?mail|cookie|dsn"
# A key of structured data (an error report's headers, variables) that is such a name, alone or as a word
# of it ("guest_phone", "HTTP_AUTHORIZATION"; not "filename").
_SENSITIVE_KEY = re.compile(rf"(?:[\w-]*[_-])?(?:{_SENSITIVE_NAMES})(?:[_-][\w-]*)?", re.IGNORECASE)
# Such a name and its value, wherever they appear in a message.
_SENSITIVE_FIELD = re.compile(
    rf"""(?P<key>["']?(?:{_SENSITIVE_NAMES})["']?\s*[:=]\s*)"""
    r"""(?P<value>"[^"]*"|'[^']*'|[^\s"'}]+(?:\s+[^\s"'},]+)?)""",
    re.IGNORECASE,
)
# Long base64 runs are file contents (licenses are sent base64-encoded): never log them.
_BASE64_BLOB = re.compile(r"[A-Za-z0-9+/]{200,}={0,2}")
# E-mail addresses and phone numbers written with separators (010-1234-5678, +82 10 1234 5678, 02-123-4567),
# wherever they appear; dates, times and ids do not match. An address is tried only where a word starts: tried
# at every character, a hostile 100 KB value without "@" took minutes of a web worker (quadratic backtracking).
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(r"(?<![\w.:/-])(?:\+\d{1,3}[ -]?)?\(?0?\d{1,2}\)?[ -]\d{3,4}[ -]\d{4}(?![\w-])")


def _configured_secrets():
    values = [
        settings.SECRET_KEY,
        settings.HUB_API_TOKEN,
        settings.HUB_PRODUCTION_API_TOKEN,
        settings.VENDOR_API_TOKEN,
        settings.METRICS_TOKEN,
        settings.SENTRY_DSN,
        *settings.VENDOR_API_SECRETS,
    ]
    return sorted({value for value in values if value and len(value) >= 6}, key=len, reverse=True)


def redact(text):
    """Return text with configured secrets, sensitive fields and file contents replaced."""
    for secret in _configured_secrets():
        text = text.replace(secret, REDACTED)
    text = _SENSITIVE_FIELD.sub(lambda match: match.group("key") + REDACTED, text)
    text = _EMAIL.sub(REDACTED, text)
    text = _PHONE.sub(REDACTED, text)
    return _BASE64_BLOB.sub(REDACTED, text)


def redact_data(value):
    """value (dicts, lists and texts within each other, as an error report is) with every text redacted
    and the value of every sensitive key replaced."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {
            key: REDACTED if isinstance(key, str) and _SENSITIVE_KEY.fullmatch(key) else redact_data(item)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return type(value)(redact_data(item) for item in value)
    return value


class RedactSecretsFilter(logging.Filter):
    """Rewrites each record's message (with its arguments applied) through redact()."""

    def filter(self, record):
        try:
            message = record.getMessage()
        except Exception:  # a malformed record is still logged, as its raw format string
            message = str(record.msg)
        record.msg = redact(message)
        record.args = None
        if record.exc_info:
            # Formatters would print exc_info afresh, unredacted: hand them the redacted text only.
            record.exc_text = record.exc_text or logging.Formatter().formatException(record.exc_info)
            record.exc_info = None
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


class ClientErrorsWithoutTraceback(logging.Filter):
    """django.request's records of a refused request (a status below 500: PermissionDenied, Http404, a
    method not allowed) without the exception's traceback: one line says what was refused. A server error
    keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and status < 500:
            record.exc_info, record.exc_text = None, None
        return True
