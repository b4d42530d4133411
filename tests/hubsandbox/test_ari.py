"""Rates, business days and availability (operations 14 and 15): the rules of each field, 404s, the
Korea-time date window, the 1000-entry limit, and what the hub stores per day and channel.

The clock is frozen for every test (django.utils.timezone.now), so that "today in Korea" does not move
while a test runs: at FROZEN it is already TODAY in Korea but still the day before in UTC.
"""

import datetime
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

import pytest
import requests
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import translation

from hubsandbox import ari, state
from hubsandbox.faults import inject_faults
from hubsandbox.models import SandboxAvailDay, SandboxRateDay

from .hubclient import KO, error, ok

UTC = datetime.UTC
FROZEN = datetime.datetime(2026, 3, 10, 15, 30, tzinfo=UTC)  # 2026-03-11 00:30 in Korea
TODAY = datetime.date(2026, 3, 11)
LAST = TODAY + datetime.timedelta(days=730)

RATES = "/properties/p1/roomtypes/r1/rateplans/rp-std/ari"
PACKAGE_RATES = "/properties/p1/roomtypes/r1/rateplans/rp-pkg/ari"
AVAILS = "/properties/p1/roomtypes/r1/ari/avails"


def day(offset: int) -> datetime.date:
    return TODAY + datetime.timedelta(days=offset)


def iso(offset: int) -> str:
    return day(offset).isoformat()


def span(first: int, last: int, **values) -> dict:
    return {"from": iso(first), "to": iso(last), **values}


@pytest.fixture(autouse=True)
def clock():
    """The frozen "now"; tests move it by setting clock.return_value."""
    with mock.patch("django.utils.timezone.now", return_value=FROZEN) as now:
        yield now


@pytest.fixture
def plans(hub, prop):
    """Rate plans rp-std (standalone model) and rp-pkg (package model) of room type r1."""
    for rateplan_id, model_id in (("rp-std", "std"), ("rp-pkg", "pkg")):
        body = {"id": rateplan_id, "vendor_rateplan_model_id": model_id}
        ok(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", body))
    return prop


def rates(channel_id=None, rateplan_id="rp-std"):
    return state.rates_of("p1", "r1", rateplan_id, channel_id)


def avails(channel_id=None):
    return state.avails_of("p1", "r1", channel_id)


def nothing_stored():
    return not SandboxRateDay.objects.exists() and not SandboxAvailDay.objects.exists()


# --- Rates and business days: what is stored ---------------------------------------------------


def test_rates_expand_to_days_per_channel(hub, plans):
    body = {
        "rates": [span(0, 2, rate=120000, business_day=True)],
        "channels": [
            {"channel_id": 3, "rates": [span(1, 1, rate=150000), span(2, 3, business_day=False)]},
            {"channel_id": 7, "rates": []},
        ],
    }
    assert ok(hub.post(RATES, body)) == {"accepted": 3}
    assert rates() == {
        day(0): {"rate": 120000, "business_day": True},
        day(1): {"rate": 120000, "business_day": True},
        day(2): {"rate": 120000, "business_day": True},
    }
    assert rates(3) == {day(1): {"rate": 150000}, day(2): {"business_day": False}, day(3): {"business_day": False}}
    assert rates(7) == {}
    assert rates(rateplan_id="rp-pkg") == {}
    logged = state.request_log(path="/gds/vendor/properties/p1/roomtypes/r1/rateplans/rp-std/ari").get()
    assert (logged.method, logged.response_status) == ("POST", 200)


def test_later_entries_overwrite_earlier_ones(hub, plans):
    body = {"rates": [span(0, 9, rate=100, business_day=True), span(3, 4, rate=200), span(4, 5, business_day=False)]}
    assert ok(hub.post(RATES, body)) == {"accepted": 3}
    stored = rates()
    assert len(stored) == 10
    assert stored[day(2)] == {"rate": 100, "business_day": True}
    assert stored[day(3)] == {"rate": 200, "business_day": True}
    assert stored[day(4)] == {"rate": 200, "business_day": False}
    assert stored[day(5)] == {"rate": 100, "business_day": False}

    # A later request overwrites what it sends and leaves the rest: business_day alone keeps the rate.
    ok(hub.post(RATES, {"rates": [span(0, 1, business_day=False), span(9, 10, rate=300)]}))
    stored = rates()
    assert stored[day(0)] == {"rate": 100, "business_day": False}
    assert stored[day(2)] == {"rate": 100, "business_day": True}
    assert stored[day(9)] == {"rate": 300, "business_day": True}
    assert stored[day(10)] == {"rate": 300}


def test_channel_values_do_not_touch_the_common_ones(hub, plans):
    ok(hub.post(RATES, {"rates": [span(0, 1, rate=100)]}))
    ok(hub.post(RATES, {"rates": [], "channels": [{"channel_id": 3, "rates": [span(0, 0, rate=90)]}]}))
    assert rates() == {day(0): {"rate": 100}, day(1): {"rate": 100}}
    assert rates(3) == {day(0): {"rate": 90}}


def test_package_plans_take_rate_modify(hub, plans):
    body = {
        "rates": [span(0, 1, rate_modify=-5000, business_day=True)],
        "channels": [{"channel_id": 2, "rates": [span(1, 1, rate_modify=2500.5)]}],
    }
    assert ok(hub.post(PACKAGE_RATES, body)) == {"accepted": 2}
    assert rates(rateplan_id="rp-pkg") == {
        day(0): {"rate_modify": -5000, "business_day": True},
        day(1): {"rate_modify": -5000, "business_day": True},
    }
    assert rates(2, rateplan_id="rp-pkg") == {day(1): {"rate_modify": 2500.5}}


def test_integral_numbers_are_integers(hub, plans):
    ok(hub.post(RATES, {"rates": [span(0, 0, rate=120000.0), span(1, 1, rate=99.5), span(2, 2, rate=0)]}))
    stored = rates()
    assert stored[day(0)] == {"rate": 120000}
    assert isinstance(stored[day(0)]["rate"], int)
    assert stored[day(1)] == {"rate": 99.5}
    assert stored[day(2)] == {"rate": 0}
    ok(hub.post(AVAILS, {"avails": [span(0, 0, count=2.0)]}))
    assert avails() == {day(0): 2}


def test_empty_sections_are_accepted(hub, plans):
    assert ok(hub.post(RATES, {"rates": []})) == {"accepted": 0}
    assert ok(hub.post(RATES, {"rates": [], "channels": []})) == {"accepted": 0}
    assert ok(hub.post(AVAILS, {"avails": []})) == {"accepted": 0}
    assert nothing_stored()


# --- Availability: what is stored --------------------------------------------------------------


def test_avails_expand_to_days_per_channel_and_overwrite(hub, prop):
    body = {
        "avails": [span(0, 3, count=5), span(2, 2, count=0)],
        "channels": [{"channel_id": 3, "avails": [span(0, 1, count=2)]}],
    }
    assert ok(hub.post(AVAILS, body)) == {"accepted": 3}
    assert avails() == {day(0): 5, day(1): 5, day(2): 0, day(3): 5}
    assert avails(3) == {day(0): 2, day(1): 2}
    assert avails(4) == {}

    ok(hub.post(AVAILS, {"avails": [span(3, 4, count=1)], "channels": [{"channel_id": 4, "avails": []}]}))
    assert avails() == {day(0): 5, day(1): 5, day(2): 0, day(3): 1, day(4): 1}
    assert avails(3) == {day(0): 2, day(1): 2}


def test_avails_of_room_types_are_separate(hub, prop):
    ok(hub.post("/properties/p1/roomtypes", {"id": "r2", "i18n": [KO]}))
    ok(hub.post(AVAILS, {"avails": [span(0, 0, count=5)]}))
    ok(hub.post("/properties/p1/roomtypes/r2/ari/avails", {"avails": [span(0, 0, count=1)]}))
    assert avails() == {day(0): 5}
    assert state.avails_of("p1", "r2") == {day(0): 1}


# --- Rules: 400 naming the field, nothing stored ------------------------------------------------

E = {"from": iso(0), "to": iso(1)}
RATE_CASES = [
    ({}, "rates: is required"),
    ({"rates": None}, "rates: may not be null"),
    ({"rates": {}}, "rates: must be an array"),
    ({"rates": [], "avails": []}, "avails: unknown field"),
    ({"rates": [], "channels": None}, "channels: may not be null"),
    ({"rates": [], "channels": {"3": []}}, "channels: must be an array"),
    ({"rates": ["x"]}, "rates[0]: must be a JSON object"),
    ({"rates": [{"to": iso(0), "rate": 1}]}, "rates[0].from: is required"),
    ({"rates": [{"from": iso(0), "rate": 1}]}, "rates[0].to: is required"),
    ({"rates": [E | {"from": "2026/03/11", "rate": 1}]}, "rates[0].from: must be a date written YYYY-MM-DD"),
    ({"rates": [E | {"from": 20260311, "rate": 1}]}, "rates[0].from: must be a date written YYYY-MM-DD"),
    ({"rates": [E | {"to": "2026-03-11T00:00:00+09:00", "rate": 1}]}, "rates[0].to: must be a date written"),
    ({"rates": [E | {"to": "2026-02-30", "rate": 1}]}, "rates[0].to: 2026-02-30 is not a valid date"),
    ({"rates": [E | {"from": None, "rate": 1}]}, "rates[0].from: may not be null"),
    ({"rates": [E | {"rate": 1}] * 3 + [span(5, 4, rate=1)]}, "rates[3].to: must not be before from"),
    ({"rates": [E | {"rate": -1}]}, "rates[0].rate: must be a number >= 0"),
    ({"rates": [E | {"rate": -0.5}]}, "rates[0].rate: must be a number >= 0"),
    ({"rates": [E | {"rate": "1000"}]}, "rates[0].rate: must be a number >= 0"),
    ({"rates": [E | {"rate": True}]}, "rates[0].rate: must be a number >= 0"),
    ({"rates": [E | {"rate": None}]}, "rates[0].rate: may not be null"),
    ({"rates": [E | {"rate": 10**16}]}, "rates[0].rate: must be at most 1000000000000000 in magnitude"),
    ({"rates": [E | {"rate_modify": -100}]}, "rates[0].rate_modify: allowed only on a rate plan whose model is a"),
    ({"rates": [E | {"rate_modify": 0, "rate": 1}]}, "rates[0].rate_modify: allowed only on a rate plan"),
    ({"rates": [E | {"business_day": "yes"}]}, "rates[0].business_day: must be a boolean"),
    ({"rates": [E | {"business_day": 1}]}, "rates[0].business_day: must be a boolean"),
    ({"rates": [E | {"business_day": None}]}, "rates[0].business_day: may not be null"),
    ({"rates": [E]}, "rates[0]: must carry at least one of rate, rate_modify, business_day"),
    ({"rates": [E | {"rate": 1, "price": 1}]}, "rates[0].price: unknown field"),
    ({"rates": [E | {"count": 1}]}, "rates[0].count: unknown field"),
    ({"rates": [], "channels": ["x"]}, "channels[0]: must be a JSON object"),
    ({"rates": [], "channels": [{"rates": []}]}, "channels[0].channel_id: is required"),
    ({"rates": [], "channels": [{"channel_id": 3}]}, "channels[0].rates: is required"),
    ({"rates": [], "channels": [{"channel_id": 3, "rates": None}]}, "channels[0].rates: may not be null"),
    ({"rates": [], "channels": [{"channel_id": 3, "rates": [], "name": "x"}]}, "channels[0].name: unknown field"),
    ({"rates": [], "channels": [{"channel_id": 0, "rates": []}]}, "channels[0].channel_id: must be an integer >= 1"),
    ({"rates": [], "channels": [{"channel_id": -3, "rates": []}]}, "channels[0].channel_id: must be an integer >= 1"),
    ({"rates": [], "channels": [{"channel_id": "3", "rates": []}]}, "channels[0].channel_id: must be an integer >= 1"),
    ({"rates": [], "channels": [{"channel_id": 1.5, "rates": []}]}, "channels[0].channel_id: must be an integer >= 1"),
    ({"rates": [], "channels": [{"channel_id": True, "rates": []}]}, "channels[0].channel_id: must be an integer >= 1"),
    ({"rates": [], "channels": [{"channel_id": None, "rates": []}]}, "channels[0].channel_id: may not be null"),
    ({"rates": [], "channels": [{"channel_id": 2**31, "rates": []}]}, "channels[0].channel_id: must be at most"),
    (
        {"rates": [], "channels": [{"channel_id": 3, "rates": []}, {"channel_id": 3.0, "rates": []}]},
        "channels[1].channel_id: channel 3 appears more than once",
    ),
    (
        {"rates": [], "channels": [{"channel_id": 3, "rates": [E | {"rate": 1}, E | {"rate": -1}]}]},
        "channels[0].rates[1].rate: must be a number >= 0",
    ),
    ({"rates": [], "channels": [{"channel_id": 3, "rates": [E]}]}, "channels[0].rates[0]: must carry at least one"),
    ({"rates": [], "channels": [{"channel_id": 3, "avails": []}]}, "channels[0].avails: unknown field"),
]


@pytest.mark.parametrize(("body", "message"), RATE_CASES)
def test_rate_rules(hub, plans, body, message):
    if "rates" in body and "channels" not in body and body["rates"] and isinstance(body["rates"], list):
        # A valid entry first: the refused request must not store it either.
        body = {"rates": [span(0, 0, rate=1), *body["rates"]]}
        message = message.replace("rates[0]", "rates[1]").replace("rates[3]", "rates[4]")
    assert error(hub.post(RATES, body), 400).startswith(message)
    assert nothing_stored()


def test_the_message_names_the_entry(hub, plans):
    body = {"rates": [span(0, 1, rate=1)] * 3 + [span(5, 4, rate=1)]}
    assert error(hub.post(RATES, body), 400) == "rates[3].to: must not be before from"


PACKAGE_CASES = [
    ({"rates": [E | {"rate": 100}]}, "rates[0].rate: not allowed on a rate plan whose model is a package"),
    ({"rates": [E | {"rate": 100, "rate_modify": 1}]}, "rates[0].rate: not allowed on a rate plan whose model"),
    ({"rates": [E | {"rate_modify": "-100"}]}, "rates[0].rate_modify: must be a number"),
    ({"rates": [E | {"rate_modify": False}]}, "rates[0].rate_modify: must be a number"),
    ({"rates": [E | {"rate_modify": -(10**16)}]}, "rates[0].rate_modify: must be at most 1000000000000000 in"),
    (
        {"rates": [], "channels": [{"channel_id": 1, "rates": [E | {"rate": 0}]}]},
        "channels[0].rates[0].rate: not allowed on a rate plan whose model is a package",
    ),
]


@pytest.mark.parametrize(("body", "message"), PACKAGE_CASES)
def test_package_rate_rules(hub, plans, body, message):
    assert error(hub.post(PACKAGE_RATES, body), 400).startswith(message)
    assert nothing_stored()


def test_numbers_beyond_a_double_are_refused(hub, plans):
    raw = f'{{"rates": [{{"from": "{iso(0)}", "to": "{iso(0)}", "rate_modify": -1e400}}]}}'.encode()
    message = error(hub.post(PACKAGE_RATES, None, raw=raw), 400)
    assert message == "rates[0].rate_modify: must be at most 1000000000000000 in magnitude"
    raw = f'{{"rates": [{{"from": "{iso(0)}", "to": "{iso(0)}", "rate": 1{"0" * 400}}}]}}'.encode()
    assert error(hub.post(RATES, None, raw=raw), 400).startswith("rates[0].rate: must be at most")
    assert nothing_stored()


AVAIL_CASES = [
    ({}, "avails: is required"),
    ({"rates": []}, "rates: unknown field"),
    ({"avails": None}, "avails: may not be null"),
    ({"avails": [E]}, "avails[0].count: is required"),
    ({"avails": [E | {"count": -1}]}, "avails[0].count: must be an integer >= 0"),
    ({"avails": [E | {"count": 1.5}]}, "avails[0].count: must be an integer >= 0"),
    ({"avails": [E | {"count": "2"}]}, "avails[0].count: must be an integer >= 0"),
    ({"avails": [E | {"count": True}]}, "avails[0].count: must be an integer >= 0"),
    ({"avails": [E | {"count": None}]}, "avails[0].count: may not be null"),
    ({"avails": [E | {"count": 2**31}]}, "avails[0].count: must be at most 2147483647"),
    ({"avails": [E | {"count": 1, "rate": 1}]}, "avails[0].rate: unknown field"),
    ({"avails": [E | {"count": 1, "business_day": True}]}, "avails[0].business_day: unknown field"),
    ({"avails": [{"to": iso(0), "count": 1}]}, "avails[0].from: is required"),
    ({"avails": [span(2, 1, count=1)]}, "avails[0].to: must not be before from"),
    ({"avails": [E | {"from": "11-03-2026", "count": 1}]}, "avails[0].from: must be a date written YYYY-MM-DD"),
    ({"avails": [], "channels": [{"channel_id": 3}]}, "channels[0].avails: is required"),
    ({"avails": [], "channels": [{"channel_id": 3, "rates": []}]}, "channels[0].rates: unknown field"),
    ({"avails": [], "channels": [{"channel_id": 0, "avails": []}]}, "channels[0].channel_id: must be an integer >= 1"),
    (
        {"avails": [], "channels": [{"channel_id": 5, "avails": []}, {"channel_id": 5, "avails": []}]},
        "channels[1].channel_id: channel 5 appears more than once",
    ),
    (
        {"avails": [], "channels": [{"channel_id": 5, "avails": [span(0, 0, count=-2)]}]},
        "channels[0].avails[0].count: must be an integer >= 0",
    ),
]


@pytest.mark.parametrize(("body", "message"), AVAIL_CASES)
def test_avail_rules(hub, prop, body, message):
    if body.get("avails"):
        body = body | {"avails": [span(0, 0, count=1), *body["avails"]]}
        message = message.replace("avails[0]", "avails[1]")
    assert error(hub.post(AVAILS, body), 400).startswith(message)
    assert nothing_stored()


# --- The date window, in Korea time ------------------------------------------------------------


@pytest.mark.parametrize("path", [RATES, AVAILS])
def test_window_is_today_to_today_plus_730_in_korea(hub, plans, path):
    values = {"rate": 1} if path == RATES else {"count": 1}
    section = "rates" if path == RATES else "avails"
    # At FROZEN it is TODAY in Korea and still the day before in UTC: TODAY is accepted ...
    assert FROZEN.date() == day(-1)
    ok(hub.post(path, {section: [span(0, 0, **values)]}))
    ok(hub.post(path, {section: [{"from": iso(0), "to": LAST.isoformat(), **values}]}))
    # ... yesterday in Korea (today in UTC) and the day after TODAY + 730 are not.
    window = f"must be from {TODAY} (today in Korea) to {LAST} (today + 730 days)"
    assert (
        error(hub.post(path, {section: [span(-1, 0, **values)]}), 400) == f"{section}[0].from: {window}, got {day(-1)}"
    )
    assert error(hub.post(path, {section: [span(-1, -1, **values)]}), 400).startswith(f"{section}[0].from: {window}")
    assert (
        error(hub.post(path, {section: [span(0, 731, **values)]}), 400) == f"{section}[0].to: {window}, got {day(731)}"
    )
    assert error(hub.post(path, {section: [span(731, 731, **values)]}), 400).startswith(f"{section}[0].from: {window}")
    channel = {section: [], "channels": [{"channel_id": 1, section: [span(-1, 0, **values)]}]}
    assert error(hub.post(path, channel), 400).startswith(f"channels[0].{section}[0].from: {window}")


def test_window_moves_at_midnight_in_korea(hub, plans, clock):
    clock.return_value = datetime.datetime(2026, 3, 11, 14, 59, 59, tzinfo=UTC)  # 23:59:59 on TODAY in Korea
    ok(hub.post(AVAILS, {"avails": [span(0, 0, count=1)]}))
    error(hub.post(AVAILS, {"avails": [span(731, 731, count=1)]}), 400)

    clock.return_value = datetime.datetime(2026, 3, 11, 15, 0, tzinfo=UTC)  # 00:00 the day after, in Korea
    assert ari.korea_today() == day(1)
    assert error(hub.post(AVAILS, {"avails": [span(0, 0, count=1)]}), 400).startswith("avails[0].from: must be from")
    ok(hub.post(AVAILS, {"avails": [span(731, 731, count=1)]}))
    assert avails() == {day(0): 1, day(731): 1}


# --- At most 1000 entries, common and per channel together ---------------------------------------


def _entries(number: int, **values) -> list[dict]:
    return [span(index % 700, index % 700, **values) for index in range(number)]


@pytest.mark.parametrize(
    ("path", "section", "values"), [(RATES, "rates", {"rate": 1}), (AVAILS, "avails", {"count": 1})]
)
def test_at_most_1000_entries(hub, plans, path, section, values):
    def body(common: int, channel: int) -> dict:
        return {
            section: _entries(common, **values),
            "channels": [
                {"channel_id": 1, section: _entries(channel // 2, **values)},
                {"channel_id": 2, section: _entries(channel - channel // 2, **values)},
            ],
        }

    message = f"{section}: at most 1000 entries per request, counting those of channels[].{section}; got 1001"
    assert error(hub.post(path, body(601, 400)), 400) == message
    assert error(hub.post(path, body(1001, 0)), 400) == message
    assert error(hub.post(path, body(0, 1001)), 400) == message
    assert nothing_stored()
    assert ok(hub.post(path, body(600, 400))) == {"accepted": 1000}
    assert ok(hub.post(path, {section: _entries(1000, **values)})) == {"accepted": 1000}


# --- 404s, error order, shared behaviour ------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/properties/p9/roomtypes/r1/rateplans/rp-std/ari", "property 'p9' not found"),
        ("/properties/p1/roomtypes/r9/rateplans/rp-std/ari", "room type 'r9' not found in property 'p1'"),
        ("/properties/p1/roomtypes/r1/rateplans/rp9/ari", "rate plan 'rp9' not found in room type 'r1'"),
        ("/properties/p1/roomtypes/r2/rateplans/rp-std/ari", "rate plan 'rp-std' not found in room type 'r2'"),
        ("/properties/p9/roomtypes/r1/ari/avails", "property 'p9' not found"),
        ("/properties/p1/roomtypes/r9/ari/avails", "room type 'r9' not found in property 'p1'"),
        ("/properties/p1/roomtypes/r1/rateplans/rp-std/ari/avails", "no hub endpoint POST"),
        ("/properties/p1/roomtypes/r1/ari", "no hub endpoint POST"),
    ],
)
def test_unknown_ids_are_404(hub, plans, path, message):
    ok(hub.post("/properties/p1/roomtypes", {"id": "r2", "i18n": [KO]}))
    # The path is looked up before the body is checked.
    assert error(hub.post(path, {"rates": [{"rate": -1}]}), 404).startswith(message)


def test_error_order_matches_the_other_operations(hub, plans):
    assert error(hub.post("/properties/p9/roomtypes/r1/ari/avails", {}, authorization="wrong"), 401)
    assert error(hub.get(AVAILS), 405) == "GET is not allowed on this path"
    assert error(hub.patch(RATES, {"rates": []}), 405) == "PATCH is not allowed on this path"
    assert error(hub.post(RATES, None, raw=b""), 400) == "body: is required (a JSON object)"
    assert error(hub.post(RATES, None, raw=b"{}", content_type="text/plain"), 415).startswith("Content-Type:")
    assert error(hub.post(RATES, None, raw=b"{rates: []}"), 400).startswith("body: malformed JSON")
    assert error(hub.post(RATES, None, raw=b"[]"), 400) == "body: must be a JSON object"
    statuses = [entry.response_status for entry in state.request_log(path_prefix="/gds/vendor/properties/p1/roomtypes")]
    assert statuses[-6:] == [405, 405, 400, 415, 400, 400]


def test_injected_faults_apply(hub, plans):
    with inject_faults(sequence=["error", "throttle"]):
        response = hub.post(AVAILS, {"avails": [span(0, 0, count=1)]})
        assert error(response, 503).endswith("(injected by the sandbox)")
        assert error(hub.post(RATES, {"rates": [span(0, 0, rate=1)]}), 429)
    assert nothing_stored()
    assert [entry.fault for entry in state.request_log(method="POST").filter(path__contains="/ari")] == [
        "error",
        "throttle",
    ]


@pytest.mark.postgres
def test_racing_pushes_each_land_whole(live_server, transactional_db, settings):
    """Concurrent pushes to one rate plan neither deadlock nor mix: every day (common and channel) ends
    with the value of one request, the last one."""
    headers = {"Authorization": f"{settings.HUB_AUTH_SCHEME} {settings.HUB_API_TOKEN}".strip()}
    base = f"{live_server.url}/sandbox/gds/vendor/properties"

    def post(path, body):
        return requests.post(base + path, json=body, headers=headers, timeout=30).status_code

    assert post("", {"id": "p1", "i18n": [KO]}) == 200
    assert post("/p1/roomtypes", {"id": "r1", "i18n": [KO]}) == 200
    assert post("/p1/rateplan-models", {"id": "std", "type": "standalone", "i18n": [{"locale": "ko-KR"}]}) == 200
    assert post("/p1/roomtypes/r1/rateplans", {"id": "rp-std", "vendor_rateplan_model_id": "std"}) == 200
    # Half of the requests send the later days first: the rows are written in different orders.
    halves = [(0, 365), (366, 730)]
    bodies = [
        {
            "rates": [span(*half, rate=value) for half in halves[:: 1 if value % 2 else -1]],
            "channels": [{"channel_id": 1, "rates": [span(0, 730, rate=value)]}],
        }
        for value in range(1, 9)
    ]
    with ThreadPoolExecutor(max_workers=len(bodies)) as pool:
        assert list(pool.map(lambda body: post("/p1/roomtypes/r1/rateplans/rp-std/ari", body), bodies)) == [200] * 8
    common, channel = rates(), rates(1)
    assert len(common) == 731
    assert len({values["rate"] for values in common.values()}) == 1
    assert channel == common


# --- state and admin ---------------------------------------------------------------------------


def test_state_readers_and_reset(hub, plans):
    ok(hub.post(RATES, {"rates": [span(0, 0, rate=1)], "channels": [{"channel_id": 2, "rates": [span(0, 0, rate=2)]}]}))
    ok(hub.post(AVAILS, {"avails": [span(0, 0, count=1)]}))
    assert state.rates_of("p1", "r1", "rp-std", channel_id=2) == {day(0): {"rate": 2}}
    assert state.rates_of("p1", "r9", "rp-std") == {}
    assert state.rates_of("p9", "r1", "rp-std") == {}
    assert state.avails_of("p1", "r9") == {}
    state.reset()
    assert nothing_stored()
    assert state.rates_of("p1", "r1", "rp-std") == {}


@pytest.fixture
def stored(hub, plans):
    ok(hub.post(RATES, {"rates": [span(0, 1, rate=1)], "channels": [{"channel_id": 2, "rates": [span(0, 0, rate=2)]}]}))
    ok(
        hub.post(
            AVAILS, {"avails": [span(0, 0, count=1)], "channels": [{"channel_id": 2, "avails": [span(0, 0, count=0)]}]}
        )
    )


@pytest.mark.parametrize("model", ["sandboxrateday", "sandboxavailday"])
def test_superusers_see_the_stored_days_read_only(admin_client, stored, model):
    url = reverse(f"admin:hubsandbox_{model}_changelist")
    changelist = admin_client.get(url)
    assert changelist.status_code == 200
    assert "공통" in changelist.content.decode()  # the channel of the common values
    assert "common" in admin_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    first = changelist.context["cl"].result_list[0]
    detail = admin_client.get(reverse(f"admin:hubsandbox_{model}_change", args=[first.pk]))
    assert detail.status_code == 200
    assert not detail.context["has_change_permission"]
    assert admin_client.get(reverse(f"admin:hubsandbox_{model}_add")).status_code == 403
    assert admin_client.post(reverse(f"admin:hubsandbox_{model}_delete", args=[first.pk])).status_code == 403
    # Filters by date and channel.
    filtered = admin_client.get(url, {"date__year": TODAY.year, "date__month": TODAY.month, "date__day": TODAY.day})
    assert {row.date for row in filtered.context["cl"].result_list} == {TODAY}
    assert {row.channel_id for row in admin_client.get(url, {"channel_id": 2}).context["cl"].result_list} == {2}


def test_rate_days_filter_by_property_room_type_and_rate_plan(admin_client, stored):
    url = reverse("admin:hubsandbox_sandboxrateday_changelist")
    rateplan = SandboxRateDay.objects.first().rateplan
    for query in (
        {"rateplan__property__id__exact": rateplan.property_id},
        {"rateplan__roomtype__id__exact": rateplan.roomtype_id},
        {"rateplan__id__exact": rateplan.pk},
    ):
        response = admin_client.get(url, query)
        assert response.status_code == 200
        assert len(response.context["cl"].result_list) == 3
    url = reverse("admin:hubsandbox_sandboxavailday_changelist")
    response = admin_client.get(url, {"roomtype__property__id__exact": rateplan.property_id})
    assert len(response.context["cl"].result_list) == 2


def test_staff_without_superuser_cannot_see_the_stored_days(client, django_user_model, stored):
    staff = django_user_model.objects.create_user("staff", password="pw", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(content_type__app_label="hubsandbox"))
    client.force_login(staff)
    for model in ("sandboxrateday", "sandboxavailday"):
        assert client.get(reverse(f"admin:hubsandbox_{model}_changelist")).status_code == 403


def test_admin_strings_are_translated_to_korean():
    with translation.override("ko"):
        assert str(SandboxRateDay._meta.verbose_name_plural) == "허브 일별 요금"
        assert str(SandboxAvailDay._meta.get_field("count").verbose_name) == "객실 수"
