"""The rules of the test run itself: a process is started only by a test of a slow kind, which `pytest --fast`
leaves out (tests/conftest.py), and each pytest-xdist worker has Redis databases of its own (tests/settings.py)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.settings import REDIS_DATABASES, redis_workers_at_most, spread_redis_databases

PROBE = Path(__file__).parent / "marker_probe.py"
SERVICES = {"CELERY_BROKER_URL": "redis://127.0.0.1:6379/6", "CACHE_URL": "redis://127.0.0.1:6379/7"}


def test_an_unmarked_test_that_starts_a_process_fails_naming_the_marker():
    with pytest.raises(pytest.fail.Exception, match=r"@pytest\.mark\.subprocess"):
        subprocess.run([sys.executable, "-c", "pass"], check=True)


@pytest.mark.subprocess
def test_fast_leaves_out_the_tests_of_a_slow_kind():
    """This test starts a process, as a test marked subprocess may, to collect this file with --fast."""
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "--fast", __file__],
        capture_output=True,
        text=True,
        check=True,
    ).stdout

    assert "test_an_unmarked_test_that_starts_a_process_fails_naming_the_marker" in collected
    assert "test_fast_leaves_out_the_tests_of_a_slow_kind" not in collected
    assert "test_the_summary_counts_the_tests_of_each_service_with_or_without_xdist" not in collected


@pytest.mark.subprocess
@pytest.mark.parametrize("workers", ["0", "2"])
def test_the_summary_counts_the_tests_of_each_service_with_or_without_xdist(workers):
    environ = {key: value for key, value in os.environ.items() if key not in ("CELERY_BROKER_URL", "REQUIRE_SERVICES")}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", workers, str(PROBE)],
        capture_output=True,
        text=True,
        env=environ,
        check=True,
    ).stdout

    assert "redis: 0 passed, 0 failed, 1 skipped" in run


@pytest.mark.parametrize(("worker", "broker", "cache"), [("gw0", 6, 7), ("gw1", 8, 9), ("gw3", 12, 13)])
def test_each_worker_moves_the_broker_and_the_cache_to_databases_of_its_own(worker, broker, cache):
    environ = dict(SERVICES)

    spread_redis_databases(environ, worker)

    assert environ["CELERY_BROKER_URL"] == f"redis://127.0.0.1:6379/{broker}"
    assert environ["CACHE_URL"] == f"redis://127.0.0.1:6379/{cache}"


def test_databases_apart_move_by_their_whole_span():
    environ = {"CELERY_BROKER_URL": "redis://127.0.0.1:6379/0", "CACHE_URL": "redis://127.0.0.1:6379/2?timeout=1"}

    spread_redis_databases(environ, "gw1")

    assert environ["CELERY_BROKER_URL"] == "redis://127.0.0.1:6379/3"
    assert environ["CACHE_URL"] == "redis://127.0.0.1:6379/5?timeout=1"


def test_a_process_the_worker_starts_keeps_the_worker_s_databases():
    environ = dict(SERVICES)
    spread_redis_databases(environ, "gw1")
    inherited = dict(environ)

    spread_redis_databases(inherited, "gw1")

    assert inherited == environ


def test_without_xdist_nothing_moves():
    environ = dict(SERVICES)

    spread_redis_databases(environ, "")

    assert environ == SERVICES


def test_without_redis_nothing_moves():
    environ = {"CELERY_BROKER_URL": "memory://localhost/"}

    spread_redis_databases(environ, "gw2")

    assert environ["CELERY_BROKER_URL"] == "memory://localhost/"


@pytest.mark.parametrize(
    ("broker", "cache", "workers"),
    [(0, 1, 8), (12, 13, 2), (0, 2, 5), (14, 15, 1), (15, 15, 1)],
)
def test_no_more_workers_than_redis_has_databases_for(broker, cache, workers):
    environ = {"CELERY_BROKER_URL": f"redis://127.0.0.1:6379/{broker}", "CACHE_URL": f"redis://127.0.0.1:6379/{cache}"}

    assert redis_workers_at_most(environ) == workers
    last = dict(environ)
    spread_redis_databases(last, f"gw{workers - 1}")
    assert all(int(last[name].rsplit("/", 1)[1]) < REDIS_DATABASES for name in environ)


def test_without_redis_the_workers_are_xdist_s_own_count():
    assert redis_workers_at_most({"CELERY_BROKER_URL": "memory://localhost/", "CACHE_URL": "locmemcache://"}) is None


@pytest.mark.subprocess
@pytest.mark.parametrize(
    ("broker", "cache", "created"),
    [
        ("redis://127.0.0.1:6379/14", "redis://127.0.0.1:6379/15", "created: 1/1 worker"),
        ("memory://localhost/", "locmemcache://", "created: 4/4 workers"),
    ],
)
def test_n_auto_starts_no_more_workers_than_redis_has_databases_for(broker, cache, created):
    """xdist's own count (PYTEST_XDIST_AUTO_NUM_WORKERS: 4), capped by tests/conftest.py; no test runs."""
    environ = {**os.environ, "CELERY_BROKER_URL": broker, "CACHE_URL": cache, "PYTEST_XDIST_AUTO_NUM_WORKERS": "4"}
    environ.pop("TEST_REDIS_SPREAD_FOR", None)
    environ.pop("PYTEST_XDIST_WORKER", None)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "auto", "-k", "no_such_test", str(PROBE)],
        capture_output=True,
        text=True,
        env=environ,
        check=False,
    ).stdout

    assert created in run
