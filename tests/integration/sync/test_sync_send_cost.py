"""What one send costs does not grow with its property: a resource reaching the hub for the first time
queues the rows that wait for it in one statement, and only its own children, not the property's whole
next level (which made a property's resync quadratic and queued rows still waiting for another parent).
And a switch of hub leaves the queueing of its sends to a job, parents first."""

import datetime

import pytest
from celery import current_app
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from integration.content.choices import RatePlanType
from integration.hub.environments import HubEnvironment
from integration.models import ResourceKind, SyncState
from integration.sync.resources import RESOURCES
from integration.sync.services.batch import sync_states_ensure_all
from integration.sync.services.outbox import QUEUE_GRACE, SEND_TASK, sync_publish_in_order, sync_sweep
from integration.sync.services.sender import Outcome, sync_send
from integration.sync.services.switch import CATALOG_TASK, PUBLISH_TASK, hub_environment_switch, sync_switch_publish
from tests.factories import PropertyFactory, RatePlanFactory, RatePlanModelFactory, RoomTypeFactory, korean

pytestmark = pytest.mark.django_db(transaction=True)


def estate_property(vendor_id, room_types):
    """A property of room_types room types, each sold under a standalone and a package model, with an
    outbox row for every resource (content, rates and availability), nothing sent yet."""
    prop = PropertyFactory(vendor_id=vendor_id)
    korean(prop)
    models = [
        RatePlanModelFactory(property=prop, type=RatePlanType.STANDALONE),
        RatePlanModelFactory(property=prop),
    ]
    for model in models:
        korean(model)
    rooms = []
    for _n in range(room_types):
        room = RoomTypeFactory(property=prop)
        korean(room)
        rooms.append(room)
        for model in models:
            RatePlanFactory(room_type=room, model=model)
    sync_states_ensure_all(property=prop)
    return prop, models, rooms


def state(kind, obj):
    return SyncState.objects.get(kind=kind, object_id=obj.pk)


def send_quietly(kind, obj):
    assert sync_send(state(kind, obj).pk, schedule=False) == Outcome.SENT


def queued(prop):
    return set(
        SyncState.objects.filter(property=prop, queued_at__isnull=False)
        .exclude(kind=ResourceKind.PROPERTY)
        .values_list("kind", "object_id")
    )


def first_send_of(kind, prop, models, rooms):
    """Statements of the first send (as a worker makes it) of the property's first room type, or of its
    first rate plan, once the hub knows their parents; and the rows it queued."""
    send_quietly(ResourceKind.PROPERTY, prop)
    for model in models:
        send_quietly(ResourceKind.RATE_PLAN_MODEL, model)
    subject = rooms[0]
    if kind == ResourceKind.RATE_PLAN:
        send_quietly(ResourceKind.ROOM_TYPE, subject)
        subject = subject.rate_plans.order_by("pk").first()
    SyncState.objects.filter(property=prop).update(queued_at=None)
    with CaptureQueriesContext(connection) as statements:
        assert sync_send(state(kind, subject).pk) == Outcome.SENT
    return len(statements), queued(prop), subject


@pytest.mark.parametrize("kind", [ResourceKind.ROOM_TYPE, ResourceKind.RATE_PLAN])
def test_a_first_send_queues_only_its_own_children_in_statements_that_do_not_grow_with_the_property(hub, kind):
    small = first_send_of(kind, *estate_property("small", room_types=1))
    big = first_send_of(kind, *estate_property("big", room_types=6))

    assert small[0] == big[0]
    for _statements, queued_rows, subject in (small, big):
        if kind == ResourceKind.ROOM_TYPE:
            plans = subject.rate_plans.values_list("pk", flat=True)
            own = {(ResourceKind.RATE_PLAN, pk) for pk in plans} | {(ResourceKind.ARI_AVAILS, subject.pk)}
        else:
            own = {(ResourceKind.ARI_RATES, subject.pk)}
        assert queued_rows == own


def test_the_switch_leaves_its_sends_to_a_job_that_queues_them_parents_first(production_hub, monkeypatch):
    for vendor_id in ("north", "south"):
        estate_property(vendor_id, room_types=2)
    published = []
    app_class = type(current_app._get_current_object())
    monkeypatch.setattr(app_class, "send_task", lambda app, name, args=None, **options: published.append((name, args)))

    switch = hub_environment_switch(to=HubEnvironment.PRODUCTION)

    # The request queued jobs only (the publishing, the catalog, the channel read-backs), no send.
    queued = [name for name, _args in published]
    assert SEND_TASK not in queued
    assert queued.count(PUBLISH_TASK) == queued.count(CATALOG_TASK) == 1
    published.clear()

    assert sync_switch_publish(switch.pk) == switch.resources == SyncState.objects.count() == 2 * 15
    assert {name for name, _args in published} == {SEND_TASK}
    ranks = [RESOURCES[SyncState.objects.get(pk=state_id).kind].rank for _name, (state_id,) in published]
    assert ranks == sorted(ranks)
    assert len({state_id for _name, (state_id,) in published}) == switch.resources


def test_a_send_reads_its_row_in_the_statement_that_leases_it(hub):
    """Every send runs these: the claim takes the lease and reads the row back in one statement; marking it
    synced, queueing the children a worker parked (a first send) and releasing it are one statement each
    (profiled in bench.estate --profile)."""
    prop, models, _rooms = estate_property("own-row", room_types=1)
    send_quietly(ResourceKind.PROPERTY, prop)
    row = state(ResourceKind.RATE_PLAN_MODEL, models[0])
    with CaptureQueriesContext(connection) as statements:
        assert sync_send(row.pk, schedule=False) == Outcome.SENT

    on_the_outbox = [query["sql"] for query in statements if SyncState._meta.db_table in query["sql"]]
    verbs = [sql.split()[0] for sql in on_the_outbox]
    assert verbs == ["UPDATE", "SELECT", "UPDATE", "UPDATE", "UPDATE"], on_the_outbox
    claim, parents_known, synced, children, release = on_the_outbox
    assert "lease_owner" in claim
    assert "RETURNING" in claim
    assert "known_to_hub" in parents_known
    assert "synced" in synced
    assert "next_attempt_at" in children
    assert 'lease_until" = NULL' in release


def test_a_first_send_leaves_alone_the_children_whose_message_still_waits_however_long_ago(hub):
    """A whole-estate resync drains for longer than QUEUE_GRACE: a parent reaching the hub must not queue its
    children a second time while their messages still wait in the backlog (a second send each); a child
    whose send found the parent unknown (marked not queued) is queued."""
    prop, models, rooms = estate_property("backlog", room_types=2)
    send_quietly(ResourceKind.PROPERTY, prop)
    for model in models:
        send_quietly(ResourceKind.RATE_PLAN_MODEL, model)
    long_ago = timezone.now() - QUEUE_GRACE * 4
    SyncState.objects.filter(property=prop).update(queued_at=long_ago)
    parked = state(ResourceKind.ARI_AVAILS, rooms[0])
    SyncState.objects.filter(pk=parked.pk).update(queued_at=None)

    assert sync_send(state(ResourceKind.ROOM_TYPE, rooms[0]).pk) == Outcome.SENT

    queued_now = SyncState.objects.filter(property=prop, queued_at__gt=long_ago).exclude(kind=ResourceKind.ROOM_TYPE)
    assert set(queued_now.values_list("kind", "object_id")) == {(ResourceKind.ARI_AVAILS, rooms[0].pk)}


def test_a_child_waiting_for_its_parent_is_parked_until_the_parent_reaches_the_hub(hub, monkeypatch):
    """A resync's child taken while its parent is still queued or in flight costs no further task: it does
    not queue the parent again, the sweeper leaves it alone, and the parent reaching the hub queues it."""
    published = []
    app_class = type(current_app._get_current_object())
    monkeypatch.setattr(app_class, "send_task", lambda app, name, args=None, **options: published.append(args))
    prop, _models, rooms = estate_property("parked", room_types=1)
    SyncState.objects.filter(property=prop).update(queued_at=timezone.now())  # the resync's messages
    parent = state(ResourceKind.PROPERTY, prop)
    in_flight = SyncState.objects.filter(pk=parent.pk)
    in_flight.update(queued_at=None, lease_until=timezone.now() + datetime.timedelta(seconds=30))
    child = state(ResourceKind.ROOM_TYPE, rooms[0])

    assert sync_send(child.pk) == Outcome.WAITING

    child.refresh_from_db()
    assert child.last_error == "Waiting for the property to reach the hub."
    assert 55 < (child.next_attempt_at - timezone.now()).total_seconds() <= 60
    assert not child.waiting_for_hub()  # no failure: not "waiting for the hub"
    assert sync_sweep() == 0
    assert published == []  # neither the parent asked again nor the child queued by the sweep

    in_flight.update(lease_until=None)
    assert sync_send(parent.pk) == Outcome.SENT
    assert [child.pk] in published
    child.refresh_from_db()
    assert child.queued_at is not None


def test_a_child_a_worker_parked_is_queued_when_a_command_sends_its_parent(hub, monkeypatch):
    """`hub_sync` sends in its own process while the worker sends too: a child the worker took while the
    command was sending its parent, and parked, is queued once the command's send of the parent reaches
    the hub (the command found it busy and passed it by); the children nobody parked stay for the
    command's own run."""
    published = []
    app_class = type(current_app._get_current_object())
    monkeypatch.setattr(app_class, "send_task", lambda app, name, args=None, **options: published.append(args))
    prop, _models, rooms = estate_property("raced", room_types=2)
    parent = state(ResourceKind.PROPERTY, prop)
    in_flight = SyncState.objects.filter(pk=parent.pk)
    in_flight.update(lease_until=timezone.now() + datetime.timedelta(seconds=30))  # the command sending it
    parked = state(ResourceKind.ROOM_TYPE, rooms[0])
    assert sync_send(parked.pk) == Outcome.WAITING  # the worker's send
    published.clear()

    in_flight.update(lease_until=None)
    assert sync_send(parent.pk, schedule=False) == Outcome.SENT

    assert published == [[parked.pk]]
    assert state(ResourceKind.ROOM_TYPE, rooms[1]).queued_at is None


def test_the_properties_take_turns_within_a_kind(production_hub, monkeypatch):
    """Each property's first row of a kind, then each one's second: a package model is not sent at the same
    time as its property's standalone model (two worker slots, the second finding the first unknown)."""
    _north, north_models, _rooms = estate_property("north", room_types=1)
    _south, south_models, _rooms = estate_property("south", room_types=1)
    published = []
    app_class = type(current_app._get_current_object())
    monkeypatch.setattr(app_class, "send_task", lambda app, name, args=None, **options: published.append(args[0]))

    sync_publish_in_order(SyncState.objects.all())

    models = SyncState.objects.filter(kind=ResourceKind.RATE_PLAN_MODEL)
    in_order = [models.get(pk=pk).object_id for pk in published if models.filter(pk=pk).exists()]
    assert in_order == [north_models[0].pk, south_models[0].pk, north_models[1].pk, south_models[1].pk]
