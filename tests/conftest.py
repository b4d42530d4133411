"""Shared fixtures, and the rules for tests that need real services or a browser.

Tests marked postgres, redis or browser are skipped, with the reason, when the service is missing,
and fail instead under REQUIRE_SERVICES=1 (postgres, redis) or REQUIRE_BROWSER=1 (browser), as CI sets.
The slow kinds (SLOW_MARKERS) are what `pytest --fast` (`make test-fast`) leaves out; a test that starts a
process without one of them fails, so that the fast run stays fast.
"""

import os
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.utils import translation
from xdist import plugin as xdist_plugin

from core.background import queue as core_queue
from tests.factories import PropertyFactory, UserFactory, member
from tests.login import Client
from tests.queued import drain_queue
from tests.settings import redis_workers_at_most

pytest_plugins = ["tests.hub_fixtures"]

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
_SERVICE_MARKERS = ("postgres", "redis", "browser", "journey")
#: The kinds of test that take seconds each: `pytest --fast` leaves them out.
SLOW_MARKERS = ("browser", "subprocess", "schemathesis", "journey")
_outcomes = {marker: Counter() for marker in _SERVICE_MARKERS}


def unavailable(reason, *, required_by):
    """Skip the test, or fail it when the environment variable required_by is 1."""
    if os.environ.get(required_by) == "1":
        pytest.fail(f"{reason} ({required_by}=1 requires it)", pytrace=False)
    pytest.skip(reason)


def redis_available():
    """Whether the configured broker is a Redis server that answers."""
    if not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        return False
    import redis

    try:
        return redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_connect_timeout=1).ping()
    except redis.RedisError:
        return False


@pytest.fixture(autouse=True)
def _english_outside_requests():
    """Code a test calls directly speaks English, so messages can be asserted in English; requests still
    choose their language as they do for users (Korean by default)."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _broker_not_paused():
    """Each test starts with a broker this process may publish to (core.background.queue pauses after a refusal)."""
    core_queue._broker_paused_until = 0.0


@pytest.fixture(autouse=True)
def _vendor_api_rate_limits_fresh():
    """Every test's calls from the test client's address start uncounted by the vendor API's rate limits
    (the counts live in the cache, which outlives a test)."""
    from django.core.cache import cache

    cache.delete_many([f"throttle_{scope}_127.0.0.1" for scope in ("vendor_api", "vendor_api_refused")])


@pytest.fixture(autouse=True)
def _require_marked_services(request):
    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        unavailable("needs PostgreSQL: set DATABASE_URL=postgres://...", required_by="REQUIRE_SERVICES")
    if request.node.get_closest_marker("redis") and not redis_available():
        unavailable("needs Redis: set CELERY_BROKER_URL=redis://...", required_by="REQUIRE_SERVICES")


def slow(item):
    """Whether the test is of a slow kind (SLOW_MARKERS)."""
    return any(item.get_closest_marker(marker) for marker in SLOW_MARKERS)


@pytest.fixture(autouse=True)
def _processes_only_when_marked(request, monkeypatch):
    """Starting a process (subprocess.run, Popen) is for tests of a slow kind: in any other, it fails."""
    if slow(request.node):
        return

    def refused(*args, **kwargs):
        pytest.fail("this test starts a process: mark it @pytest.mark.subprocess", pytrace=False)

    monkeypatch.setattr(subprocess, "Popen", refused)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config):
    """-n auto: pytest-xdist's own count, but no more workers than Redis's databases hold, each worker taking
    databases of its own (tests.settings); on a machine of many cores the rest would name none."""
    at_most = redis_workers_at_most(os.environ)
    if at_most is None:
        return None
    return min(xdist_plugin.pytest_xdist_auto_num_workers(config), at_most)


def pytest_addoption(parser):
    parser.addoption("--fast", action="store_true", help=f"leave out the slow kinds of test: {', '.join(SLOW_MARKERS)}")


def pytest_collection_modifyitems(config, items):
    if config.getoption("fast"):
        config.hook.pytest_deselected(items=[item for item in items if slow(item)])
        items[:] = [item for item in items if not slow(item)]
    for item in items:
        # In the report, which reaches the process that prints the summary (pytest-xdist's controller
        # collects nothing itself).
        item.user_properties.append(
            ("service_markers", [marker for marker in _SERVICE_MARKERS if item.get_closest_marker(marker)])
        )


def pytest_runtest_logreport(report):
    if report.when == "call" or (report.when == "setup" and not report.passed):
        for marker in dict(report.user_properties).get("service_markers", []):
            _outcomes[marker][report.outcome] += 1


def pytest_terminal_summary(terminalreporter):
    terminalreporter.section("tests that need services or a browser")
    for marker, counts in _outcomes.items():
        terminalreporter.write_line(
            f"{marker}: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped"
        )


@pytest.fixture
def empty_queues():
    """The broker's queues emptied for a test that reads them (tests.queued): on Redis, messages an earlier
    test of the same xdist worker left behind would otherwise be taken for this test's."""
    drain_queue()


@pytest.fixture
def client():
    """pytest-django's client, whose logins pass the second factor where the user needs one (tests.login)."""
    return Client()


@pytest.fixture
def admin_client(db, admin_user):
    """pytest-django's admin_client, with the second factor passed (tests.login)."""
    client = Client()
    client.force_login(admin_user)
    return client


@pytest.fixture
def property_a(db):
    return PropertyFactory(name="Property A", vendor_id="prop-a")


@pytest.fixture
def property_b(db):
    return PropertyFactory(name="Property B", vendor_id="prop-b")


@pytest.fixture
def staff_a(property_a):
    """A staff member of property A only."""
    return member(property_a, "staff")


@pytest.fixture
def manager_a(property_a):
    """A manager of property A only."""
    return member(property_a, "manager")


@pytest.fixture
def superuser(db):
    return UserFactory(is_staff=True, is_superuser=True)


@pytest.fixture
def metric(settings):
    """Metrics on (core.metrics); metric(name, **labels) reads a value this process recorded (0 before the
    first). pytest's process keeps them in memory: the files of several processes are tests/config/test_metrics.py's."""
    from prometheus_client import REGISTRY

    settings.METRICS_ENABLED = True
    return lambda name, **labels: REGISTRY.get_sample_value(name, labels) or 0.0
