"""The superuser's chart of the last 24 hours (config/dashboard.py): sends to the hub by hour and outcome,
the backlog against the health check's limit, the vendor API's answers by code; shown to superusers only."""

from datetime import timedelta

import pytest
from django.utils import timezone

from bookings.models import InboundCall
from config.dashboard import CHART_HEIGHT, activity_last_day
from integration.models import SyncAttempt, SyncState
from integration.sync.services.outbox import sync_state_ensure
from tests.factories import PropertyFactory, UserFactory, member

pytestmark = pytest.mark.django_db


def activity_data(now):
    """41 sends ok, 5 retried, 2 failed over the day (most in the last hour), one 25 hours ago (not
    counted); a change waiting 12 minutes; the vendor API's answers: 30 ok, 4 of 3000, 1 of 4004."""
    prop = PropertyFactory()
    state = sync_state_ensure(prop)
    SyncState.objects.filter(pk=state.pk).update(pending_since=now - timedelta(minutes=12))
    for hours_ago, outcome, count in [
        (0, "success", 30),
        (0, "retry", 5),
        (3, "success", 11),
        (5, "failed", 2),
        (25, "success", 9),
    ]:
        for _ in range(count):
            attempt = SyncAttempt.objects.create(
                state=state, property=prop, method="PATCH", path="/p", outcome=outcome, duration_ms=5
            )
            SyncAttempt.objects.filter(pk=attempt.pk).update(created_at=now - timedelta(hours=hours_ago))
    for code, count in [("", 30), ("3000", 4), ("4004", 1)]:
        for _ in range(count):
            InboundCall.objects.create(method="POST", path="/bookings", status=200, duration_ms=3, code=code)


def test_the_chart_counts_the_last_24_hours_by_hour_outcome_and_code():
    now = timezone.now()
    activity_data(now)

    activity = activity_last_day(now)

    assert activity.sends == {"success": "41", "retry": "5", "failed": "2"}
    assert len(activity.columns) == 24
    last = activity.columns[-1]
    assert [part["css"] for part in last["parts"]] == ["sends-ok", "sends-retried"]
    assert sum(part["height"] for part in last["parts"]) == pytest.approx(CHART_HEIGHT)  # the busiest hour
    assert [part["css"] for part in activity.columns[-6]["parts"]] == ["sends-failed"]
    assert [(bar.label, bar.number) for bar in activity.answers] == [
        ("Answered", "30"),
        ("3000 Bad input", "4"),
        ("4004 Booking not found", "1"),
    ]
    change, job = activity.backlog
    assert change.css == "backlog-late"
    assert change.number == "12 minutes"
    assert job.css == "backlog-ok"


def test_superusers_see_it_and_others_do_not(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert "activity-hours" in client.get("/admin/").content.decode()

    client.force_login(member(PropertyFactory(), "manager"))
    assert "activity-hours" not in client.get("/admin/").content.decode()
