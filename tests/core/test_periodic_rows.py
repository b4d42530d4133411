"""The periodic tasks that work through rows (the purges, the sync sweeper, the license review refresh)
go on past a row that fails: it is logged with its pk and left for the next run, the task does not fail."""

import datetime
import logging

import pytest
from django.db import DatabaseError
from django.db.models import QuerySet
from django.utils import timezone

from bookings.models import InboundCall
from bookings.tasks import inbound_calls_purge_task
from core.background import queue as core_queue
from core.background import retention
from integration.models import SyncState
from integration.sync.services import outbox
from integration.sync.tasks import sync_sweeper_task
from licenses import services as license_services
from licenses.tasks import license_requests_refresh_open_task
from tests.factories import PropertyFactory
from tests.licenses.factories import LicenseRequestFactory

pytestmark = pytest.mark.django_db

CALL = {"method": "GET", "path": "/refund-policy", "status": 200, "duration_ms": 1}


def test_a_row_that_cannot_be_deleted_is_logged_and_the_rest_are_purged(settings, monkeypatch, caplog):
    settings.VENDOR_API_CALL_LOG_DAYS = 10
    monkeypatch.setattr(retention, "BATCH", 2)
    old = [InboundCall.objects.create(**CALL) for _ in range(5)]
    kept = InboundCall.objects.create(**CALL)
    InboundCall.objects.exclude(pk=kept.pk).update(created_at=timezone.now() - datetime.timedelta(days=11))
    stuck = old[2]
    delete = QuerySet.delete

    def delete_unless_stuck(queryset):
        if queryset.model is InboundCall and queryset.filter(pk=stuck.pk).exists():
            raise DatabaseError("this row cannot be deleted")
        return delete(queryset)

    monkeypatch.setattr(QuerySet, "delete", delete_unless_stuck)
    with caplog.at_level(logging.WARNING):
        inbound_calls_purge_task()

    assert sorted(InboundCall.objects.values_list("pk", flat=True)) == [stuck.pk, kept.pk]
    assert f"purge of bookings.InboundCall: row {stuck.pk} failed" in caplog.text
    assert "this row cannot be deleted" in caplog.text


def test_the_sweeper_queues_the_other_rows_when_one_fails(monkeypatch, caplog, django_capture_on_commit_callbacks):
    states = [outbox.sync_state_ensure(PropertyFactory()) for _ in range(3)]
    stuck = states[1]
    queue = outbox.sync_queue
    published = []

    def queue_unless_stuck(state_id, **kwargs):
        if state_id == stuck.pk:
            raise DatabaseError("this row cannot be queued")
        return queue(state_id, **kwargs)

    monkeypatch.setattr(outbox, "sync_queue", queue_unless_stuck)
    monkeypatch.setattr(core_queue, "publish", lambda task_name, args, **options: published.append(args[0]))
    with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
        sync_sweeper_task()

    assert sorted(published) == sorted([states[0].pk, states[2].pk])
    assert SyncState.objects.get(pk=stuck.pk).queued_at is None
    assert f"hub sync sweeper: row {stuck.pk} failed" in caplog.text


def test_the_license_refresh_goes_on_past_a_property_that_fails(monkeypatch, caplog):
    failing, working = (LicenseRequestFactory(hub_id=hub_id).property for hub_id in (101, 102))
    refreshed = []

    def refresh(*, property, client):
        if property == failing:
            raise ValueError("the hub's answer for this property cannot be read")
        refreshed.append(property)
        return 1

    monkeypatch.setattr(license_services, "license_requests_refresh", refresh)
    monkeypatch.setattr(license_services, "get_hub_client", lambda: None)
    with caplog.at_level(logging.ERROR):
        license_requests_refresh_open_task()

    assert refreshed == [working]
    assert f"license review refresh of a property: row {failing.pk} failed" in caplog.text
