"""A sender holds its row for one hub call at a time, under its worker's name; a worker started again
under that name frees what its previous life held and queues it at once."""

from datetime import timedelta

import pytest
from celery.signals import worker_ready
from django.utils import timezone

from config.celery import app as celery_app
from core.background import jobs
from core.background import queue as core_queue
from core.background.broker import broker_lost_messages
from integration.hub.client import get_hub_client
from integration.models import SyncState
from integration.sync.choices import SyncStatus
from integration.sync.services import outbox
from integration.sync.services.sender import lease_duration, sync_send
from tests.factories import PropertyFactory, hub_content

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_lease_is_one_hub_call_long_and_the_sweeper_takes_over_within_about_a_minute(settings):
    settings.HUB_CONNECT_TIMEOUT, settings.HUB_READ_TIMEOUT = 5, 30
    assert lease_duration() == timedelta(seconds=45)
    sweeper = settings.CELERY_BEAT_SCHEDULE["hub-sync-sweeper"]["schedule"]
    assert lease_duration().total_seconds() + sweeper <= 60
    # What a dead worker reserved without starting it (a send waiting out its coalescing countdown, a job)
    # is queued again within 30 s of its queueing: a killed worker's drain goal.
    for grace, sweep in ((outbox.QUEUE_GRACE, sweeper), (jobs.QUEUE_GRACE, settings.SWEEP_SECONDS)):
        assert grace.total_seconds() + sweep <= 30


def test_both_sweepers_run_often_enough_to_notice_a_redis_back_empty_or_a_healed_hub_within_30_seconds(settings):
    # A sweep notices the fault, then the sends and jobs it queues run: the sweep may take a third at most.
    for name in ("hub-sync-sweeper", "job-sweeper"):
        assert settings.CELERY_BEAT_SCHEDULE[name]["schedule"] <= 10, name
    # A probe goes out within PROBE_AFTER and a sweep of a healed hub's first failed retry.
    assert outbox.PROBE_AFTER.total_seconds() + settings.CELERY_BEAT_SCHEDULE["hub-sync-sweeper"]["schedule"] <= 15


def test_each_hub_call_holds_the_row_under_the_workers_name_and_renews_the_lease(hub):
    prop = PropertyFactory(vendor_id="leased")
    room_type, *_ = hub_content(prop)
    state = outbox.sync_state_ensure(room_type)
    # The property is unknown to the hub: sending it is one call; the room type after it another.
    client, seen = get_hub_client(), []

    class Watching:
        def call(self, endpoint, **kwargs):
            seen.append(SyncState.objects.values_list("lease_owner", "lease_until").get(pk=state.pk))
            return client.call(endpoint, **kwargs)

    sync_send(outbox.sync_state_ensure(prop).pk, schedule=False, client=client)
    sync_send(state.pk, schedule=False, client=Watching(), owner="celery@worker-1")

    assert [owner for owner, _until in seen] == ["celery@worker-1"]
    assert seen[0][1] > timezone.now() + lease_duration() - timedelta(seconds=10)
    assert SyncState.objects.values_list("status", "lease_owner", "lease_until").get(pk=state.pk) == (
        SyncStatus.SYNCED,
        None,
        None,
    )


def test_a_worker_starting_again_frees_its_previous_lifes_rows_and_queues_them(monkeypatch):
    published = []
    monkeypatch.setattr(core_queue, "publish", lambda task_name, args, **options: published.append(args[0]))
    later = timezone.now() + timedelta(minutes=1)
    sent, synced, others = (outbox.sync_state_ensure(PropertyFactory()) for _ in range(3))
    SyncState.objects.filter(pk=synced.pk).update(status=SyncStatus.SYNCED)
    SyncState.objects.filter(pk__in=[sent.pk, synced.pk]).update(lease_owner="celery@worker-1", lease_until=later)
    SyncState.objects.filter(pk=others.pk).update(lease_owner="celery@worker-2", lease_until=later)

    class Consumer:  # what Celery sends worker_ready with
        hostname = "celery@worker-1"

    worker_ready.send(sender=Consumer())

    assert published == [sent.pk]
    leases = dict(SyncState.objects.values_list("pk", "lease_owner"))
    assert leases == {sent.pk: None, synced.pk: None, others.pk: "celery@worker-2"}
    assert SyncState.objects.get(pk=others.pk).lease_until == later


def test_the_sweeper_leaves_a_draining_backlog_alone_and_queues_what_the_broker_no_longer_holds():
    """A resync of thousands of rows drains for longer than QUEUE_GRACE: the rows whose messages still wait
    in the broker's queue (the last queued, as many as it holds) are not queued a second time; an older
    one, whose message the broker no longer holds, is (the real broker of the run: memory, Redis in CI)."""
    rows = [outbox.sync_state_ensure(PropertyFactory(vendor_id=f"backlog-{n}")) for n in range(4)]
    long_ago = timezone.now() - outbox.QUEUE_GRACE * 5
    for n, state in enumerate(rows):  # queued one a grace apart, all before the grace, the first long before
        SyncState.objects.filter(pk=state.pk).update(queued_at=long_ago + outbox.QUEUE_GRACE * n)
    celery_app.control.purge()
    broker_lost_messages("hub-sync")  # seen before: nothing was lost since (a Redis restarted empty is not)
    # The messages of the three last rows still wait (a message of another hub task counts as one of them).
    for state in rows[2:]:
        assert core_queue.publish(outbox.SEND_TASK, (state.pk,))
    assert core_queue.publish("integration.sync.tasks.sync_resume_publish_task")
    try:
        assert outbox.sync_sweep() == 1
        assert SyncState.objects.get(pk=rows[0].pk).queued_at > long_ago + outbox.QUEUE_GRACE * 4
        assert [SyncState.objects.get(pk=state.pk).queued_at for state in rows[1:]] == [
            long_ago + outbox.QUEUE_GRACE * n for n in (1, 2, 3)
        ]

        # The queue is empty: the three still marked queued long ago were lost (the first was just queued).
        celery_app.control.purge()
        assert outbox.sync_sweep() == 3
    finally:
        celery_app.control.purge()
