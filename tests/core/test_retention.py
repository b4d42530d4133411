"""The logs that grow with every call are kept for their days, then deleted a batch at a time."""

import datetime

import pytest
from django.utils import timezone

from bookings.models import InboundCall
from core.background import retention
from integration.models import SyncAttempt
from integration.sync.services.outbox import sync_state_ensure
from integration.sync.tasks import sync_attempts_purge_task
from tests.factories import PropertyFactory

pytestmark = pytest.mark.django_db


def aged(model, days, **fields):
    row = model.objects.create(**fields)
    model.objects.filter(pk=row.pk).update(created_at=timezone.now() - datetime.timedelta(days=days))
    return row


def test_rows_older_than_the_days_go_a_batch_at_a_time_and_zero_days_keeps_all(monkeypatch):
    monkeypatch.setattr(retention, "BATCH", 2)
    calls = {"method": "GET", "path": "/refund-policy", "status": 200, "duration_ms": 1}
    old = [aged(InboundCall, 11, **calls) for _ in range(5)]
    kept = aged(InboundCall, 9, **calls)

    assert retention.purge_older_than(InboundCall.objects.all(), days=0) == 0
    assert InboundCall.objects.count() == len(old) + 1

    assert retention.purge_older_than(InboundCall.objects.all(), days=10) == 5
    assert list(InboundCall.objects.values_list("pk", flat=True)) == [kept.pk]


def test_the_daily_task_deletes_sync_attempts_older_than_hub_sync_log_days(settings):
    settings.HUB_SYNC_LOG_DAYS = 90
    prop = PropertyFactory()
    state = sync_state_ensure(prop)
    attempt = {"state": state, "property": prop, "method": "POST", "path": "/x", "outcome": "success", "duration_ms": 3}
    aged(SyncAttempt, 91, **attempt)
    recent = aged(SyncAttempt, 89, **attempt)

    sync_attempts_purge_task()

    assert list(SyncAttempt.objects.values_list("pk", flat=True)) == [recent.pk]
    entry = settings.CELERY_BEAT_SCHEDULE["hub-sync-log-purge"]
    assert entry["task"] == sync_attempts_purge_task.name
