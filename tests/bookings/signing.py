"""Calls to the vendor API signed the way the hub signs them (decision 0015)."""

import base64
import hashlib
import hmac
import json
import time
import uuid

from django.conf import settings


def sign(body: bytes, *, webhook_id: str, timestamp: int, secret: str) -> str:
    """The Standard Webhooks "v1,<base64>" signature of body for one secret ("whsec_" + base64)."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    message = f"{webhook_id}.{timestamp}.".encode() + body
    return "v1," + base64.b64encode(hmac.new(key, message, hashlib.sha256).digest()).decode()


def hub_headers(body: bytes = b"", *, secret=None, token=None, webhook_id=None, timestamp=None):
    """Headers of a hub call (for Django's test client): bearer token, webhook-id, -timestamp, -signature."""
    webhook_id = webhook_id or f"msg_{uuid.uuid4().hex}"
    timestamp = int(time.time()) if timestamp is None else timestamp
    signature = sign(body, webhook_id=webhook_id, timestamp=timestamp, secret=secret or settings.VENDOR_API_SECRETS[0])
    return {
        "HTTP_AUTHORIZATION": f"Bearer {token or settings.VENDOR_API_TOKEN}",
        "HTTP_WEBHOOK_ID": webhook_id,
        "HTTP_WEBHOOK_TIMESTAMP": str(timestamp),
        "HTTP_WEBHOOK_SIGNATURE": signature,
    }


class HubClient:
    """Django's test client, signing every call as the hub does."""

    def __init__(self, client):
        self.client = client

    def call(self, method, path, body=None, **header_overrides):
        raw = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        headers = hub_headers(raw)
        headers.update(header_overrides)
        kwargs = {"data": raw, "content_type": "application/json"} if method in ("post", "put") else {}
        return getattr(self.client, method)(path, **kwargs, **headers)

    def post(self, path, body=None, **headers):
        return self.call("post", path, body, **headers)

    def put(self, path, body=None, **headers):
        return self.call("put", path, body, **headers)

    def get(self, path, **headers):
        return self.call("get", path, None, **headers)
