"""The signature negative vector: every way a call can fail authentication answers 403 code 2000 before
anything is parsed or stored; a call signed with a rotated (second) secret is accepted."""

import json
import time

import pytest

from bookings.models import Booking

from ..factories import create_body, sellable
from ..signing import hub_headers, sign

pytestmark = pytest.mark.django_db

DENIED = {"code": "2000", "error": "Access denied"}
OTHER_SECRET = "whsec_b3RoZXItc2VjcmV0LW5vdC1vdXJzLTEyMzQ1Njc4"
ROTATED_SECRET = "whsec_cm90YXRlZC1zZWNvbmQtc2VjcmV0LTEyMzQ1Njc4OTA="


@pytest.fixture
def body():
    _room_type, standalone, _package = sellable()
    return json.dumps(create_body(standalone)).encode()


def post(client, body, headers):
    return client.post("/bookings", data=body, content_type="application/json", **headers)


def assert_denied(response):
    assert (response.status_code, response.json()) == (403, DENIED)
    assert not Booking.objects.exists()


def test_a_correctly_signed_call_is_accepted(client, body):
    assert post(client, body, hub_headers(body)).status_code == 200


def test_a_tampered_body_is_refused(client, body):
    headers = hub_headers(body)
    assert_denied(post(client, body.replace(b"Kim Minji", b"Kim Minjo"), headers))


def test_a_wrong_secret_is_refused(client, body):
    assert_denied(post(client, body, hub_headers(body, secret=OTHER_SECRET)))


@pytest.mark.parametrize("offset", [-301, 301, -3600, 3600])
def test_a_timestamp_outside_the_window_either_way_is_refused(client, body, offset):
    assert_denied(post(client, body, hub_headers(body, timestamp=int(time.time()) + offset)))


@pytest.mark.parametrize("offset", [-290, 290])
def test_a_timestamp_inside_the_window_is_accepted(client, body, offset):
    assert post(client, body, hub_headers(body, timestamp=int(time.time()) + offset)).status_code == 200


def test_a_replayed_webhook_id_is_refused(client, body):
    headers = hub_headers(body)
    assert post(client, body, headers).status_code == 200
    response = post(client, body, headers)
    assert (response.status_code, response.json()) == (403, DENIED)


@pytest.mark.parametrize(
    "missing", ["HTTP_AUTHORIZATION", "HTTP_WEBHOOK_ID", "HTTP_WEBHOOK_TIMESTAMP", "HTTP_WEBHOOK_SIGNATURE"]
)
def test_a_missing_header_is_refused(client, body, missing):
    headers = hub_headers(body)
    del headers[missing]
    assert_denied(post(client, body, headers))


@pytest.mark.parametrize(
    ("header", "value"),
    [
        ("HTTP_WEBHOOK_SIGNATURE", "garbage"),
        ("HTTP_WEBHOOK_SIGNATURE", "v1,not-base64!!"),
        ("HTTP_WEBHOOK_SIGNATURE", "v2,c2lnbmF0dXJl"),
        ("HTTP_WEBHOOK_TIMESTAMP", "yesterday"),
        ("HTTP_WEBHOOK_TIMESTAMP", "1.5e9"),
        ("HTTP_AUTHORIZATION", "Basic c2FuZGJveA=="),
        ("HTTP_AUTHORIZATION", "Bearer"),
    ],
)
def test_malformed_headers_are_refused(client, body, header, value):
    headers = hub_headers(body)
    headers[header] = value
    assert_denied(post(client, body, headers))


def test_a_wrong_token_is_refused(client, body):
    assert_denied(post(client, body, hub_headers(body, token="not-the-token")))


def test_a_signature_list_with_one_valid_entry_is_accepted(client, body):
    headers = hub_headers(body)
    stale = sign(body, webhook_id=headers["HTTP_WEBHOOK_ID"], timestamp=int(time.time()), secret=OTHER_SECRET)
    headers["HTTP_WEBHOOK_SIGNATURE"] = f"{stale} {headers['HTTP_WEBHOOK_SIGNATURE']}"
    assert post(client, body, headers).status_code == 200


def test_a_rotated_second_secret_is_accepted(client, body, settings):
    settings.VENDOR_API_SECRETS = [*settings.VENDOR_API_SECRETS, ROTATED_SECRET]
    assert post(client, body, hub_headers(body, secret=ROTATED_SECRET)).status_code == 200
    settings.VENDOR_API_SECRETS = settings.VENDOR_API_SECRETS[:1]
    response = post(client, body, hub_headers(body, secret=ROTATED_SECRET))
    assert (response.status_code, response.json()) == (403, DENIED)


def test_get_calls_are_signed_over_an_empty_body(client, body):
    assert client.get("/bookings/VH1", **hub_headers(b"")).json()["code"] == "4004"
    assert client.get("/bookings/VH1", **hub_headers(b"x")).json() == DENIED
