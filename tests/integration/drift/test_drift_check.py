"""The drift check against the sandbox over HTTP: drift found and repaired through the real queue,
the pace it reads at, and what it does when the hub answers 429."""

from datetime import timedelta

import pytest
from celery.exceptions import SoftTimeLimitExceeded

from core.models import Job
from hubsandbox.faults import inject_faults
from integration.drift.choices import DriftCheckStatus
from integration.drift.models import DriftCheck
from integration.drift.pacing import Pacer
from integration.drift.selectors import property_drift_status
from integration.drift.services import (
    RUN_TASK,
    drift_check_request,
    drift_check_run,
    drift_checks_run,
    drift_resend,
)
from integration.hub.client import get_hub_client
from integration.models import SyncAttempt
from integration.sync.services.outbox import sync_state_ensure
from tests.factories import RoomTypeFactory
from tests.hub_fixtures import all_synced, assert_hub_holds, wait_until

from .helpers import FakeClock, TimedClient, synced_content

pytestmark = pytest.mark.django_db(transaction=True)


def report(check):
    """The check's rows as (resource, field, ours, the hub's), "-" where a side lacks the field."""
    return {
        (
            row.resource,
            row.field,
            row.ours if row.ours_present else "-",
            row.hubs if row.hubs_present else "-",
        )
        for row in check.differences.all()
    }


def finished(check):
    check.refresh_from_db()
    return check.status in (DriftCheckStatus.DONE, DriftCheckStatus.FAILED)


def test_drift_changed_behind_our_back_is_found_and_repaired(worker, hub, settings, property_a):
    settings.HUB_DRIFT_RATE = 1000.0
    room_type, _standalone, package, (plan, package_plan) = synced_content(property_a)
    rid = room_type.vendor_id
    # Someone at the hub edits our copy, adds fields we never sent, and loses a rate plan.
    hub.alter_resource(
        "property",
        "prop-a",
        patch={"email": "hub@example.com", "website": "https://hub.example", "refunds": {"3d": 50}},
    )
    hub.alter_resource("roomtype", "prop-a", rid, patch={"i18n": [{"locale": "ko-KR", "name": "허브가 바꾼 이름"}]})
    hub.alter_resource(
        "rateplan_model",
        "prop-a",
        package.vendor_id,
        patch={"meals": {"breakfast": False, "lunch": False, "dinner": False}, "sale_to": "2027-01-31"},
    )
    hub.alter_resource("rateplan", "prop-a", rid, plan.vendor_id, patch={"status": "disabled"})
    hub.forget_resource("rateplan", "prop-a", rid, package_plan.vendor_id)

    check = drift_check_request(property=property_a)
    wait_until(lambda: finished(check), message="the drift check")
    assert check.status == DriftCheckStatus.DONE, check.error
    assert check.resources_checked == 6
    assert report(check) == {
        ("prop-a", "email", "front@example.com", "hub@example.com"),
        ("prop-a", "website", "-", "https://hub.example"),
        ("prop-a", "refunds.3d", "-", 50),
        (f"prop-a/{rid}", "i18n[ko-KR].name", f"{room_type.name} (ko)", "허브가 바꾼 이름"),
        (f"prop-a/{package.vendor_id}", "meals.breakfast", True, False),
        (f"prop-a/{package.vendor_id}", "sale_to", "-", "2027-01-31"),
        (f"prop-a/{rid}/{plan.vendor_id}", "status", "enabled", "disabled"),
        (f"prop-a/{rid}/{package_plan.vendor_id}", "", None, "-"),
    }
    status = property_drift_status(property_a)
    assert (status.checked_at, status.differences, status.failed) == (check.finished_at, 8, False)

    # Ours wins: the five resources go out again through the outbox, the queue and the attempt log.
    attempts_before = SyncAttempt.objects.count()
    assert drift_resend(check=check) == 5
    wait_until(all_synced, message="the re-sends")
    for obj in (property_a, room_type, package, plan, package_plan):
        assert_hub_holds(obj)
    assert hub.get_resource("property", "prop-a")["refunds"] == {}  # a map is cleared by sending it empty
    assert "sale_to" not in hub.get_resource("rateplan_model", "prop-a", package.vendor_id)  # null, nullable
    # A URI cannot be cleared at the hub (decision 0004): it keeps its value.
    assert hub.get_resource("property", "prop-a")["website"] == "https://hub.example"
    sent = SyncAttempt.objects.order_by("pk")[attempts_before:]
    assert sorted((a.method, a.path.rsplit("/", 1)[-1]) for a in sent) == sorted(
        [
            ("PATCH", "prop-a"),
            ("PATCH", rid),
            ("PATCH", package.vendor_id),
            ("PATCH", plan.vendor_id),
            ("POST", "rateplans"),
        ]
    )
    property_patch = next(a.request_body for a in sent if a.path.endswith("/prop-a"))
    assert "website" not in property_patch  # never null: the spec does not let a URI be cleared
    assert (property_patch["email"], property_patch["refunds"]) == ("front@example.com", {})
    model_patch = next(a.request_body for a in sent if a.path.endswith(f"/{package.vendor_id}"))
    assert model_patch["sale_to"] is None
    assert property_drift_status(property_a).differences == 0

    again = drift_check_request(property=property_a)
    wait_until(lambda: finished(again), message="the second drift check")
    assert (again.status, again.difference_count) == (DriftCheckStatus.DONE, 1)
    assert report(again) == {("prop-a", "website", "-", "https://hub.example")}  # what the hub keeps


def test_reads_are_paced_at_the_configured_rate_across_checks(hub, property_a, property_b, metric):
    synced_content(property_a)
    synced_content(property_b)
    hub.request_log().delete()
    clock = FakeClock()
    client = TimedClient(get_hub_client(), clock)
    pacer = Pacer(rate=4.0, max_tries=3, max_wait=60, backoff_base=0.5, clock=clock, sleep=clock.sleep)
    for prop in (property_a, property_b):
        DriftCheck.objects.create(property=prop)
    done = metric("vendorhub_drift_checks_total", outcome="done")

    assert drift_checks_run(client=client, pacer=pacer) == 2
    assert metric("vendorhub_drift_checks_total", outcome="done") == done + 2

    # Twelve reads (six per property), one every quarter second, the second check included.
    assert client.times == [i * 0.25 for i in range(12)]
    assert clock.sleeps == [0.25] * 11
    assert hub.request_log(method="GET").count() == 12
    assert hub.request_log().exclude(method="GET").count() == 0
    assert set(DriftCheck.objects.values_list("status", "difference_count")) == {(DriftCheckStatus.DONE, 0)}


def test_429_waits_for_retry_after_then_goes_on(hub, property_a):
    room_type, *_ = synced_content(property_a)
    hub.alter_resource("roomtype", "prop-a", room_type.vendor_id, patch={"max_capacity": 9})
    hub.request_log().delete()
    clock = FakeClock()
    client = TimedClient(get_hub_client(), clock)
    pacer = Pacer(rate=4.0, max_tries=5, max_wait=60, backoff_base=0.5, clock=clock, sleep=clock.sleep)
    check = DriftCheck.objects.create(property=property_a)

    with inject_faults(sequence=("throttle", "throttle"), retry_after=7) as faults:
        drift_check_run(check=check, client=client, pacer=pacer)

    assert faults.counts["throttle"] == 2
    # The first read is refused twice; each time the check waits the hub's 7 s, then goes on at its pace.
    assert client.times[:4] == [0.0, 7.0, 14.0, 14.25]
    assert clock.sleeps[:3] == [7.0, 7.0, 0.25]
    statuses = list(hub.request_log().values_list("response_status", flat=True))
    assert statuses == [429, 429] + [200] * 6
    check.refresh_from_db()
    assert check.status == DriftCheckStatus.DONE
    assert report(check) == {(f"prop-a/{room_type.vendor_id}", "max_capacity", 4, 9)}


def test_a_retry_after_longer_than_a_check_waits_stops_the_check(hub, property_a):
    synced_content(property_a)
    hub.request_log().delete()
    clock = FakeClock()
    pacer = Pacer(rate=4.0, max_tries=5, max_wait=60, backoff_base=0.5, clock=clock, sleep=clock.sleep)
    check = DriftCheck.objects.create(property=property_a)

    with inject_faults(sequence=("throttle",), retry_after=600):
        drift_check_run(check=check, client=get_hub_client(), pacer=pacer)

    check.refresh_from_db()
    assert check.status == DriftCheckStatus.FAILED
    assert "600" in check.error
    assert hub.request_log().count() == 1  # it did not go on reading
    assert clock.sleeps == []
    status = property_drift_status(property_a)
    assert status.failed
    assert status.error == check.error


def test_a_hub_that_stays_busy_fails_the_check_after_the_last_try(hub, property_a):
    synced_content(property_a)
    hub.request_log().delete()
    clock = FakeClock()
    pacer = Pacer(rate=4.0, max_tries=3, max_wait=60, backoff_base=0.5, clock=clock, sleep=clock.sleep)
    check = DriftCheck.objects.create(property=property_a)

    with inject_faults(throttle_rate=1.0, retry_after=2):
        drift_check_run(check=check, client=get_hub_client(), pacer=pacer)

    check.refresh_from_db()
    assert check.status == DriftCheckStatus.FAILED
    assert "3" in check.error
    assert hub.request_log().count() == 3
    assert clock.sleeps == [2.0, 2.0]


def test_resources_the_hub_never_acknowledged_are_not_read(hub, property_a):
    synced_content(property_a)
    sync_state_ensure(RoomTypeFactory(property=property_a, vendor_id="not-sent-yet"))
    DriftCheck.objects.create(property=property_a)
    hub.request_log().delete()
    clock = FakeClock()
    pacer = Pacer(rate=100, max_tries=1, max_wait=1, backoff_base=1, clock=clock, sleep=clock.sleep)

    assert drift_checks_run(client=get_hub_client(), pacer=pacer) == 1

    paths = list(hub.request_log().values_list("path", flat=True))
    assert len(paths) == 6
    assert not [path for path in paths if "not-sent-yet" in path]


def test_a_runner_past_its_budget_starts_no_check_and_queues_a_runner_for_the_rest(hub, property_a, property_b):
    """So that one run stays within its task's time limit, however many properties the weekly run queued."""
    synced_content(property_a)
    synced_content(property_b)
    clock = FakeClock()
    pacer = Pacer(rate=4.0, max_tries=3, max_wait=60, backoff_base=0.5, clock=clock, sleep=clock.sleep)
    for prop in (property_a, property_b):
        DriftCheck.objects.create(property=prop)

    assert drift_checks_run(client=get_hub_client(), pacer=pacer, budget=timedelta(0)) == 1

    assert DriftCheck.objects.filter(status=DriftCheckStatus.QUEUED).count() == 1
    assert list(Job.objects.values_list("task", flat=True)) == [RUN_TASK]


def test_a_check_cut_at_its_soft_time_limit_fails_saying_so(hub, property_a):
    synced_content(property_a)

    class TooSlow:
        def call(self, endpoint, **kwargs):
            raise SoftTimeLimitExceeded()

    check = DriftCheck.objects.create(property=property_a)
    drift_check_run(check=check, client=TooSlow(), pacer=Pacer(rate=100.0, max_tries=1, max_wait=0, backoff_base=0))

    check.refresh_from_db()
    assert check.status == DriftCheckStatus.FAILED
    assert check.error == "The check took longer than a run may: run it again."
