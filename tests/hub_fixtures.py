"""Fixtures for tests that drive the real path: service -> outbox -> Celery -> HTTP -> sandbox (a pytest plugin)."""

import threading
import time

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun, task_prerun
from celery.worker import state as worker_state
from django.core.servers.basehttp import WSGIRequestHandler
from django.db import connection

from config.celery import app as celery_app
from core.background.broker import broker_lost_messages
from hubsandbox import state as hub_state
from integration.content.resources import path_params
from integration.models import SyncState
from integration.sync.choices import SyncStatus
from integration.sync.resources import KIND_OF_MODEL, RESOURCES

# Django's test server answers in two writes; with Nagle's algorithm and delayed ACKs each request
# then waits about 40 ms. The hub tests make many requests: send small packets at once.
WSGIRequestHandler.disable_nagle_algorithm = True


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
def production_hub(live_server, settings, hub):
    """The sandbox's production hub (its own prefix, token and state: hubsandbox/hubs.py) configured as
    the production environment; the staging one is `hub`."""
    settings.HUB_PRODUCTION_BASE_URL = f"{live_server.url}/sandbox/production"
    settings.HUB_PRODUCTION_API_TOKEN = "production-token"
    return hub


@pytest.fixture
def fast_sync(settings):
    """Short coalescing and retry delays, so that tests of the real queue finish quickly."""
    settings.HUB_SYNC_COALESCE_SECONDS = 0.3
    settings.HUB_SYNC_BACKOFF_BASE = 0.05
    settings.HUB_SYNC_BACKOFF_CAP = 0.5


@pytest.fixture(scope="module")
def celery_worker_thread(django_db_setup, django_db_blocker):
    """A real Celery worker (in a thread) consuming the configured broker: memory, or Redis in CI.
    Started once per module: it reads the settings of the running test when a task arrives. The test
    database exists before it starts (its start-up frees its leases there), even when the module's
    first test asks for it first."""
    celery_app.control.purge()
    # The worker thread's database connection is closed after each task, so that none is left open
    # between tests or when the test database is dropped.
    task_postrun.connect(_close_connection)
    task_prerun.connect(_running.started)
    task_postrun.connect(_running.ended)
    try:
        with (
            django_db_blocker.unblock(),
            start_worker(celery_app, pool="solo", perform_ping_check=False, loglevel="WARNING", shutdown_timeout=30),
        ):
            yield
    finally:
        task_postrun.disconnect(_close_connection)
        task_prerun.disconnect(_running.started)
        task_postrun.disconnect(_running.ended)


class _Running:
    """How many tasks the worker thread is running (0 or 1: its pool is solo)."""

    def __init__(self):
        self.count = 0
        self.lock = threading.Lock()

    def started(self, **kwargs):
        with self.lock:
            self.count += 1

    def ended(self, **kwargs):
        with self.lock:
            self.count = max(0, self.count - 1)


_running = _Running()


@pytest.fixture
def worker(celery_worker_thread, hub, fast_sync):
    """The worker, with an empty queue and an empty hub for this test; at its end nothing of the test's is
    left in the worker (worker_quieted), so that no task holds rows when the test's database is emptied (a
    task taking row locks then deadlocked the flush) or runs into the next test."""
    celery_app.control.purge()
    # The sweeper has seen this broker before, as in a running system: what the purge removed was no
    # Redis restarted empty (whose first sweep queues every pending row). Without it, the first sweep in a
    # Redis database (each xdist worker has its own) took the test's queued send for a lost one.
    broker_lost_messages("hub-sync")
    yield
    worker_quieted()


def worker_quieted():
    """The worker thread left with nothing of the test's: its tasks held for a countdown revoked (the
    worker is shared by the module: they would run in a later test), its queue purged, and its running task
    (and what that queued) ended, waiting at most 10 s."""
    deadline, idle = time.monotonic() + 10, 0
    while idle < 3 and time.monotonic() < deadline:
        celery_app.control.purge()  # what the running task queued meanwhile
        for request in list(worker_state.scheduled_requests):
            worker_state.revoked.add(request.id)  # Celery's own check discards it when its countdown ends
        idle = 0 if _running.count else idle + 1
        time.sleep(0.05)


def _close_connection(**kwargs):
    connection.close()


def hub_ids(obj):
    """The ids of obj's hub path, in order, as hubsandbox.state addresses resources."""
    params = path_params(obj)
    return [params[key] for key in ("pid", "rid", "mid", "rpid") if key in params]


def assert_hub_holds(obj):
    """The sandbox holds exactly our current body of obj (every field we send, with the same value)."""
    kind = KIND_OF_MODEL[type(obj)]
    resource = RESOURCES[kind]
    body = resource.body(resource.load(obj.pk))
    held = hub_state.get_resource(kind, *hub_ids(obj))
    assert held is not None, f"the hub does not know {obj}"
    assert {key: held.get(key) for key in body} == body


def all_synced():
    return not SyncState.objects.exclude(status=SyncStatus.SYNCED).exists()


@pytest.fixture
def hub_budget(settings):
    """The hub request budgets (decision 0022) start unspent: on Redis a budget outlives its test by a minute;
    in the database the test's flush empties it."""
    if settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        import redis

        client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
        for key in client.scan_iter("vendorhub:hub-budget:*"):
            client.delete(key)
    return settings
