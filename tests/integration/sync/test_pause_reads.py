"""Issue 41: while distribution is paused the hub is not read either. The scheduled reads skip their run
(one line in the log; the next run after the resume does the work), and what staff ask for (a drift check,
a reconciliation, a refresh) is refused saying that distribution is paused and since when."""

import logging

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import formats, timezone

from bookings.settlement import tasks as settlement_tasks
from bookings.settlement.choices import RunStatus
from bookings.settlement.services import reconciliation_request, reconciliation_run
from core.dates import korea_today
from integration.access.choices import MembershipRole
from integration.ari import tasks as ari_tasks
from integration.catalog import tasks as catalog_tasks
from integration.channels import tasks as channels_tasks
from integration.channels.services import (
    property_channels_queue_refresh,
    property_channels_refresh_for_booking,
    sales_channels_queue_refresh,
)
from integration.drift import tasks as drift_tasks
from integration.drift.choices import DriftCheckStatus
from integration.drift.models import DriftCheck
from integration.drift.services import drift_check_request, drift_checks_run
from integration.hub.selectors import hub_paused_refusal
from integration.sync.services.outbox import sync_mark_changed
from integration.sync.services.pause import hub_distribution_pause, hub_distribution_resume
from licenses import tasks as licenses_tasks
from licenses.services import license_requests_queue_refresh
from tests.bookings.settlement.test_settlement import reconcile
from tests.factories import member

pytestmark = pytest.mark.django_db

#: Each scheduled read of the hub in beat's schedule: its task, and the name (in the task's module) of
#: what it calls that reads the hub.
SCHEDULED_READS = [
    (catalog_tasks, "catalog_refresh_task", "catalog_refresh"),
    (channels_tasks, "sales_channels_refresh_task", "sales_channels_refresh"),
    (channels_tasks, "property_channels_refresh_requested_task", "property_channels_refresh_requested"),
    (licenses_tasks, "license_requests_refresh_open_task", "license_requests_refresh_open"),
    (drift_tasks, "drift_checks_weekly_task", "drift_checks_request_all"),
    (settlement_tasks, "reconciliations_nightly_task", "reconciliations_nightly"),
]


@pytest.mark.parametrize(("module", "task", "reads"), SCHEDULED_READS, ids=[t for _m, t, _r in SCHEDULED_READS])
def test_a_scheduled_read_of_the_hub_skips_while_paused_and_runs_after_the_resume(
    module, task, reads, monkeypatch, caplog, superuser, property_a
):
    calls = []

    def read(*args, **kwargs):
        calls.append(args)
        return 0

    monkeypatch.setattr(module, reads, read)
    hub_distribution_pause(user=superuser)

    with caplog.at_level(logging.INFO, logger="integration.hub.selectors"):
        getattr(module, task)()

    assert calls == []
    skipped = [record.getMessage() for record in caplog.records if "skipped" in record.getMessage()]
    assert len(skipped) == 1
    assert "paused since" in skipped[0]

    hub_distribution_resume(user=superuser)
    getattr(module, task)()
    assert calls  # the next run reads the hub as usual


@pytest.mark.parametrize(
    ("task", "queues"),
    [
        ("ari_cutoffs_push_task", "cutoff_push"),
        ("ari_lead_days_nightly_task", "lead_days_push"),
        ("ari_horizon_nightly_task", "horizon_open_property"),
        ("ari_horizon_check_nightly_task", "horizon_check_property"),
    ],
)
def test_the_scheduled_jobs_that_only_queue_availability_still_run_while_paused(
    task, queues, monkeypatch, superuser, property_a
):
    """They compare what we hold and queue availability for the hub (it waits, pending): none reads the hub."""
    calls = []

    def queue(*args, **kwargs):
        calls.append(args)
        return 0

    monkeypatch.setattr(ari_tasks, queues, queue)
    monkeypatch.setattr(ari_tasks, "cutoffs_due", lambda: [1])
    hub_distribution_pause(user=superuser)

    getattr(ari_tasks, task)()

    assert calls


def test_what_staff_ask_of_the_hub_while_paused_is_refused_saying_since_when(superuser, property_a):
    assert hub_paused_refusal() is None
    connection = hub_distribution_pause(user=superuser)
    refusal = hub_paused_refusal()
    assert refusal is not None
    assert formats.localize(timezone.localtime(connection.paused_at)) in refusal

    asks = [
        lambda: drift_check_request(property=property_a, user=superuser),
        lambda: sales_channels_queue_refresh(),
        lambda: property_channels_queue_refresh(property=property_a),
        lambda: license_requests_queue_refresh(property_ids=[property_a.pk]),
    ]
    for ask in asks:
        with pytest.raises(ValidationError) as refused:
            ask()
        assert refused.value.messages == [refusal]
    assert not DriftCheck.objects.exists()


def test_a_reconciliation_asked_while_paused_is_refused(superuser, property_a):
    manager = member(property_a, MembershipRole.MANAGER)
    hub_distribution_pause(user=superuser)
    today = korea_today()
    with pytest.raises(ValidationError) as refused:
        reconciliation_request(user=manager, properties=[property_a], basis="checkin", date_from=today, date_to=today)
    assert refused.value.messages == [hub_paused_refusal()]


def test_a_booking_decided_on_a_closed_channel_does_not_read_the_hub_while_paused(monkeypatch, superuser, property_a):
    from integration.channels import services

    monkeypatch.setattr(services, "property_channels_refresh", lambda **kwargs: pytest.fail("the hub was read"))
    hub_distribution_pause(user=superuser)
    assert property_channels_refresh_for_booking(property=property_a, status=None) is False


@pytest.mark.django_db(transaction=True)
def test_a_drift_check_queued_before_the_pause_fails_saying_so_without_reading_the_hub(hub, superuser, property_a):
    check = drift_check_request(property=property_a)
    hub_distribution_pause(user=superuser)
    requests = hub.request_log().count()

    assert drift_checks_run() == 1

    check.refresh_from_db()
    assert (check.status, check.error) == (DriftCheckStatus.FAILED, hub_paused_refusal())
    assert hub.request_log().count() == requests


@pytest.mark.django_db(transaction=True)
def test_a_reconciliation_queued_before_the_pause_fails_saying_so_without_reading_the_hub(hub, superuser, property_a):
    reconciliation = reconcile(property_a, basis="checkin")
    hub_distribution_pause(user=superuser)
    requests = hub.request_log().count()

    reconciliation_run(reconciliation_id=reconciliation.pk)

    reconciliation.refresh_from_db()
    assert (reconciliation.status, reconciliation.error) == (RunStatus.FAILED, hub_paused_refusal())
    assert hub.request_log().count() == requests


def test_the_drift_check_screen_says_that_distribution_is_paused(client, superuser, property_a):
    hub_distribution_pause(user=superuser)
    client.force_login(superuser)
    response = client.post(reverse("admin:integration_driftcheck_check"), {"property": property_a.pk})
    assert response.status_code == 200
    assert hub_paused_refusal() in response.content.decode()
    assert not DriftCheck.objects.exists()


@pytest.mark.parametrize(
    ("language", "waits", "queued"),
    [
        ("ko", "전송이 재개되기를 기다립니다.", "전송 대기열에 있습니다."),
        ("en", "Waits for distribution to resume.", "Queued to be sent."),
    ],
)
def test_the_health_page_says_a_pending_change_waits_for_the_resume(
    client, superuser, property_a, language, waits, queued
):
    with transaction.atomic():
        sync_mark_changed(property_a)
    client.force_login(superuser)
    health = reverse("admin:integration_property_health", args=[property_a.pk])
    assert queued in client.get(health, HTTP_ACCEPT_LANGUAGE=language).content.decode()

    hub_distribution_pause(user=superuser)

    html = client.get(health, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert waits in html
    assert queued not in html


@pytest.mark.parametrize(
    ("language", "pause_box", "resume_box"),
    [
        ("ko", "전송을 재개할 때까지 허브로 아무것도 보내지 않으며", "대기하던 모든 내용을 지금 허브로 보냅니다."),
        (
            "en",
            "nothing is sent to the hub until distribution resumes",
            "everything that waited is sent to the hub now.",
        ),
    ],
)
def test_the_resume_form_says_what_resuming_does_not_what_pausing_does(
    client, superuser, language, pause_box, resume_box
):
    client.force_login(superuser)
    page = reverse("admin:integration_hubswitch_distribution")
    html = client.get(page, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert pause_box in html
    assert resume_box not in html

    hub_distribution_pause(user=superuser)

    html = client.get(page, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert resume_box in html
    assert pause_box not in html
