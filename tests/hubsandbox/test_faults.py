"""Fault injection: shares of 5xx and 429 (with Retry-After), latency, dropped connections, seeds, the
environment variable, and the live server that integration tests call over real HTTP."""

import time

import pytest
import requests

from hubsandbox import state, views
from hubsandbox.faults import (
    ConnectionDropped,
    Fault,
    FaultConfig,
    FaultInjector,
    active_injector,
    environment_injector,
    inject_faults,
)

from .hubclient import KO, error, ok


def test_parse_reads_every_option():
    config = FaultConfig.parse(
        "error_rate=0.3, error_status=500,throttle_rate=0.1,drop_rate=0.05,retry_after=4,"
        "latency_ms=20,latency_jitter_ms=5,seed=7,sequence=error|drop|ok"
    )
    assert config == FaultConfig(
        error_rate=0.3,
        error_status=500,
        throttle_rate=0.1,
        drop_rate=0.05,
        retry_after=4,
        latency_ms=20,
        latency_jitter_ms=5,
        seed=7,
        sequence=(Fault.ERROR, Fault.DROP, Fault.OK),
    )
    assert FaultConfig.parse("") == FaultConfig()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("error_rte=0.3", "unknown option 'error_rte'"),
        ("error_rate=lots", "error_rate:"),
        ("error_rate=0.7,drop_rate=0.5", "add up to at most 1"),
        ("throttle_rate=-0.1", "within 0..1"),
        ("error_status=404", "error_status must be one of 500"),
        ("sequence=error|boom", "sequence:"),
        ("latency_ms=-1", "must be >= 0"),
    ],
)
def test_parse_refuses_mistakes(text, problem):
    with pytest.raises(ValueError, match="HUB_SANDBOX_FAULTS") as raised:
        FaultConfig.parse(text)
    assert problem in str(raised.value)


def _statuses(hub, count):
    return [hub.get("/meta").status_code for _ in range(count)]


def test_error_share_follows_the_rate(hub):
    with inject_faults(error_rate=0.3, seed=11) as faults:
        statuses = _statuses(hub, 200)
    errors = statuses.count(503)
    assert errors == faults.counts[Fault.ERROR]
    assert statuses.count(200) == faults.counts[Fault.OK] == 200 - errors
    assert 40 <= errors <= 80  # 30 % of 200, within a wide margin


def test_same_seed_same_faults(hub):
    runs = []
    for _ in range(2):
        with inject_faults(error_rate=0.4, throttle_rate=0.2, seed=5):
            runs.append(_statuses(hub, 30))
    assert runs[0] == runs[1]
    assert {200, 429, 503} <= set(runs[0])
    with inject_faults(error_rate=0.4, throttle_rate=0.2, seed=6):
        assert _statuses(hub, 30) != runs[0]


def test_draws_are_reproducible_with_jitter():
    config = FaultConfig(error_rate=0.5, latency_ms=10, latency_jitter_ms=40, seed=3)
    first, second = FaultInjector(config), FaultInjector(config)
    draws = [first.draw() for _ in range(50)]
    assert draws == [second.draw() for _ in range(50)]
    assert all(0.010 <= draw.delay_seconds <= 0.050 for draw in draws)
    assert len({draw.delay_seconds for draw in draws}) > 1


def test_throttle_answers_429_with_retry_after(hub):
    with inject_faults(throttle_rate=1, retry_after=7):
        response = hub.get("/meta")
    assert error(response, 429) == "Too many requests (injected by the sandbox)"
    assert response["Retry-After"] == "7"


def test_errors_answer_the_configured_status(hub):
    with inject_faults(error_rate=1):
        response = hub.get("/meta")
    assert error(response, 503) == "Service Unavailable (injected by the sandbox)"
    assert response["Retry-After"] == "1"
    with inject_faults(error_rate=1, error_status=500):
        response = hub.get("/meta")
    assert error(response, 500) == "Internal Server Error (injected by the sandbox)"
    assert "Retry-After" not in response


def test_a_faulted_request_changes_nothing_and_is_logged(hub):
    with inject_faults(sequence=["error", "throttle"]):
        assert hub.post("/properties", {"id": "p1", "i18n": [KO]}).status_code == 503
        assert hub.post("/properties", {"id": "p1", "i18n": [KO]}).status_code == 429
        ok(hub.post("/properties", {"id": "p1", "i18n": [KO]}))
    assert [(entry.response_status, entry.fault) for entry in state.request_log()] == [
        (503, "error"),
        (429, "throttle"),
        (200, ""),
    ]
    assert state.list_resources("property") == [state.get_resource("property", "p1")]


def test_sequence_comes_first_then_the_rates(hub):
    with inject_faults(sequence=["error", "ok", "throttle"], error_rate=0):
        assert _statuses(hub, 5) == [503, 200, 429, 200, 200]


def test_faults_come_before_the_token_check(hub):
    with inject_faults(error_rate=1):
        assert hub.get("/meta", authorization="wrong").status_code == 503


def test_an_answer_leaves_the_latency_after_its_request_came_in(hub, monkeypatch):
    with inject_faults(latency_ms=60):
        started = time.monotonic()
        ok(hub.get("/meta"))
        elapsed = time.monotonic() - started
    assert elapsed >= 0.06
    assert state.request_log().get().duration_ms >= 60

    # The hub's own work is part of its answer time, not added to it: a hub answering after 250 ms whose
    # work takes 200 ms answers after about 250 ms, not 450.
    slow_catalog = views.catalog_tree
    monkeypatch.setattr(views, "catalog_tree", lambda: time.sleep(0.2) or slow_catalog())
    with inject_faults(latency_ms=250):
        started = time.monotonic()
        ok(hub.get("/meta"))
        elapsed = time.monotonic() - started
    assert 0.25 <= elapsed < 0.4


def test_drop_without_a_socket_raises_in_the_test_client(hub):
    with inject_faults(drop_rate=1), pytest.raises(ConnectionDropped):
        hub.post("/properties", {"id": "p1", "i18n": [KO]})
    entry = state.request_log().get()
    assert (entry.method, entry.path, entry.response_status, entry.fault) == (
        "POST",
        "/gds/vendor/properties",
        None,
        "drop",
    )
    assert state.list_resources("property") == []


def test_inject_faults_nests_and_restores(hub):
    healthy = active_injector()
    with inject_faults(error_rate=1) as outer:
        with inject_faults(throttle_rate=1) as inner:
            assert active_injector() is inner
            assert hub.get("/meta").status_code == 429
        assert active_injector() is outer
        assert hub.get("/meta").status_code == 503
    assert active_injector() is healthy
    ok(hub.get("/meta"))


@inject_faults(sequence=["throttle"])
def _meta_status_under_a_decorator(hub):
    return hub.get("/meta").status_code


def test_inject_faults_as_a_decorator(hub):
    assert _meta_status_under_a_decorator(hub) == 429
    assert _meta_status_under_a_decorator(hub) == 429  # each call starts the sequence afresh
    ok(hub.get("/meta"))


def test_environment_variable_configures_the_process(hub, monkeypatch):
    monkeypatch.setenv("HUB_SANDBOX_FAULTS", "error_rate=1,error_status=502,seed=1")
    assert error(hub.get("/meta"), 502)
    assert environment_injector().counts[Fault.ERROR] == 1
    with inject_faults():  # a test's own setting wins over the environment
        ok(hub.get("/meta"))
    monkeypatch.delenv("HUB_SANDBOX_FAULTS")
    ok(hub.get("/meta"))


@pytest.fixture
def live_hub(live_server, transactional_db, settings):
    """A requests session that calls the sandbox served by pytest-django's live server thread."""
    session = requests.Session()
    session.headers["Authorization"] = f"{settings.HUB_AUTH_SCHEME} {settings.HUB_API_TOKEN}".strip()
    base = f"{live_server.url}/sandbox/gds/vendor"
    with session:
        yield lambda method, path, **kwargs: session.request(method, base + path, timeout=5, **kwargs)


def test_live_server_drop_is_a_connection_error(live_hub):
    with inject_faults(sequence=["drop"]), pytest.raises(requests.ConnectionError):
        live_hub("POST", "/properties", json={"id": "p1"})
    # The server survives the drop; the same session carries on with a new connection.
    response = live_hub("POST", "/properties", json={"id": "p1", "i18n": [KO]})
    assert response.status_code == 200
    assert [(entry.response_status, entry.fault) for entry in state.request_log()] == [(None, "drop"), (200, "")]


def test_live_server_throttle_and_latency(live_hub):
    with inject_faults(sequence=["throttle"], retry_after=3, latency_ms=30):
        started = time.monotonic()
        response = live_hub("GET", "/meta")
        assert time.monotonic() - started >= 0.03
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "3"
    assert response.json() == {"message": "Too many requests (injected by the sandbox)"}
    assert live_hub("GET", "/meta").status_code == 200
