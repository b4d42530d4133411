"""Hostile input to the vendor API, kept in the suite so that the holes an attack found stay closed:
deep nesting, bodies far over the limit (also unsigned), bodies that are not UTF-8 or not strict JSON,
dates at the edges of what Python and the databases hold, unbounded or mismatched arrays, unicode and NUL
bytes in every string, wrong types, unknown ids, negative, zero, huge and overlong values, duplicate keys.

Each call answers the status and exact body of decision 0012, takes no path that logs an unexpected error,
is logged, and leaves every booking and every room type's availability as it was."""

import datetime
import io
import json
import sys
from dataclasses import dataclass

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from bookings import services
from bookings.api.limits import MAX_BODY_BYTES, MAX_JSON_DEPTH, MAX_NIGHTS
from bookings.api.parsers import HubJSONParser
from bookings.errors import ERROR_TABLE
from bookings.models import Booking, InboundCall, RefusedCall
from core.dates import KOREA, korea_today
from tests.integration.ari.factories import day

from ..factories import RATE, create_body, sellable, stock
from ..signing import hub_headers

pytestmark = pytest.mark.django_db

ERRORS = {error.code: (error.status, error.message) for error in ERROR_TABLE}
HUGE = 15 * 1024 * 1024


@dataclass
class World:
    """Sellable content with one pending booking already made (modify, confirm and cancel need one)."""

    room_type: object
    plan: object
    number: str

    def snapshot(self):
        """Every booking's columns and the room type's stock, to compare before and after a call."""
        return list(Booking.objects.order_by("pk").values()), stock(self.room_type)


@pytest.fixture
def world(hub_client):
    room_type, standalone, _package = sellable(allotment=3)
    response = hub_client.post("/bookings", create_body(standalone))
    assert response.status_code == 200
    return World(room_type, standalone, response.json()["vendor_booking_number"])


def assert_answer(response, code):
    """The contract's status and exact body (not 1000 or 9999: not the unexpected-error path), and logged."""
    status, message = ERRORS[code]
    assert (response.status_code, response.json()) == (status, {"code": code, "error": message})
    # A call refused by authentication (2000) is logged as a refused call.
    log = RefusedCall if code == "2000" else InboundCall
    assert log.objects.order_by("-pk").values_list("status", flat=True).first() == status


def refused(world, call, code="3000"):
    """call() answers code and changes no booking and no availability."""
    before = world.snapshot()
    assert_answer(call(), code)
    assert world.snapshot() == before


# --- Bodies: each endpoint with one, a valid body made hostile in one place ------------------------


def valid_body(world, endpoint):
    if endpoint == "create":
        return create_body(world.plan, first=2)
    return {"total_amount": 150_000, "special_comment": "High floor", "guest": {"adults": 1}}


def path(world, endpoint):
    return "/bookings" if endpoint == "create" else f"/bookings/{world.number}/modify"


def send(hub_client, world, endpoint, raw, **headers):
    method = "post" if endpoint == "create" else "put"
    return hub_client.call(method, path(world, endpoint), raw, **headers)


def spliced(body, literal, key="total_amount"):
    """body as JSON with key's value replaced by literal bytes, which json.dumps would never write."""
    return json.dumps(body | {key: "@@"}).encode().replace(b'"@@"', literal)


def nested(depth, *, objects=False):
    if objects:
        return b'{"a":' * depth + b"1" + b"}" * depth
    return b"[" * depth + b"]" * depth


ENDPOINTS = ["create", "modify"]

HOSTILE_BODIES = {
    # Nesting: Python's json raises RecursionError near 1,000 levels; the limit refuses 17.
    "arrays 1,000 deep": lambda body: spliced(body, nested(1_000), key="extra"),
    "arrays 100,000 deep": lambda body: spliced(body, nested(100_000), key="extra"),
    "objects 1,000 deep": lambda body: spliced(body, nested(1_000, objects=True), key="extra"),
    "objects 40,000 deep": lambda body: spliced(body, nested(40_000, objects=True), key="extra"),
    "one level over the limit": lambda body: spliced(body, nested(MAX_JSON_DEPTH), key="extra"),
    "a top-level array 1,000 deep": lambda body: nested(1_000),
    # Not UTF-8, though correctly signed: the signature holds over the raw bytes, the parser refuses.
    "latin-1": lambda body: spliced(body, '"café"'.encode("latin-1"), key="special_comment"),
    "a stray byte": lambda body: spliced(body, b'"\xff\xfe"', key="special_comment"),
    "an encoded surrogate": lambda body: spliced(body, b'"\xed\xa0\x80"', key="special_comment"),
    "UTF-16": lambda body: json.dumps(body).encode("utf-16"),
    "a byte order mark": lambda body: b"\xef\xbb\xbf" + json.dumps(body).encode(),
    # Numbers Python's json accepts by default and no column holds.
    "NaN": lambda body: spliced(body, b"NaN"),
    "Infinity": lambda body: spliced(body, b"Infinity"),
    "-Infinity": lambda body: spliced(body, b"-Infinity"),
    "1e309": lambda body: spliced(body, b"1e309"),
    "-1e309": lambda body: spliced(body, b"-1e309"),
    "10**400": lambda body: spliced(body, str(10**400).encode()),
    "5,000 digits": lambda body: spliced(body, b"9" * 5_000),
    "1e20": lambda body: spliced(body, b"1e20"),
    # A key twice is ambiguous: parsers differ on which one wins.
    "a duplicate key": lambda body: json.dumps(body).encode()[:-1] + b', "total_amount": 1}',
    "a duplicate nested key": lambda body: spliced(body, b'{"adults": 1, "adults": 2}', key="guest"),
    # Not one JSON object.
    "a top-level array": lambda body: json.dumps([body]).encode(),
    "a top-level number": lambda body: b"1",
    "a top-level string": lambda body: b'"text"',
    "a top-level null": lambda body: b"null",
    "a top-level true": lambda body: b"true",
    "truncated": lambda body: json.dumps(body).encode()[:-1],
    "trailing garbage": lambda body: json.dumps(body).encode() + b" x",
    "a NUL byte": lambda body: b"\x00",
    "a NUL byte after the object": lambda body: json.dumps(body).encode() + b"\x00",
    "single quotes": lambda body: json.dumps(body).encode().replace(b'"', b"'"),
}


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_the_valid_bodies_the_hostile_ones_are_made_from_are_accepted(hub_client, world, endpoint):
    # The harness itself: unchanged, and spliced with an ordinary value, the bodies succeed.
    body = valid_body(world, endpoint)
    assert send(hub_client, world, endpoint, spliced(body, b"150000")).status_code == 200
    deepest = spliced(valid_body(world, endpoint), nested(MAX_JSON_DEPTH - 1), key="extra")
    assert send(hub_client, world, endpoint, deepest).status_code == 200


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("case", HOSTILE_BODIES)
def test_hostile_bodies_are_3000(hub_client, world, endpoint, case):
    raw = HOSTILE_BODIES[case](valid_body(world, endpoint))
    refused(world, lambda: send(hub_client, world, endpoint, raw))


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize(
    ("content_type", "raw"),
    [("text/plain", b"{}"), ("application/x-www-form-urlencoded", b"total_amount=1"), ("application/xml", b"<a/>")],
)
def test_bodies_that_are_not_json_are_3000(hub_client, world, endpoint, content_type, raw):
    def call():
        headers = hub_headers(raw)
        method = hub_client.client.post if endpoint == "create" else hub_client.client.put
        return method(path(world, endpoint), data=raw, content_type=content_type, **headers)

    refused(world, call)


@pytest.mark.parametrize("action", ["confirm", "cancel"])
@pytest.mark.parametrize("case", ["arrays 100,000 deep", "a stray byte", "NaN", "a duplicate key", "a NUL byte"])
def test_a_body_sent_to_confirm_or_cancel_is_ignored(hub_client, world, action, case):
    raw = HOSTILE_BODIES[case]({"total_amount": 1})
    method = hub_client.put if action == "confirm" else hub_client.post
    response = method(f"/bookings/{world.number}/{action}", raw)
    assert response.status_code == 200
    assert response.json()["status"] == {"confirm": "confirmed", "cancel": "canceled"}[action]


# --- Bodies over the limit: refused before they are read ------------------------------------------


class CountingInput(io.BytesIO):
    """A request body stream that counts the bytes the server takes from it."""

    taken = 0

    def read(self, size=-1):
        data = super().read(size)
        self.taken += len(data)
        return data

    def readline(self, size=-1):
        data = super().readline(size)
        self.taken += len(data)
        return data


def wsgi_call(method, url, raw, headers, *, content_length=True):
    """One call straight through Django's WSGI handler (as gunicorn makes it), the test's database
    connection kept. Returns (status, body as JSON, bytes of the body the server read)."""
    stream = CountingInput(raw)
    path_info, _, query = url.partition("?")
    environ = {
        "REQUEST_METHOD": method.upper(),
        "PATH_INFO": path_info,
        "QUERY_STRING": query,
        "SCRIPT_NAME": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "CONTENT_TYPE": "application/json",
        "wsgi.input": stream,
        "wsgi.errors": sys.stderr,
        "wsgi.url_scheme": "http",
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        **headers,
    }
    if content_length:
        environ["CONTENT_LENGTH"] = str(len(raw))
    else:
        environ["HTTP_TRANSFER_ENCODING"] = "chunked"
        environ["wsgi.input_terminated"] = True
    started = []
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        response = WSGIHandler()(environ, lambda status, response_headers: started.append(status))
        body = b"".join(response)
        response.close()
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)
    return int(started[0].split()[0]), json.loads(body), stream.taken


def every_endpoint(world):
    refund = (
        f"/refund-policy?property_id={world.plan.property.vendor_id}&roomtype_id={world.plan.room_type.vendor_id}"
        f"&rateplan_id={world.plan.vendor_id}&checkin={day(3)}&checkout={day(4)}"
    )
    return {
        "create": ("post", "/bookings"),
        "confirm": ("put", f"/bookings/{world.number}/confirm"),
        "modify": ("put", f"/bookings/{world.number}/modify"),
        "cancel": ("post", f"/bookings/{world.number}/cancel"),
        "check": ("get", f"/bookings/{world.number}"),
        "refund policy": ("get", refund),
    }


def denied_headers(raw, how):
    headers = hub_headers(raw)
    if how == "no signature":
        del headers["HTTP_WEBHOOK_SIGNATURE"]
    elif how == "a wrong token":
        headers["HTTP_AUTHORIZATION"] = "Bearer not-the-token"
    elif how == "no token":
        del headers["HTTP_AUTHORIZATION"]
    elif how == "a stale timestamp":
        headers["HTTP_WEBHOOK_TIMESTAMP"] = "1000000000"
    return headers


OVERSIZED = {
    "15 MB": b'{"a": "' + b"x" * HUGE + b'"}',
    "1,000,000 levels": nested(1_000_000),
    "one byte over the limit": b" " * MAX_BODY_BYTES + b"{}",
}


@pytest.mark.parametrize("endpoint", ["create", "confirm", "modify", "cancel", "check", "refund policy"])
@pytest.mark.parametrize("case", OVERSIZED)
@pytest.mark.parametrize(
    ("how", "code"),
    [
        ("signed", "3000"),
        ("no signature", "2000"),
        ("a wrong token", "2000"),
        ("no token", "2000"),
        ("a stale timestamp", "2000"),
    ],
)
def test_a_body_over_the_limit_is_refused_unread(world, monkeypatch, endpoint, case, how, code):
    def never(*args, **kwargs):
        raise AssertionError("the parser ran")

    monkeypatch.setattr(HubJSONParser, "parse", never)
    method, url = every_endpoint(world)[endpoint]
    raw = OVERSIZED[case]
    before = world.snapshot()

    status, answer, taken = wsgi_call(method, url, raw, denied_headers(raw, how))

    assert (status, answer) == (ERRORS[code][0], {"code": code, "error": ERRORS[code][1]})
    assert taken == 0
    assert world.snapshot() == before
    # A call refused by authentication is logged as a refused call (no body); a signed one says why its
    # body was not read.
    if code == "2000":
        assert RefusedCall.objects.order_by("-pk").values_list("status", flat=True).first() == 403
    else:
        logged = InboundCall.objects.order_by("-pk").values_list("request_body", flat=True).first()
        assert logged.startswith("(not read")


@pytest.mark.parametrize("endpoint", ["create", "modify"])
def test_a_chunked_body_of_unknown_length_is_refused_unread(world, endpoint):
    method, url = every_endpoint(world)[endpoint]
    raw = OVERSIZED["15 MB"]
    status, answer, taken = wsgi_call(method, url, raw, hub_headers(raw), content_length=False)
    assert (status, answer["code"], taken) == (400, "3000", 0)


def test_a_body_at_the_limit_is_read_and_answered(hub_client, world):
    body = json.dumps({"special_comment": "ok"}).encode()
    raw = body + b" " * (MAX_BODY_BYTES - len(body))
    status, answer, taken = wsgi_call("put", f"/bookings/{world.number}/modify", raw, hub_headers(raw))
    assert (status, answer["special_comment"], taken) == (200, "ok", MAX_BODY_BYTES)


def test_a_body_that_is_not_utf8_is_verified_on_its_bytes(client, world):
    raw = spliced(valid_body(world, "create"), b'"\xff"', key="special_comment")
    assert_answer(client.post("/bookings", data=raw, content_type="application/json", **hub_headers(raw)), "3000")
    tampered = raw.replace(b"\xff", b"\xfe")
    headers = hub_headers(raw)
    assert_answer(client.post("/bookings", data=tampered, content_type="application/json", **headers), "2000")
    assert "\\xff" in InboundCall.objects.get(status=400).request_body


# --- Fields of the create body ------------------------------------------------------------------

STRING_FIELDS = [
    "channel_name",
    "channel_booking_number",
    "gds_booking_number",
    "gds_sub_booking_number",
    "property_id",
    "roomtype_id",
    "rateplan_id",
    "type",
    "checkin",
    "checkout",
    "currency",
    "payment_type",
    "reserved_at",
    "special_comment",
    "visit_type",
    "secondary_channel",
    "guest.name",
    "booker.name",
    "booker.email",
    "booker.phone",
]
NUMBER_FIELDS = [
    "channel_id",
    "amount",
    "total_amount",
    "net_price",
    "guest.adults",
    "guest.children",
    "guest.infants",
    "guest.pets",
    "guest.cars",
]
MAX_LENGTHS = {
    "channel_name": 200,
    "channel_booking_number": 100,
    "gds_booking_number": 100,
    "gds_sub_booking_number": 100,
    "property_id": 40,
    "roomtype_id": 40,
    "rateplan_id": 40,
    "special_comment": 4000,
    "secondary_channel": 200,
    "guest.name": 200,
    "booker.name": 200,
    "booker.email": 254,
    "booker.phone": 50,
}


def with_value(body, field, value):
    """body with field ("guest.name" for a nested one) set to value."""
    body = json.loads(json.dumps(body))
    *parents, key = field.split(".")
    target = body
    for parent in parents:
        target = target[parent]
    target[key] = value
    return body


def _iso(first, hour=15):
    return datetime.datetime.combine(day(first), datetime.time(hour), tzinfo=KOREA).isoformat()


def _rates(dates, amount=RATE):
    return [{"date": str(date), "amount": amount} for date in dates]


FIELD_CASES = [
    *[(field, value) for field in STRING_FIELDS for value in ("\ud800", "a\x00b", "\x00", "\udfff\ud800")],
    *[(field, value) for field in STRING_FIELDS for value in (123, 1.5, True, [], {"a": 1})],
    *[(field, None) for field in STRING_FIELDS if field != "channel_booking_number"],
    *[(field, "x" * (length + 1)) for field, length in MAX_LENGTHS.items()],
    *[(field, value) for field in NUMBER_FIELDS for value in ("2", "lots", True, None, [], {}, -1, 10**400, 1e300)],
    ("channel_id", 0),
    ("channel_id", 2**31),
    ("guest.adults", 1001),
    ("guest.adults", 2.5),
    ("amount", 100_000.001),
    ("total_amount", 10_000_000_001),
    ("guest", []),
    ("guest", "Kim"),
    ("guest", None),
    ("booker", [{"name": "Kim"}]),
    ("rates", {"date": "2026-12-01", "amount": 1}),
    ("rates", "all"),
    ("currency", "krw"),
    ("currency", "KRWW"),
    ("type", "weekly"),
    ("property_id", "no-such-property"),
    ("roomtype_id", "no-such-room"),
    ("rateplan_id", "no-such-plan"),
    ("property_id", ""),
]

DATE_TIME_FIELDS = ["checkin", "checkout", "reserved_at"]
EDGE_DATE_TIMES = [
    "0001-01-01T00:00:00+14:00",
    "0001-01-01T00:00:00-14:00",
    "0001-01-01T00:00:00+00:00",
    "9999-12-31T23:59:59-14:00",
    "9999-12-31T23:59:59+14:00",
    "9999-12-31T23:59:59.999999+00:00",
    "1999-12-31T23:59:59+00:00",
    "2100-01-01T00:00:00+00:00",
    "2026-12-01T15:00:00",
    "2026-12-01",
    "2026-02-30T15:00:00+09:00",
    "2026-12-01T15:00:00+24:00",
    "",
]


@pytest.mark.parametrize(("field", "value"), FIELD_CASES, ids=lambda value: repr(value)[:40])
def test_hostile_create_fields_are_3000(hub_client, world, field, value):
    body = with_value(create_body(world.plan, first=2), field, value)
    refused(world, lambda: hub_client.post("/bookings", body))


@pytest.mark.parametrize("field", DATE_TIME_FIELDS)
@pytest.mark.parametrize("value", EDGE_DATE_TIMES)
def test_date_times_at_the_edges_are_3000(hub_client, world, field, value):
    body = create_body(world.plan, first=2) | {field: value}
    refused(world, lambda: hub_client.post("/bookings", body))


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"checkin": _iso(-2), "checkout": _iso(-1, 11)}, id="check-in two days ago"),
        pytest.param({"checkin": _iso(731), "checkout": _iso(732, 11)}, id="check-in past the window"),
        pytest.param({"checkout": _iso(2 + MAX_NIGHTS + 1, 11)}, id="a stay over the longest"),
        pytest.param({"checkout": _iso(2, 23)}, id="an overnight stay of no night"),
        pytest.param({"checkout": _iso(1, 11)}, id="check-out before check-in"),
        pytest.param({"reserved_at": "1999-12-31T23:59:59+00:00"}, id="reserved before 2000"),
        pytest.param({"reserved_at": _iso(2)}, id="reserved in two days"),
    ],
)
def test_a_stay_or_reservation_outside_the_window_is_3000(hub_client, world, change):
    refused(world, lambda: hub_client.post("/bookings", create_body(world.plan, first=2) | change))


def test_the_window_bounds_themselves_are_accepted(hub_client, world):
    earliest = create_body(world.plan, first=2) | {"reserved_at": "2000-01-01T09:00:00+09:00"}
    assert hub_client.post("/bookings", earliest).status_code == 200
    assert Booking.objects.get(gds_sub_booking_number=earliest["gds_sub_booking_number"]).reserved_at == (
        datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
    )
    # Yesterday's check-in (a guest arriving after midnight) is in the window; no rate there is 4000.
    yesterday = create_body(world.plan) | {"checkin": _iso(-1, 23), "checkout": _iso(0, 11)}
    assert_answer(hub_client.post("/bookings", yesterday), "4000")


@pytest.mark.parametrize(
    "rates",
    [
        pytest.param(lambda nights: _rates(nights[:-1]), id="a night missing"),
        pytest.param(lambda nights: _rates([*nights, day(9)]), id="a night more"),
        pytest.param(lambda nights: _rates([nights[0], nights[0]]), id="a night twice"),
        pytest.param(lambda nights: _rates([day(20), day(21)]), id="other dates"),
        pytest.param(lambda nights: _rates(["0001-01-01", "9999-12-31"]), id="dates at the edges"),
        pytest.param(lambda nights: _rates(nights, amount=-1), id="a negative amount"),
        pytest.param(lambda nights: _rates(nights, amount=10**11), id="an amount over the maximum"),
        pytest.param(lambda nights: _rates(nights, amount="100000"), id="an amount as a string"),
        pytest.param(lambda nights: [*_rates(nights), None], id="a null entry"),
        pytest.param(lambda nights: [*_rates(nights), []], id="an array entry"),
        pytest.param(lambda nights: _rates([day(2)] * (MAX_NIGHTS + 1)), id="over the longest stay"),
        pytest.param(lambda nights: _rates([day(2)] * 120_000), id="120,000 entries"),
        pytest.param(lambda nights: [{"date": str(nights[0])}] * 2, id="no amounts"),
    ],
)
def test_nightly_rates_that_are_not_the_stays_nights_are_3000(hub_client, world, rates):
    nights = [day(2), day(3)]
    body = create_body(world.plan, first=2, nights=2, rates=rates(nights))
    refused(world, lambda: hub_client.post("/bookings", body))


def test_nightly_rates_one_per_night_in_any_order_are_accepted(hub_client, world):
    body = create_body(world.plan, first=2, nights=3, rates=_rates([day(4), day(2), day(3)]))
    assert hub_client.post("/bookings", body).status_code == 200


@pytest.mark.parametrize(
    "text",
    [
        "김민지 🏨👨‍👩‍👧",
        "שלום עולם",  # right to left
        "مرحبا\u200f",
        "e\u0301\u0301\u0301 Zalgo\u0336\u0337",
        "\u202eevil\u202c",
        "\U0010ffff",
    ],
)
def test_unicode_text_is_kept_as_given(hub_client, world, text):
    body = create_body(world.plan, first=2, special_comment=text)
    body["guest"]["name"] = text
    answer = hub_client.post("/bookings", body).json()
    assert (answer["guest"]["name"], answer["special_comment"]) == (text, text)
    assert hub_client.put(f"/bookings/{world.number}/modify", {"booker": {"name": text}}).json()["booker"]["name"] == (
        text
    )


# --- Fields of the modify body, the check's and the refund policy's queries ---------------------


@pytest.mark.parametrize(
    "changes",
    [
        {"guest": {"adults": "2"}},
        {"guest": {"adults": -1}},
        {"guest": {"adults": True}},
        {"guest": {"name": "\ud800"}},
        {"guest": {"name": "a\x00b"}},
        {"guest": {"name": 5}},
        {"guest": {"name": "x" * 201}},
        {"guest": []},
        {"guest": None},
        {"booker": {"email": "\udc00"}},
        {"booker": "Kim"},
        {"special_comment": "\x00"},
        {"special_comment": None},
        {"special_comment": 7},
        {"special_comment": "x" * 4001},
        {"total_amount": -1},
        {"total_amount": "1"},
        {"total_amount": 10**400},
        {"total_amount": 1e300},
        {"total_amount": None},
        {"visit_type": "plane"},
        {"visit_type": ""},
    ],
    ids=repr,
)
def test_hostile_modify_fields_are_3000(hub_client, world, changes):
    refused(world, lambda: hub_client.put(f"/bookings/{world.number}/modify", changes))


@pytest.mark.parametrize(
    ("checkin", "checkout"),
    [
        ("0001-01-01T00:00:00%2B14:00", "0001-01-02T00:00:00%2B14:00"),
        ("9999-12-31T23:59:59-14:00", "9999-12-31T23:59:59-14:00"),
        ("0001-01-01", "0001-01-02"),
        ("9999-12-30", "9999-12-31"),
        ("2026-12-01T15:00:00", "2026-12-02"),
        ("{today-2}", "{today}"),
        ("{today+731}", "{today+732}"),
        ("{today+3}", "{today+2}"),
        ("{today+3}", "{today+369}"),
        ("%00", "%00"),
        ("%ED%A0%80", "{today+2}"),
    ],
)
def test_refund_policy_dates_at_the_edges_are_3000(hub_client, world, checkin, checkout):
    today = korea_today()

    def dated(text):
        for offset in (-2, 0, 2, 3, 369, 731, 732):
            text = text.replace(
                f"{{today{offset:+d}}}" if offset else "{today}", str(today + datetime.timedelta(offset))
            )
        return text

    plan = world.plan
    query = (
        f"property_id={plan.property.vendor_id}&roomtype_id={plan.room_type.vendor_id}&rateplan_id={plan.vendor_id}"
        f"&checkin={dated(checkin)}&checkout={dated(checkout)}"
    )
    refused(world, lambda: hub_client.get(f"/refund-policy?{query}"))


@pytest.mark.parametrize(
    "query",
    ["property_id=%00", "property_id=%ED%A0%80", "property_id=" + "x" * 41, "rateplan_id=", "checkin=yesterday"],
)
def test_refund_policy_ids_with_nul_bytes_or_overlong_are_3000(hub_client, world, query):
    plan = world.plan
    base = {
        "property_id": plan.property.vendor_id,
        "roomtype_id": plan.room_type.vendor_id,
        "rateplan_id": plan.vendor_id,
        "checkin": str(day(3)),
        "checkout": str(day(4)),
    }
    key = query.partition("=")[0]
    rest = "&".join(f"{name}={value}" for name, value in base.items() if name != key)
    refused(world, lambda: hub_client.get(f"/refund-policy?{rest}&{query}"))


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("type=channel_booking_number&channel_id=99999999999999999999", "3000"),
        ("type=channel_booking_number&channel_id=-1", "3000"),
        ("type=channel_booking_number&channel_id=%00", "3000"),
        ("type=%00", "3000"),
        ("type=vendor_booking_number&type=nonsense", "3000"),
    ],
)
def test_hostile_check_queries_get_the_contracts_answer(hub_client, world, query, code):
    refused(world, lambda: hub_client.get(f"/bookings/{world.number}?{query}"), code)


@pytest.mark.parametrize(
    "number",
    ["%00", "%ED%A0%80", "x" * 101, "VH%00" + "0" * 12, "%F0%9F%8F%A8", "..%2F..%2Fetc", "%0D%0A"],
)
@pytest.mark.parametrize("action", ["check", "confirm", "modify", "cancel"])
def test_unknown_or_impossible_numbers_are_4004(hub_client, world, number, action):
    url = f"/bookings/{number}" if action == "check" else f"/bookings/{number}/{action}"
    method = {"check": hub_client.get, "confirm": hub_client.put, "modify": hub_client.put}.get(action, hub_client.post)
    refused(world, lambda: method(url) if action == "check" else method(url, {}), "4004")


# --- Nothing accepted may poison a booking (PostgreSQL stores what Python cannot load) -------------


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("reserved_at", "0001-01-01T00:00:00+14:00"),
        ("reserved_at", "9999-12-31T23:59:59-14:00"),
        ("checkin", "0001-01-01T00:00:00+14:00"),
        ("checkout", "9999-12-31T23:59:59-14:00"),
    ],
)
def test_on_postgresql_a_date_at_the_edge_leaves_no_row_and_every_hold_intact(hub_client, world, field, value):
    body = create_body(world.plan, first=2) | {field: value}
    held = stock(world.room_type)

    assert_answer(hub_client.post("/bookings", body), "3000")

    assert not Booking.objects.filter(gds_sub_booking_number=body["gds_sub_booking_number"]).exists()
    assert stock(world.room_type) == held
    # Every row loads, the periodic release runs, and the hub can still confirm its booking.
    assert [booking.reserved_at.year for booking in Booking.objects.all()] == [2026]
    assert services.bookings_release_expired() == 0
    assert hub_client.put(f"/bookings/{world.number}/confirm").json()["status"] == "confirmed"
