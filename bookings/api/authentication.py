"""Who may call the vendor API: the hub, proven by its bearer token and a Standard Webhooks signature
over the raw body (decision 0015). Runs before the body is parsed; any failure is 403 code 2000.
A body over MAX_BODY_BYTES is refused with 400 code 3000 before it is read, once the token and the
signature headers are right."""

import base64
import binascii
import hashlib
import hmac
import ipaddress
import time
from collections.abc import Iterable, Mapping

from django.conf import settings
from django.http import HttpRequest
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from core.client_address import client_address

from ..services import WEBHOOK_TIMESTAMP_TOLERANCE, webhook_first_use
from .limits import MAX_BODY_BYTES

_SIGNATURE_HEADERS = ("webhook-id", "webhook-timestamp", "webhook-signature")


class HubCaller:
    """The authenticated caller of the vendor API: always the hub."""

    is_authenticated = True

    def __str__(self) -> str:
        return "hub"


class BodyTooLarge(exceptions.ParseError):
    """A body the vendor API does not read: over MAX_BODY_BYTES, or of unknown length (chunked)."""


def _allowed_ip(request: HttpRequest) -> bool:
    """Whether the client's address (behind DJANGO_PROXY_COUNT proxies: the one the nearest saw) is in
    VENDOR_API_ALLOWED_IPS, or the list is empty."""
    networks = settings.VENDOR_API_ALLOWED_IPS
    if not networks:
        return True
    try:
        address = ipaddress.ip_address(client_address(request))
    except ValueError:
        return False
    return any(address in ipaddress.ip_network(network, strict=False) for network in networks)


def _token_valid(request: HttpRequest) -> bool:
    header = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token or not settings.VENDOR_API_TOKEN:
        return False
    return hmac.compare_digest(token.strip().encode(), settings.VENDOR_API_TOKEN.encode())


def _timestamp_fresh(headers: dict[str, str]) -> bool:
    try:
        timestamp = int(headers["webhook-timestamp"])
    except ValueError:
        return False
    return abs(time.time() - timestamp) <= WEBHOOK_TIMESTAMP_TOLERANCE


def signature_valid(body: bytes, headers: Mapping[str, str], secrets: Iterable[str] | None = None) -> bool:
    """Whether any "v1,<base64>" entry of headers["webhook-signature"] is the HMAC-SHA256, keyed by any
    of the secrets ("whsec_" + base64; rotation: any one is enough), of "{webhook-id}.{webhook-timestamp}."
    followed by the raw body bytes, whatever they contain (the standardwebhooks library decodes the body
    as UTF-8 first, so it cannot verify a body that is not UTF-8)."""
    message = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + body
    given = []
    for entry in headers["webhook-signature"].split():
        version, _, encoded = entry.partition(",")
        try:
            given.append((version, base64.b64decode(encoded, validate=True)))
        except (binascii.Error, ValueError):
            continue
    for secret in settings.VENDOR_API_SECRETS if secrets is None else secrets:
        key = base64.b64decode(secret.removeprefix("whsec_") + "==")
        expected = hmac.new(key, message, hashlib.sha256).digest()
        if any(version == "v1" and hmac.compare_digest(expected, signature) for version, signature in given):
            return True
    return False


def check_body_size(request: HttpRequest) -> None:
    """BodyTooLarge unless the body's Content-Length (none: empty) is a number up to MAX_BODY_BYTES; a
    chunked body, whose size is unknown until read, is refused too (Django's WSGI handler reads none of
    it). Reads nothing."""
    if "HTTP_TRANSFER_ENCODING" in request.META:
        raise BodyTooLarge()
    try:
        size = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise BodyTooLarge() from None
    if not 0 <= size <= MAX_BODY_BYTES:
        raise BodyTooLarge()


class HubSignatureAuthentication(authentication.BaseAuthentication):
    """The allow-list, the bearer token (constant time), the signature headers and their timestamp,
    the body's size (3000), the signature over the raw body and the replay check (in the database, not
    the cache: intake does not depend on Redis), in that order."""

    def authenticate(self, request: Request) -> tuple[HubCaller, None]:
        django_request = request._request
        if not _allowed_ip(django_request) or not _token_valid(django_request):
            raise exceptions.AuthenticationFailed()
        headers = {name: django_request.headers.get(name, "") for name in _SIGNATURE_HEADERS}
        if not all(headers.values()) or not _timestamp_fresh(headers):
            raise exceptions.AuthenticationFailed()
        check_body_size(django_request)
        # The raw bytes as they arrived (Django reads Content-Length bytes, no more); DRF parses them
        # later, from the same cached body.
        if not signature_valid(django_request.body, headers):
            raise exceptions.AuthenticationFailed()
        if not webhook_first_use(headers["webhook-id"]):
            raise exceptions.AuthenticationFailed()
        return HubCaller(), None
