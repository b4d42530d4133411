"""The tests' worker thread is shared by a module's tests: what one test leaves in it must not run in the next
(tests/hub_fixtures.py, worker_quieted)."""

import time

import pytest
from celery.worker import state as worker_state

from hubsandbox import state as hub_state
from integration.models import SyncState
from integration.sync.choices import SyncStatus
from integration.sync.services.outbox import sync_queue, sync_state_ensure
from tests.factories import PropertyFactory
from tests.hub_fixtures import worker_quieted

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_send_held_for_a_countdown_when_the_test_ends_never_runs(worker):
    prop = PropertyFactory(vendor_id="held")
    row = sync_state_ensure(prop)
    sync_queue(row.pk, countdown=1, force=True)
    deadline = time.monotonic() + 10
    while not worker_state.scheduled_requests and time.monotonic() < deadline:
        time.sleep(0.02)
    assert worker_state.scheduled_requests, "the worker never held the send"

    worker_quieted()
    time.sleep(2)  # past the countdown

    assert SyncState.objects.get(pk=row.pk).status == SyncStatus.PENDING
    assert hub_state.get_resource("property", prop.vendor_id) is None
