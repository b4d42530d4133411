"""One notion of the client's address (issue 38, point 4): core.client_address reads X-Forwarded-For
only as far as DJANGO_PROXY_COUNT trusts it, and `check --deploy` warns on a count that looks wrong."""

import pytest
from django.core import checks
from django.test import RequestFactory, override_settings

from config.checks import check_proxy_count
from core.client_address import PROXY_COUNT_MAX, client_address

BALANCER = "10.0.0.5"


def request(forwarded=None):
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return RequestFactory().get("/", REMOTE_ADDR=BALANCER, **extra)


@pytest.mark.parametrize(
    ("count", "forwarded", "expected"),
    [
        (0, "198.51.100.1", BALANCER),  # no proxy: whatever the client sends is ignored
        (1, None, BALANCER),  # came past the proxy
        (1, "198.51.100.1", "198.51.100.1"),
        (1, "203.0.113.9, 198.51.100.1", "198.51.100.1"),  # the leftmost is the client's claim
        (2, "203.0.113.9, 198.51.100.1, 10.0.0.9", "198.51.100.1"),
        (2, "198.51.100.1", BALANCER),  # fewer entries than proxies: nothing there to trust
        (1, "not-an-address", BALANCER),
        (1, "203.0.113.9, ", BALANCER),
        (1, " 2001:db8::1 ", "2001:db8::1"),
    ],
)
def test_the_address_the_nearest_trusted_proxy_saw(count, forwarded, expected):
    with override_settings(PROXY_COUNT=count):
        assert client_address(request(forwarded)) == expected


def ids(messages):
    return [message.id for message in messages]


@override_settings(PROXY_COUNT=0, SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_the_deploy_check_warns_when_a_proxy_is_trusted_but_counted_0():
    assert ids(check_proxy_count(None)) == ["vendorhub.W002"]
    # Registered as a deploy check: `manage.py check --deploy` shows it, a plain check does not.
    assert "vendorhub.W002" in ids(checks.run_checks(include_deployment_checks=True))
    assert "vendorhub.W002" not in ids(checks.run_checks())


@pytest.mark.parametrize("count", [PROXY_COUNT_MAX + 1, -1])
def test_the_deploy_check_warns_on_a_count_no_deployment_has(count):
    with override_settings(PROXY_COUNT=count):
        assert ids(check_proxy_count(None)) == ["vendorhub.W001"]


@pytest.mark.parametrize(("count", "ssl_header"), [(1, ("HTTP_X_FORWARDED_PROTO", "https")), (0, None)])
def test_the_deploy_check_is_quiet_on_a_likely_count(count, ssl_header):
    with override_settings(PROXY_COUNT=count, SECURE_PROXY_SSL_HEADER=ssl_header):
        assert check_proxy_count(None) == []
