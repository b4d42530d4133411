"""Helpers of the sandbox hub's tests: a client that calls the hub's paths with the vendor's token."""

import json

from django.conf import settings
from django.urls import reverse

from hubsandbox.hubs import STAGING, hub_token


class HubClient:
    """Calls the sandbox by its hub paths ("/properties/p1") through Django's test client; the staging hub
    by default, the production one with hub="production", each with its own token."""

    def __init__(self, client, *, hub=STAGING):
        self.client = client
        namespace = "hubsandbox" if hub == STAGING else f"hubsandbox-{hub}"
        self.base = reverse(f"{namespace}:meta").removesuffix("/meta")
        self.authorization = f"{settings.HUB_AUTH_SCHEME} {hub_token(hub)}".strip()

    def call(self, method, path, body=None, *, raw=None, content_type="application/json", authorization=None):
        """Sends body as JSON (or raw bytes as they are); authorization=None sends the right token. The path
        is sent as written (quote ids yourself), and passed as sent as gunicorn does (RAW_URI)."""
        data = raw if raw is not None else (json.dumps(body) if body is not None else "")
        headers = {"HTTP_AUTHORIZATION": self.authorization if authorization is None else authorization}
        target = self.base + path
        return self.client.generic(method, target, data, content_type=content_type, RAW_URI=target, **headers)

    def get(self, path, **kwargs):
        return self.call("GET", path, **kwargs)

    def post(self, path, body, **kwargs):
        return self.call("POST", path, body, **kwargs)

    def patch(self, path, body, **kwargs):
        return self.call("PATCH", path, body, **kwargs)


def ok(response):
    """The JSON of a 200 answer; fails with the hub's message otherwise."""
    assert response.status_code == 200, response.content.decode()
    return response.json()


def error(response, status):
    """The hub's error message, after checking the status and that the body is exactly {"message"}."""
    assert response.status_code == status, response.content.decode()
    body = response.json()
    assert list(body) == ["message"]
    return body["message"]


KO = {"locale": "ko-KR", "name": "바다펜션"}
