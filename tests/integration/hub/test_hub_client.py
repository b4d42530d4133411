"""The hub client: the Authorization header of decision 0002, timeouts, typed errors, no token in logs."""

import logging
import threading
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from hubsandbox.faults import inject_faults
from integration.hub import endpoints
from integration.hub.client import HubClient, HubHTTPError, HubUnavailable, get_hub_client, parse_retry_after
from tests.hub_fixtures import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def client_for(settings, **overrides):
    options = {
        "base_url": settings.HUB_BASE_URL,
        "token": settings.HUB_API_TOKEN,
        "auth_scheme": settings.HUB_AUTH_SCHEME,
        "connect_timeout": 2,
        "read_timeout": 5,
        **overrides,
    }
    return HubClient(**options)


def test_the_token_goes_in_authorization_as_issued(hub, settings):
    response = client_for(settings).call(endpoints.CATALOG)

    assert response.status == 200
    assert client_for(settings).session.headers["Authorization"] == settings.HUB_API_TOKEN


def test_a_scheme_word_is_added_only_when_configured(hub, settings):
    settings.HUB_AUTH_SCHEME = "Bearer"  # the sandbox expects what the settings say, as the real hub would

    client = client_for(settings)

    assert client.session.headers["Authorization"] == f"Bearer {settings.HUB_API_TOKEN}"
    assert client.call(endpoints.CATALOG).status == 200


def test_a_wrong_token_is_a_401_carrying_the_hubs_message(hub, settings):
    with pytest.raises(HubHTTPError) as error:
        client_for(settings, token="wrong").call(endpoints.CATALOG)

    assert error.value.status == 401
    assert error.value.message
    assert not error.value.retryable


def test_a_slow_hub_times_out_as_retryable(hub, settings):
    with inject_faults(latency_ms=1500), pytest.raises(HubUnavailable) as error:
        client_for(settings, read_timeout=0.3).call(endpoints.CATALOG)

    assert error.value.retryable
    assert "timed out" in error.value.message
    # The sandbox still answers the abandoned request later: let it finish within this test.
    wait_until(lambda: hub.request_log(method="GET").exists(), timeout=10, message="the slow answer")


def test_an_unreachable_hub_is_retryable():
    client = HubClient(base_url="http://127.0.0.1:9", token="t", connect_timeout=1, read_timeout=1)

    with pytest.raises(HubUnavailable) as error:
        client.call(endpoints.CATALOG)

    assert error.value.retryable


@pytest.mark.parametrize(("status", "retry_after"), [(503, 7.0), (500, None), (429, 7.0)])
def test_busy_or_broken_answers_are_retryable_with_retry_after(hub, settings, status, retry_after):
    fault = {"throttle_rate": 1.0} if status == 429 else {"error_rate": 1.0, "error_status": status}
    with inject_faults(**fault, retry_after=7), pytest.raises(HubHTTPError) as error:
        client_for(settings).call(endpoints.CATALOG)

    assert (error.value.status, error.value.retryable, error.value.retry_after) == (status, True, retry_after)


def test_retry_after_as_an_http_date():
    now = datetime(2026, 11, 21, 12, 0, 0, tzinfo=UTC)

    assert parse_retry_after("Sat, 21 Nov 2026 12:00:30 GMT", now=now) == 30.0
    assert parse_retry_after("soon", now=now) is None
    assert parse_retry_after("", now=now) is None


def test_one_session_per_process(settings):
    assert get_hub_client() is get_hub_client()
    settings.HUB_BASE_URL = "http://127.0.0.1:9"
    assert get_hub_client().base_url == "http://127.0.0.1:9"


def test_the_token_is_never_logged(hub, settings, caplog):
    caplog.set_level(logging.DEBUG)

    client_for(settings).call(endpoints.CATALOG)
    with pytest.raises(HubHTTPError):
        client_for(settings, token="wrong-token-value").call(endpoints.CATALOG)

    assert caplog.records
    assert settings.HUB_API_TOKEN not in caplog.text
    assert "wrong-token-value" not in caplog.text
    assert settings.HUB_API_TOKEN not in repr(client_for(settings))


@pytest.fixture
def redirecting_hub():
    """A local hub that answers every request with a 302 to another path of itself, and records what it
    sees: (path, Authorization header) per request."""
    seen = []

    class Redirect(BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append((self.path, self.headers.get("Authorization")))
            self.send_response(302)
            self.send_header("Location", "/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", seen
    server.shutdown()
    server.server_close()
    thread.join()


def test_a_redirect_is_never_followed_and_fails_naming_where_it_pointed(redirecting_hub):
    base_url, seen = redirecting_hub
    client = HubClient(base_url=base_url, token="our-token", connect_timeout=2, read_timeout=5)

    with pytest.raises(HubHTTPError) as error:
        client.call(endpoints.CATALOG)

    # One request, the one we made: our token went nowhere else, not even to another path of the same host.
    assert seen == [(endpoints.CATALOG.path(), "our-token")]
    assert error.value.status == 302
    assert not error.value.retryable
    assert "/elsewhere" in error.value.message


def test_the_proxy_the_environment_names_when_the_client_starts_carries_every_call(redirecting_hub, monkeypatch):
    proxy, seen = redirecting_hub  # as a proxy, it records the whole address asked for
    monkeypatch.setenv("HTTP_PROXY", proxy)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    client = HubClient(base_url="http://hub.example", token="our-token", connect_timeout=2, read_timeout=5)
    monkeypatch.delenv("HTTP_PROXY")  # read once, when the client starts: not on each call

    with pytest.raises(HubHTTPError):
        client.call(endpoints.CATALOG)
    with pytest.raises(HubHTTPError):
        client.call(endpoints.CATALOG)

    assert seen == [("http://hub.example" + endpoints.CATALOG.path(), "our-token")] * 2

    monkeypatch.setenv("HTTP_PROXY", proxy)
    monkeypatch.setenv("NO_PROXY", "hub.example")
    direct = HubClient(base_url="http://hub.example", token="our-token", connect_timeout=2, read_timeout=5)
    with pytest.raises(HubUnavailable):  # no proxy for this hub, and no such host
        direct.call(endpoints.CATALOG)
    assert len(seen) == 2
