"""On Redis, the pause of distribution through real processes as in production (Procfile: a Celery worker and
beat against the live test server's sandbox): while paused, a rate change and a booking's availability
reach the worker and beat's sweeper and nothing reaches the hub; the resume sends the availability ahead of
the rates (issue 41, "the pause switch works in the running system")."""

import time

import pytest
from django.db import transaction

from integration.ari.services.edits import Operation
from integration.ari.services.inventory import inventory_hold
from integration.models import SyncState
from integration.sync.choices import SyncStatus
from integration.sync.models import ResourceKind
from integration.sync.services.pause import hub_distribution_pause, hub_distribution_resume
from tests.hub_fixtures import wait_until
from tests.integration.sync.test_distribution import DAYS, content, day, edit  # noqa: F401 (fixture)
from tests.integration.sync.test_killed_worker import processes  # noqa: F401 (fixture)

pytestmark = [
    pytest.mark.subprocess,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]

#: Longer than beat's sweeper interval (SWEEP_SECONDS), so that a sweep runs while paused.
HELD_SECONDS = 8


def settled():
    return not SyncState.objects.exclude(status=SyncStatus.SYNCED).exists()


def test_the_pause_holds_the_worker_and_beat_and_the_resume_sends_availability_first(
    processes,  # noqa: F811
    content,  # noqa: F811
    hub,
    superuser,
):
    room_type, (standalone, _package) = content
    processes.worker("pause@%h")
    wait_until(settled, message="the content at the hub")
    hub_distribution_pause(user=superuser)
    before = hub.request_log().count()

    edit(ranges=DAYS, operation=Operation.SET, value=90000, rate_plans=(standalone,))
    with transaction.atomic():
        inventory_hold(room_type=room_type, dates=[day(2)])  # a booking, accepted while paused
    time.sleep(HELD_SECONDS)

    assert hub.request_log().count() == before
    waiting = SyncState.objects.filter(kind__in=[ResourceKind.ARI_RATES, ResourceKind.ARI_AVAILS], status="pending")
    assert {(state.kind, state.failures) for state in waiting} == {
        (ResourceKind.ARI_RATES, 0),
        (ResourceKind.ARI_AVAILS, 0),
    }

    hub_distribution_resume(user=superuser)
    wait_until(settled, message="what waited at the hub after the resume")

    sent = [request.path for request in hub.request_log()[before:]]
    avails = next(i for i, path in enumerate(sent) if path.endswith("/ari/avails"))
    rates = next(i for i, path in enumerate(sent) if path.endswith("/ari"))
    assert avails < rates, sent
    held = room_type.days.get(date=day(2)).available
    assert hub.avails_of("hanok", room_type.vendor_id)[day(2)] == held
