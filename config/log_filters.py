"""A logging filter that keeps tokens, secrets and license file contents out of every log record."""

import logging
import re

from django.conf import settings

REDACTED = "[redacted]"

# Header and field names whose values are never logged, wherever they appear in a message.
_SENSITIVE_FIELD = re.compile(
    r"""(?P<key>["']?(?:authorization|webhook-signature|password|secret|token|api[_-]?key|file)["']?\s*[:=]\s*)"""
    r"""(?P<value>"[^"]*"|'[^']*'|[^\s"'}]+(?:\s+[^\s"'},]+)?)""",
    re.IGNORECASE,
)
# Long base64 runs are file contents (licenses are sent base64-encoded): never log them.
_BASE64_BLOB = re.compile(r"[A-Za-z0-9+/]{200,}={0,2}")


def _configured_secrets():
    values = [
        settings.SECRET_KEY,
        settings.HUB_API_TOKEN,
        settings.HUB_PRODUCTION_API_TOKEN,
        settings.VENDOR_API_TOKEN,
        *settings.VENDOR_API_SECRETS,
    ]
    return sorted({value for value in values if value and len(value) >= 6}, key=len, reverse=True)


def redact(text):
    """Return text with configured secrets, sensitive fields and file contents replaced."""
    for secret in _configured_secrets():
        text = text.replace(secret, REDACTED)
    text = _SENSITIVE_FIELD.sub(lambda match: match.group("key") + REDACTED, text)
    return _BASE64_BLOB.sub(REDACTED, text)


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
