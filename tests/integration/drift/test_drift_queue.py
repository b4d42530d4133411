"""Queueing drift checks (on demand and weekly), the status other screens show, and what is kept."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from config.celery import app as celery_app
from integration.drift.choices import DriftCheckStatus
from integration.drift.models import DriftCheck
from integration.drift.pacing import Pacer
from integration.drift.selectors import DriftStatus, property_drift_status
from integration.drift.services import (
    CHECKS_KEPT,
    drift_check_request,
    drift_check_run,
    drift_checks_request_all,
    runner_lock_seconds,
)
from integration.hub.client import HubResponse
from integration.sync.models import SyncState
from integration.sync.services.outbox import sync_state_ensure

pytestmark = pytest.mark.django_db


def test_the_weekly_run_queues_one_check_per_property_once(property_a, property_b):
    entry = settings.CELERY_BEAT_SCHEDULE["hub-drift-check"]
    assert entry["schedule"] == 7 * 24 * 60 * 60
    assert entry["task"] in celery_app.tasks

    assert drift_checks_request_all() == 2
    assert drift_checks_request_all() == 2  # still waiting: not queued twice
    assert sorted(DriftCheck.objects.values_list("property__vendor_id", "status")) == [
        ("prop-a", DriftCheckStatus.QUEUED),
        ("prop-b", DriftCheckStatus.QUEUED),
    ]


def test_drift_status_of_a_property(property_a, staff_a):
    assert property_drift_status(property_a) == DriftStatus(None, 0, False, "", False, None)

    check = drift_check_request(property=property_a, user=staff_a)
    assert check.requested_by == staff_a
    assert drift_check_request(property=property_a) == check  # asking again while it waits
    assert property_drift_status(property_a).running is True
    assert property_drift_status(property_a).checked_at is None

    finished_at = timezone.now()
    DriftCheck.objects.filter(pk=check.pk).update(
        status=DriftCheckStatus.FAILED, finished_at=finished_at, error="The hub could not be read: down"
    )
    status = property_drift_status(property_a)
    assert (status.checked_at, status.failed, status.running, status.check_id) == (finished_at, True, False, check.pk)


def test_a_check_left_running_by_a_dead_runner_does_not_block_the_next(property_a):
    stale = DriftCheck.objects.create(
        property=property_a,
        status=DriftCheckStatus.RUNNING,
        started_at=timezone.now() - timedelta(seconds=runner_lock_seconds() + 1),
    )
    fresh = drift_check_request(property=property_a)
    assert fresh != stale
    stale.refresh_from_db()
    assert stale.status == DriftCheckStatus.FAILED
    assert "Interrupted" in stale.error


def test_only_the_newest_checks_are_kept(property_a, property_b):
    other = DriftCheck.objects.create(property=property_b, status=DriftCheckStatus.DONE, finished_at=timezone.now())
    checks = [DriftCheck.objects.create(property=property_a) for _ in range(CHECKS_KEPT + 2)]
    for check in checks:
        DriftCheck.objects.filter(pk=check.pk).update(status=DriftCheckStatus.RUNNING)
        drift_check_run(check=check, client=None, pacer=None)  # nothing acknowledged: nothing to read
    kept = list(DriftCheck.objects.filter(property=property_a).order_by("pk"))
    assert kept == checks[-CHECKS_KEPT:]
    assert DriftCheck.objects.filter(pk=other.pk).exists()


def test_a_rate_of_zero_is_refused():
    with pytest.raises(ValueError, match="HUB_DRIFT_RATE"):
        Pacer(rate=0, max_tries=1, max_wait=1, backoff_base=1)


class ListAnsweringHub:
    """A hub that answers 200 with a JSON array where the spec promises an object."""

    def call(self, endpoint, **kwargs):
        return HubResponse(status=200, data=[1, 2], duration_ms=1)


def test_an_answer_that_is_not_an_object_stops_the_check_with_a_clear_reason(property_a):
    state = sync_state_ensure(property_a)
    SyncState.objects.filter(pk=state.pk).update(known_to_hub=True, acked_body={"id": "prop-a"})
    check = DriftCheck.objects.create(property=property_a, status=DriftCheckStatus.RUNNING)

    pacer = Pacer(rate=10, max_tries=1, max_wait=1, backoff_base=1)
    drift_check_run(check=check, client=ListAnsweringHub(), pacer=pacer)

    check.refresh_from_db()
    assert check.status == DriftCheckStatus.FAILED
    assert check.error == "The hub could not be read: prop-a: the hub answered something other than a JSON object."
