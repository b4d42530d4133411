"""Who may call the vendor API: the hub, proven by its bearer token and a Standard Webhooks signature
over the raw body (contract section 4). Runs before the body is parsed; any failure is 403 code 2000."""

import hmac
import ipaddress
import time

from django.conf import settings
from django.core.cache import cache
from rest_framework import authentication, exceptions
from standardwebhooks.webhooks import Webhook

#: A webhook-timestamp further than this from now, either way, is refused (seconds).
TIMESTAMP_TOLERANCE = 300
_REPLAY_KEY = "vendor-api:webhook-id:{}"


class HubCaller:
    """The authenticated caller of the vendor API: always the hub."""

    is_authenticated = True

    def __str__(self):
        return "hub"


def _allowed_ip(request):
    networks = settings.VENDOR_API_ALLOWED_IPS
    if not networks:
        return True
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    return any(address in ipaddress.ip_network(network, strict=False) for network in networks)


def _token_valid(request):
    header = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token or not settings.VENDOR_API_TOKEN:
        return False
    return hmac.compare_digest(token.strip().encode(), settings.VENDOR_API_TOKEN.encode())


def signature_valid(body: bytes, headers: dict, secrets=None) -> bool:
    """Whether headers (webhook-id, webhook-timestamp, webhook-signature) sign body with any of the
    secrets (rotation: any one is enough), the timestamp being within TIMESTAMP_TOLERANCE of now."""
    try:
        timestamp = int(headers.get("webhook-timestamp", ""))
    except ValueError:
        return False
    if abs(time.time() - timestamp) > TIMESTAMP_TOLERANCE:
        return False
    for secret in settings.VENDOR_API_SECRETS if secrets is None else secrets:
        try:
            Webhook(secret).verify(body, headers, json_parse=False)
        except Exception:  # noqa: S112 - a malformed header or another secret's signature: try the next
            continue
        return True
    return False


def _first_use(webhook_id):
    """True the first time webhook_id is seen within the window (kept twice the tolerance)."""
    return cache.add(_REPLAY_KEY.format(webhook_id), 1, timeout=2 * TIMESTAMP_TOLERANCE)


class HubSignatureAuthentication(authentication.BaseAuthentication):
    """The allow-list, the bearer token (constant time), the signature over the raw body and the replay
    check, in that order."""

    def authenticate(self, request):
        django_request = request._request
        if not _allowed_ip(django_request) or not _token_valid(django_request):
            raise exceptions.AuthenticationFailed()
        headers = {
            name: django_request.headers.get(name, "")
            for name in ("webhook-id", "webhook-timestamp", "webhook-signature")
        }
        if not all(headers.values()):
            raise exceptions.AuthenticationFailed()
        # The raw bytes as they arrived; DRF parses them later, from the same cached body.
        if not signature_valid(django_request.body, headers):
            raise exceptions.AuthenticationFailed()
        if not _first_use(headers["webhook-id"]):
            raise exceptions.AuthenticationFailed()
        return HubCaller(), None
