"""Fixtures for tests that drive the real path: service -> outbox -> Celery -> HTTP -> sandbox."""

import time

import pytest
from celery.contrib.testing.worker import start_worker

from config.celery import app as celery_app
from hubsandbox import state as hub_state


def wait_until(condition, *, timeout=30.0, interval=0.05, message="condition"):
    """Poll condition() until it is true; fail after timeout seconds (a bound, not a speed goal)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {message}")


@pytest.fixture
def hub(live_server, settings):
    """The sandbox, served over real HTTP by the live server, as the hub; empty at the start."""
    settings.HUB_BASE_URL = f"{live_server.url}/sandbox"
    hub_state.reset()
    return hub_state


@pytest.fixture
def fast_sync(settings):
    """Short coalescing and retry delays, so that tests of the real queue finish quickly."""
    settings.HUB_SYNC_COALESCE_SECONDS = 0.3
    settings.HUB_SYNC_BACKOFF_BASE = 0.05
    settings.HUB_SYNC_BACKOFF_CAP = 0.5


@pytest.fixture
def worker(hub, fast_sync):
    """A real Celery worker (in a thread) consuming the configured broker: memory, or Redis in CI."""
    celery_app.control.purge()
    with start_worker(celery_app, pool="solo", perform_ping_check=False, loglevel="WARNING", shutdown_timeout=30):
        yield
