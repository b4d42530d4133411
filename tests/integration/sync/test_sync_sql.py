"""The sync engine's plain SQL (integration.sync.sql), each statement run on the database of the run (SQLite,
or PostgreSQL with DATABASE_URL): what it changes on the outbox row and what it returns."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from integration.hub.environments import HubEnvironment
from integration.models import SyncState
from integration.sync import sql
from integration.sync.choices import SyncStatus
from integration.sync.services.outbox import sync_state_ensure
from tests.factories import PropertyFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def row():
    return sync_state_ensure(PropertyFactory())


def test_a_bump_raises_the_version_makes_the_row_pending_and_claims_the_send_once(row):
    SyncState.objects.filter(pk=row.pk).update(status=SyncStatus.SYNCED, failures=3, pending_since=None)
    now = timezone.now()

    assert sql.state_bump(row.pk, now=now, stale=now - timedelta(seconds=15)) is True
    assert sql.state_bump(row.pk, now=now + timedelta(seconds=1), stale=now - timedelta(seconds=14)) is False

    row.refresh_from_db()
    assert (row.version, row.status, row.failures) == (3, SyncStatus.PENDING, 0)
    assert (row.queued_at, row.pending_since) == (now, now)


def test_the_bump_statement_runs_on_the_rows_its_condition_names(row):
    other = sync_state_ensure(PropertyFactory())
    now = timezone.now()
    statement, params = sql.state_bump_statement("object_id = %s", [row.object_id], now=now, stale=now)
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        assert [tuple(found) for found in cursor.fetchall()] == [(row.pk, True)]
    assert SyncState.objects.get(pk=other.pk).version == 1


def test_queueing_marks_the_selected_rows_and_returns_their_ids(row):
    other = sync_state_ensure(PropertyFactory())
    now = timezone.now()
    select, params = SyncState.objects.filter(pk=row.pk).values("pk").query.sql_with_params()

    assert sql.states_queued(select, params, now=now) == [row.pk]

    assert SyncState.objects.get(pk=row.pk).queued_at == now
    assert SyncState.objects.get(pk=other.pk).queued_at is None


def test_queueing_retries_brings_forward_only_rows_still_waiting_for_one(row):
    waiting = sync_state_ensure(PropertyFactory())
    now = timezone.now()
    SyncState.objects.filter(pk=waiting.pk).update(next_attempt_at=now + timedelta(minutes=5))
    select, params = SyncState.objects.values("pk").query.sql_with_params()

    assert sql.states_queued(select, params, now=now, retried=True) == [waiting.pk]

    waiting.refresh_from_db()
    assert (waiting.next_attempt_at, waiting.queued_at) == (None, now)
    assert SyncState.objects.get(pk=row.pk).queued_at is None


def test_a_claim_leases_a_free_row_and_reads_it_back_and_another_sender_gets_nothing(row):
    now = timezone.now()
    SyncState.objects.filter(pk=row.pk).update(queued_at=now)

    claimed = sql.state_claim(row.pk, owner="worker-a", task="task-1", now=now, until=now + timedelta(seconds=45))

    assert (claimed.pk, claimed.kind, claimed.lease_owner, claimed.queued_at) == (row.pk, row.kind, "worker-a", None)
    assert claimed.lease_until == now + timedelta(seconds=45)
    assert sql.state_claim(row.pk, owner="worker-b", task="task-2", now=now, until=now) is None
    # The same task (retried after it lost the database) takes its lease back.
    assert sql.state_claim(row.pk, owner="worker-a", task="task-1", now=now, until=now).pk == row.pk


def test_a_release_frees_the_lease_and_says_whether_the_row_changed_meanwhile(row):
    now = timezone.now()
    sql.state_claim(row.pk, owner="worker-a", task=None, now=now, until=now + timedelta(seconds=45))

    assert sql.state_release(row.pk) is True  # pending, version 1 > sent version 0
    SyncState.objects.filter(pk=row.pk).update(sent_version=1)
    assert sql.state_release(row.pk) is False

    row.refresh_from_db()
    assert (row.lease_until, row.lease_owner, row.lease_task) == (None, None, None)


def test_marking_synced_keeps_a_row_changed_meanwhile_pending_and_skips_a_row_moved_to_another_hub(row):
    now = timezone.now()
    body = {"name": "Stay"}

    assert sql.state_synced(row, version=1, body=body, now=now) == 1
    row.refresh_from_db()
    assert (row.status, row.acked_body, row.known_to_hub, row.sent_version) == (SyncStatus.SYNCED, body, True, 1)
    assert (row.pending_since, row.last_synced_at) == (None, now)

    SyncState.objects.filter(pk=row.pk).update(version=3, status=SyncStatus.PENDING, pending_since=now)
    assert sql.state_synced(row, version=2, body=body, now=now) == 1
    row.refresh_from_db()
    assert (row.status, row.sent_version, row.pending_since) == (SyncStatus.PENDING, 2, now)

    row.environment = HubEnvironment.PRODUCTION
    assert sql.state_synced(row, version=3, body=body, now=now) == 0


def test_the_urgent_row_next_is_the_oldest_change_queued_free_and_not_the_senders_own(row):
    now = timezone.now()
    rows = [sync_state_ensure(PropertyFactory()) for _n in range(4)]
    urgent = {"urgent": True, "status": SyncStatus.PENDING, "queued_at": now}
    for n, state in enumerate(rows):
        SyncState.objects.filter(pk=state.pk).update(**urgent, pending_since=now - timedelta(minutes=10 - n))
    not_urgent = {**urgent, "urgent": False}
    SyncState.objects.filter(pk=row.pk).update(**not_urgent, pending_since=now - timedelta(hours=1))
    SyncState.objects.filter(pk=rows[0].pk).update(lease_until=now + timedelta(seconds=30))  # being sent
    SyncState.objects.filter(pk=rows[1].pk).update(next_attempt_at=now + timedelta(seconds=30))  # backing off

    assert sql.state_urgent_next(row.pk, now=now) == rows[2].pk
    assert sql.state_urgent_next(rows[2].pk, now=now) == rows[3].pk  # not the sender's own
    SyncState.objects.filter(pk=rows[0].pk).update(lease_until=now - timedelta(seconds=1))  # expired lease
    assert sql.state_urgent_next(row.pk, now=now) == rows[0].pk
    SyncState.objects.filter(pk__in=[r.pk for r in rows]).update(queued_at=None)  # taken: none waits
    assert sql.state_urgent_next(row.pk, now=now) is None


def test_the_parents_known_to_the_hub_are_read_by_kind_and_object(row):
    other = sync_state_ensure(PropertyFactory())
    SyncState.objects.filter(pk=row.pk).update(known_to_hub=True)

    pairs = [(row.kind, row.object_id), (other.kind, other.object_id), ("roomtype", row.object_id)]
    assert sql.states_known_to_hub(pairs) == {(row.kind, row.object_id)}
    assert sql.states_known_to_hub([]) == set()
