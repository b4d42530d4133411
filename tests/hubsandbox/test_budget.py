"""The sandbox's request budget (`budget=N`): like Channex, 429 with Retry-After (to the next clock minute)
beyond N requests per property, kind and clock minute; other properties, kinds and calls about no property
unaffected; and the count of the log by property, kind and minute that the estate benchmark reports."""

from types import SimpleNamespace

import pytest
from django.core.cache import cache

from hubsandbox import budget, state
from hubsandbox.budget import budget_minutes, budget_of
from hubsandbox.faults import FaultConfig, inject_faults

from .hubclient import KO, error

#: A moment 10 s into a clock minute.
MINUTE_START = 1_800_000_000 - 1_800_000_000 % 60


@pytest.fixture
def clock(monkeypatch):
    clock = SimpleNamespace(now=MINUTE_START + 10.0)
    monkeypatch.setattr(budget, "time", SimpleNamespace(time=lambda: clock.now))
    cache.clear()
    return clock


RATES = "/properties/p1/roomtypes/r1/rateplans/rp1/ari"
AVAILS = "/properties/p1/roomtypes/r1/ari/avails"


def answered(response):
    """The status of an answer that the budget let through (whatever the hub made of the request)."""
    assert response.status_code != 429, response.content.decode()
    return response.status_code


def test_budget_is_a_fault_option():
    assert FaultConfig.parse("budget=10,latency_ms=5") == FaultConfig(budget=10, latency_ms=5)
    with pytest.raises(ValueError, match="budget"):
        FaultConfig(budget=-1)


def test_the_kind_is_read_from_the_path_and_the_body_of_a_create():
    assert budget_of("POST", "/gds/vendor" + RATES, b"{}") == ("p1", "rates")
    assert budget_of("POST", "/gds/vendor" + AVAILS, b"{}") == ("p1", "availability")
    assert budget_of("GET", "/gds/vendor/properties/p1/channels", None) == ("p1", "content")
    assert budget_of("PATCH", "/gds/vendor/properties/p%2F1", b"{}") == ("p/1", "content")
    assert budget_of("POST", "/gds/vendor/properties", b'{"id": "p2"}') == ("p2", "content")
    assert budget_of("POST", "/gds/vendor/properties", b"not json") is None
    assert budget_of("GET", "/gds/vendor/meta", None) is None
    assert budget_of("GET", "/gds/vendor/bookings", None) is None


def test_beyond_n_per_property_kind_and_minute_the_hub_answers_429(hub, clock):
    with inject_faults(budget=2):
        for _ in range(2):
            answered(hub.post(RATES, {}))
        response = hub.post(RATES, {})
        assert "at most 2 a minute" in error(response, 429)
        assert response["Retry-After"] == "50"

        # Other kinds of p1, the same kind of another property, and calls about no property are counted apart.
        for _ in range(2):
            answered(hub.post(AVAILS, {}))
            answered(hub.post("/properties/p2/roomtypes/r1/rateplans/rp1/ari", {}))
            answered(hub.get("/properties/p1"))
        for _ in range(5):
            answered(hub.get("/meta"))
        # A create counts for the property its body names.
        error(hub.post("/properties", {"id": "p1", "i18n": [KO]}), 429)
        answered(hub.post("/properties", {"id": "p3", "i18n": [KO]}))

        clock.now += 50  # the next clock minute
        answered(hub.post(RATES, {}))


def test_without_the_option_nothing_is_counted(hub, clock):
    for _ in range(30):
        answered(hub.get("/properties/p1"))


def test_the_log_counted_by_property_kind_and_minute(hub, clock):
    with inject_faults(budget=1):
        for _ in range(3):
            hub.post(RATES, {})
        hub.get("/properties/p1")
        hub.get("/meta")

    counts = budget_minutes(state.request_log())
    assert sorted((key[:2], count) for key, count in counts.items()) == [(("p1", "content"), 1), (("p1", "rates"), 3)]
