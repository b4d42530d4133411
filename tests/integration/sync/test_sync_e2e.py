"""End to end: an admin change -> outbox -> Celery task -> HTTP -> sandbox, with a real worker."""

import pytest
from celery.signals import task_postrun
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError

from config.celery import app as celery_app
from core.background import queue as core_queue
from hubsandbox.faults import inject_faults
from integration.content.services import content_saved
from integration.models import Property, RatePlan, RatePlanModel, RoomType, SyncAttempt, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.services import outbox, sender
from integration.sync.services.outbox import sync_sweep
from tests.admin_forms import changeform_data
from tests.database_faults import lose_the_connection
from tests.factories import PropertyFactory, RoomTypeFactory, hub_content, korean, member
from tests.hub_fixtures import all_synced, assert_hub_holds, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def admin_save(client, url, **fields):
    """Open an admin add or change page and submit it with fields changed; returns the response."""
    response = client.post(url, changeform_data(client.get(url), **fields))
    assert response.status_code == 302, response.context and [
        response.context["adminform"].form.errors,
        [inline.formset.errors for inline in response.context["inline_admin_formsets"]],
        [inline.formset.non_form_errors() for inline in response.context["inline_admin_formsets"]],
    ]
    return response


def test_admin_changes_reach_the_hub_for_every_resource_type(worker, client):
    manager = member(PropertyFactory(), "manager")
    client.force_login(manager)

    admin_save(
        client,
        reverse("admin:integration_property_add"),
        vendor_id="hanok-1",
        name="Hanok",
        email="stay@example.com",
        **{
            "translations-0-name": "한옥",
            "translations-1-name": "Hanok",
            "photos-0-url": "https://img.example.com/front.jpg",
            "photos-0-order": "0",
        },
    )
    prop = Property.objects.get(vendor_id="hanok-1")
    admin_save(
        client,
        reverse("admin:integration_roomtype_add"),
        property=prop.pk,
        vendor_id="ondol",
        name="Ondol",
        min_stay="1",
        max_stay="7",
        standard_capacity="2",
        max_capacity="3",
        **{"translations-0-name": "온돌"},
    )
    admin_save(
        client,
        reverse("admin:integration_rateplanmodel_add"),
        property=prop.pk,
        vendor_id="base",
        name="Base",
        type="standalone",
        **{"translations-0-name": "기본"},
    )
    room_type, model = RoomType.objects.get(vendor_id="ondol"), RatePlanModel.objects.get(vendor_id="base")
    admin_save(
        client,
        reverse("admin:integration_rateplan_add"),
        room_type=room_type.pk,
        model=model.pk,
        vendor_id="ondol-base",
    )

    wait_until(all_synced, message="every resource synced")
    for obj in (prop, room_type, model, RatePlan.objects.get(vendor_id="ondol-base")):
        assert_hub_holds(obj)
    assert SyncAttempt.objects.filter(method="POST").earliest("id").path == "/gds/vendor/properties"

    # A change in the admin reaches the hub as a PATCH of what changed.
    admin_save(client, reverse("admin:integration_roomtype_change", args=[room_type.pk]), max_capacity="4")
    wait_until(lambda: all_synced() and SyncAttempt.objects.filter(method="PATCH").exists(), message="the patch")
    assert SyncAttempt.objects.get(method="PATCH").request_body == {"max_capacity": 4}
    assert_hub_holds(room_type)


def test_ten_quick_edits_make_one_request(worker, settings):
    settings.HUB_SYNC_COALESCE_SECONDS = 1.5
    prop = PropertyFactory(vendor_id="busy")
    korean(prop)
    with transaction.atomic():
        content_saved(obj=prop, created=True, user=member(prop, "manager"))
    wait_until(all_synced, message="the first send")

    for n in range(10):
        with transaction.atomic():
            prop.name = f"Busy {n}"
            prop.extra_adult_price = 1000 * (n + 1)
            prop.save()
            content_saved(obj=prop, created=False, user=prop.memberships.get().user)

    wait_until(lambda: all_synced() and SyncAttempt.objects.filter(method="PATCH").exists(), message="the edits")
    patches = SyncAttempt.objects.filter(method="PATCH")
    assert patches.count() == 1
    assert patches.get().request_body == {"settings": {"extra_adult_price": 10000}}
    assert_hub_holds(prop)


def test_with_30_percent_injected_failures_every_change_arrives(worker):
    prop = PropertyFactory(vendor_id="flaky")
    korean(prop)
    room_types = [RoomTypeFactory(property=prop, vendor_id=f"room-{n}") for n in range(10)]
    for room_type in room_types:
        korean(room_type)

    with inject_faults(error_rate=0.1, throttle_rate=0.1, drop_rate=0.1, retry_after=0, seed=30) as faults:
        with transaction.atomic():
            for obj in (prop, *room_types):
                outbox.sync_mark_changed(obj)
        wait_until(all_synced, timeout=60, message="every room type through the faults")

    assert sum(faults.counts.values()) > 11  # faults were met and got over
    assert SyncAttempt.objects.filter(outcome=SyncAttempt.Outcome.RETRY).exists()
    for obj in (prop, *room_types):
        assert_hub_holds(obj)


def test_a_crash_between_commit_and_enqueue_is_recovered_by_the_sweeper(worker, monkeypatch):
    prop = PropertyFactory(vendor_id="lost")
    korean(prop)
    # The process dies after the commit, before the message reaches the broker.
    monkeypatch.setattr(core_queue, "publish", lambda task_name, args, **options: True)
    with transaction.atomic():
        outbox.sync_mark_changed(prop)
    monkeypatch.undo()

    state = SyncState.objects.get()
    assert state.status == SyncStatus.PENDING
    assert sync_sweep() == 0  # not yet: the queued send is given time to start

    SyncState.objects.update(queued_at=timezone.now() - outbox.QUEUE_GRACE * 2)
    assert sync_sweep() == 1
    wait_until(all_synced, message="the swept send")
    assert_hub_holds(prop)


@pytest.mark.postgres
def test_a_send_that_loses_the_database_is_retried_at_once_and_takes_its_lease_back(worker, monkeypatch):
    prop = PropertyFactory(vendor_id="restarted")
    korean(prop)
    lost = []
    mark_synced = sender.state_synced

    def database_restarted_once(*args, **kwargs):
        # After the hub took the body, before the row says so: the row is leased and cannot be released.
        if not lost:
            lost.append(True)
            lose_the_connection()
        return mark_synced(*args, **kwargs)

    monkeypatch.setattr(sender, "state_synced", database_restarted_once)
    with transaction.atomic():
        outbox.sync_mark_changed(prop)

    # Well within the lease (sender.lease_duration), which no sweep frees in this test.
    wait_until(all_synced, timeout=20, message="the send's retry")
    assert lost
    assert_hub_holds(prop)


def test_a_hub_down_for_long_fails_nothing_and_once_it_answers_every_waiting_row_is_sent(worker, settings):
    settings.HUB_SYNC_BACKOFF_BASE = settings.HUB_SYNC_BACKOFF_CAP = 3600  # only a probe brings a row forward
    props = [PropertyFactory(vendor_id=f"outage-{n}") for n in range(3)]
    with inject_faults(error_rate=1.0):
        with transaction.atomic():
            for prop in props:
                korean(prop)
                outbox.sync_mark_changed(prop)
        wait_until(
            lambda: SyncState.objects.filter(next_attempt_at__isnull=False).count() == len(props),
            message="every send failed once",
        )
        # As after hours of outage: more failures in a row than any limit, waiting for the hub, not failed.
        SyncState.objects.update(failures=50)
        assert sync_sweep() == 1  # one probe while the hub fails...
        wait_until(lambda: SyncState.objects.filter(failures=51).exists(), message="the probe's failure")
        assert not SyncState.objects.filter(status=SyncStatus.FAILED).exists()

    assert sync_sweep() == 1  # ...and one once it answers again: its success queues the others at once
    wait_until(all_synced, timeout=20, message="every waiting row after the probe")
    for prop in props:
        assert_hub_holds(prop)


def test_a_send_left_by_a_killed_worker_is_sent_after_its_lease_expires(worker):
    prop = PropertyFactory(vendor_id="killed")
    korean(prop)
    state = outbox.sync_state_ensure(prop)
    # What a worker killed mid-request leaves: the row leased, its message gone.
    long_ago = timezone.now() - outbox.QUEUE_GRACE * 2
    SyncState.objects.filter(pk=state.pk).update(lease_until=timezone.now() + outbox.QUEUE_GRACE, queued_at=long_ago)
    assert sync_sweep() == 0  # the lease may still be someone's

    SyncState.objects.filter(pk=state.pk).update(lease_until=long_ago)
    assert sync_sweep() == 1
    wait_until(all_synced, message="the send after the lease")
    assert_hub_holds(prop)


def test_a_broker_outage_loses_no_change_and_shows_no_error(worker, client, monkeypatch):
    manager = member(PropertyFactory(vendor_id="outage"), "manager")
    prop = manager.property_memberships.get().property
    korean(prop)
    client.force_login(manager)

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(celery_app, "send_task", broker_down)
    admin_save(client, reverse("admin:integration_property_change", args=[prop.pk]), name="Outage")
    monkeypatch.undo()

    # Pending, and marked not queued: the sweeper's next run sends it, without waiting for QUEUE_GRACE.
    assert SyncState.objects.values_list("status", "queued_at").get() == (SyncStatus.PENDING, None)
    core_queue._broker_paused_until = 0.0  # the broker is back (this process waits no longer)
    assert sync_sweep() == 1  # as beat runs it once the broker is back
    wait_until(all_synced, message="the send after the outage")
    assert_hub_holds(prop)


def test_the_worker_acknowledges_late_and_gives_messages_back_when_killed():
    """Messages are acknowledged after the task ran and requeued when a pool process dies; on Redis, no ack
    emulation (the rows and sweepers bring a dead worker's work back, and kombu's restore of unacked
    messages kills a worker when Redis goes away: tests/journey)."""
    conf = celery_app.conf
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    if conf.broker_url.startswith("redis"):
        assert conf.broker_transport_options["ack_emulation"] is False


def test_hub_content_fixture_syncs_in_parent_order(worker):
    prop = PropertyFactory(vendor_id="ordered")
    room_type, standalone, package, plans = hub_content(prop)
    tasks_run = []

    def count(task_id, **kwargs):
        tasks_run.append(task_id)

    task_postrun.connect(count, weak=False)
    with transaction.atomic():
        # Children first, on purpose: they wait for their parents.
        for obj in (*plans, package, standalone, room_type, prop):
            outbox.sync_mark_changed(obj)

    wait_until(all_synced, message="the whole property")
    task_postrun.disconnect(count)
    # Each waiting child is queued again once, by the parent the hub learnt of last; not by every one.
    assert len(tasks_run) <= 2 * 6
    posts = SyncAttempt.objects.filter(method="POST", status_code=200).order_by("id")
    created = [(attempt.state.kind, attempt.state.object_id) for attempt in posts.select_related("state")]

    def position(obj):
        kind = outbox.KIND_OF_MODEL[type(obj)]
        return created.index((kind, obj.pk))

    # Each created after what it waits for: its property, room type and model, and the standalone model.
    assert position(prop) == 0
    assert position(standalone) < position(package)
    for plan in plans:
        assert max(position(room_type), position(plan.model), position(standalone)) < position(plan)
    for obj in (prop, room_type, standalone, package, *plans):
        assert_hub_holds(obj)
