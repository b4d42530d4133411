"""The vendor API behind the load balancer (issue 38, point 4): the allow-list admits the address the
balancer saw and ignores what the client wrote into X-Forwarded-For; the call log names the same address
the login lockout counts."""

import logging

import pytest
from axes.models import AccessAttempt
from django.test import Client, override_settings

from tests.factories import UserFactory

from ..factories import create_body, sellable

pytestmark = pytest.mark.django_db

BALANCER = "10.0.0.5"
HUB = "203.0.113.9"
ATTACKER = "198.51.100.66"


@pytest.fixture
def standalone():
    _room_type, standalone, _package = sellable(allotment=3)
    return standalone


@override_settings(PROXY_COUNT=1, VENDOR_API_ALLOWED_IPS=["203.0.113.0/24"])
def test_the_allow_list_behind_one_proxy_admits_the_hub(hub_client, standalone):
    response = hub_client.post("/bookings", create_body(standalone), REMOTE_ADDR=BALANCER, HTTP_X_FORWARDED_FOR=HUB)
    assert response.status_code == 200


@override_settings(PROXY_COUNT=1, VENDOR_API_ALLOWED_IPS=["203.0.113.0/24"])
def test_the_allow_list_refuses_a_spoofed_leftmost_entry(hub_client, standalone):
    # The client claims the hub's address; the balancer appends the one it really saw.
    response = hub_client.post(
        "/bookings", create_body(standalone), REMOTE_ADDR=BALANCER, HTTP_X_FORWARDED_FOR=f"{HUB}, {ATTACKER}"
    )
    assert (response.status_code, response.json()["code"]) == (403, "2000")


@override_settings(PROXY_COUNT=1, VENDOR_API_ALLOWED_IPS=["203.0.113.0/24"])
def test_a_call_without_x_forwarded_for_is_judged_by_the_connections_address(hub_client, standalone):
    # No X-Forwarded-For: the call came past the balancer (or from it), and its own address counts.
    response = hub_client.post("/bookings", create_body(standalone), REMOTE_ADDR="203.0.113.1")
    assert response.status_code == 200
    response = hub_client.post("/bookings", create_body(standalone), REMOTE_ADDR=BALANCER)
    assert (response.status_code, response.json()["code"]) == (403, "2000")


@override_settings(PROXY_COUNT=1)
def test_the_lockout_and_the_call_log_record_the_same_address(hub_client, standalone, caplog):
    forwarded = {"REMOTE_ADDR": BALANCER, "HTTP_X_FORWARDED_FOR": f"{HUB}, {ATTACKER}"}
    user = UserFactory(is_staff=True)
    Client().post("/admin/login/", {"username": user.username, "password": "wrong"}, **forwarded)

    with caplog.at_level(logging.INFO, logger="bookings.api"):
        hub_client.post("/bookings", create_body(standalone), **forwarded)

    (logged,) = [record for record in caplog.records if record.name == "bookings.api"]
    assert AccessAttempt.objects.get().ip_address == logged.client_address == ATTACKER
    assert ATTACKER in logged.getMessage()
