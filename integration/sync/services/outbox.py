"""The outbox: marking a resource changed in the caller's transaction, and queueing its send."""

import logging
from collections import Counter
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Model, Q, QuerySet
from django.utils import timezone

from core.background.broker import broker_lost_messages, broker_still_queued_since
from core.background.periodic import for_each_row
from core.background.queue import publish_many, queue_after_commit
from core.background.retention import purge_older_than

from ...content.models import Property
from ...hub.selectors import hub_distribution_paused_since, hub_environment_active
from ..choices import SyncStatus
from ..models import SyncAttempt, SyncState
from ..resources import KIND_OF_MODEL, RESOURCES
from ..sql import Params, state_bump, state_bump_statement, states_queued

logger = logging.getLogger(__name__)

#: A queued send not started in this time is taken as lost (broker down, message dropped, or reserved by
#: a worker that died, such as the sends it held for their coalescing countdown): the sweeper queues it
#: again. It only covers a message's way from the broker to a worker's start: one still waiting in a busy
#: queue is known by the queue's depth (sync_sweep), so a backlog is not queued twice however long it
#: takes. A duplicate message costs one unchanged send. Measured: docs/benchmarks.md (a killed worker).
QUEUE_GRACE = timedelta(seconds=15)
#: The Celery task that sends one row (integration.sync.tasks), queued by name: the tasks call the
#: engine, the engine never imports them back.
SEND_TASK = "integration.sync.tasks.sync_resource_task"
#: While rows wait for a retry and none is due sooner than this, the sweeper has the first of them tried at
#: once: a hub that healed is noticed within this and a sweep, however long their backoff (sync_sweep).
PROBE_AFTER = timedelta(seconds=10)
#: Rows brought forward per statement when the hub answers again (sync_retries_now).
RETRIES_BATCH = 500


def _property_id(obj: Model) -> int:
    # Every resource other than a property belongs to one.
    return obj.pk if isinstance(obj, Property) else obj.property_id  # type: ignore[attr-defined]


def sync_state_ensure(obj: Model, *, kind: str | None = None) -> SyncState:
    """The outbox row of obj (as kind, by default its model's kind), created pending if the hub has never
    been told of it."""
    state, _ = SyncState.objects.get_or_create(
        kind=kind or KIND_OF_MODEL[type(obj)],
        object_id=obj.pk,
        # The environment as a callable: read only when the row is created, not on every change.
        # get_or_create calls a callable in defaults; the stubs expect the value itself (hence the ignore).
        defaults={"property_id": _property_id(obj), "environment": hub_environment_active},  # type: ignore[misc]
    )
    return state


def sync_mark_changed(obj: Model, *, kind: str | None = None) -> SyncState:
    """Record, in the caller's transaction, that the hub should get obj's current state, and queue the
    send for after the commit. Call it from every service that changes what the hub sees of obj."""
    return sync_state_changed(sync_state_ensure(obj, kind=kind))


def sync_state_changed(state: SyncState, *, urgent: bool = False) -> SyncState:
    """sync_mark_changed for an outbox row the caller already has. urgent: the change moves availability
    or closes a day, and goes ahead of every other pending row (SyncState.urgent)."""
    sync_state_id_changed(state.pk, urgent=urgent)
    return state


def sync_state_id_changed(state_id: int, *, urgent: bool = False) -> None:
    """sync_state_changed for the outbox row of this id."""
    now = timezone.now()
    claimed = state_bump(state_id, now=now, stale=now - QUEUE_GRACE, urgent=urgent)
    sync_state_bumped(state_id, claimed=claimed, urgent=urgent)


def sync_state_bump_statement(where: str, params: Params, *, urgent: bool = False) -> tuple[str, Params]:
    """The statement of sync_state_changed for the outbox rows matching where (SQL over their columns, with
    params), and its params (integration.sync.sql.state_bump_statement): one UPDATE, as every booking's
    hold runs it on its room type's row, RETURNING the row's id and whether this change claimed the send;
    pass them to sync_state_bumped."""
    now = timezone.now()
    return state_bump_statement(where, params, now=now, stale=now - QUEUE_GRACE, urgent=urgent)


def sync_state_bumped(state_id: int, *, claimed: bool, urgent: bool = False) -> None:
    """After sync_state_bump_statement: queue the send the change claimed, for after the commit."""
    if claimed:
        # Edits within this window after the first go out as one request: the sender reads the latest state.
        # An urgent change is not held back: a booking's availability drop must reach the hub in seconds.
        _publish_on_commit(state_id, 0 if urgent else settings.HUB_SYNC_COALESCE_SECONDS)


def sync_state_resend(state: SyncState, *, recreate: bool = False) -> SyncState:
    """Have the next send carry the resource's whole current state, whatever the hub last acknowledged:
    the acknowledged body is dropped, so the send is a full PATCH that clears what we lack as the
    contract says (integration.hub.payloads.patch_body), or with recreate a POST (the hub no longer knows
    it). Queued like any change; for a hub copy that drifted from what it acknowledged (ours wins)."""
    fields: dict[str, Any] = {"acked_body": None}
    if recreate:
        fields["known_to_hub"] = False
    SyncState.objects.filter(pk=state.pk).update(**fields)
    return sync_state_changed(state)


def sync_queue(state_id: int, *, countdown: float = 0, force: bool = False) -> bool:
    """Queue a send of the row after the current transaction commits, unless one is queued already
    (force: queue regardless, for a send that must follow one in flight). Returns whether it queued."""
    now = timezone.now()
    rows = SyncState.objects.filter(pk=state_id)
    if not force:
        rows = rows.filter(Q(queued_at__isnull=True) | Q(queued_at__lt=now - QUEUE_GRACE))
    if rows.update(queued_at=now):
        _publish_on_commit(state_id, countdown)
        return True
    return False


def sync_queue_waiting(rows: Q) -> list[int]:
    """Queue, in one statement, the sends of the pending rows matching rows (a Q of SyncState) that are
    neither queued already nor waiting for a retry (parked ones included: sender._wait_for_parents): the
    children a parent releases once the hub knows it.
    Returns their ids. A row marked queued, however long ago, is left alone: its message still waits in a
    backlog (a whole-estate resync drains for longer than QUEUE_GRACE, and a second message would cost a
    second send), or it was lost, which the sweeper finds out from the queue's depth (sync_sweep)."""
    now = timezone.now()
    waiting = (
        SyncState.objects.filter(rows, status=SyncStatus.PENDING, failures=0, queued_at__isnull=True)
        .order_by()
        .values("pk")
    )
    select, params = waiting.query.sql_with_params()
    queued = states_queued(select, params, now=now)
    for state_id in queued:
        _publish_on_commit(state_id, 0)
    return queued


def sync_publish_in_order(rows: QuerySet[SyncState], *, urgent_first: bool = False) -> int:
    """Queue now the sends of rows (pending outbox rows), marked queued: parents before children, and with
    urgent_first the urgent rows (availability, closed days) before all, over one broker connection; a row
    waiting for a retry is queued for its next attempt instead. Returns how many were queued. A row the
    broker did not take stays marked queued, for the sweeper once that is overdue.

    Within a kind the properties take turns (each one's first row, then each one's second...): the rows of
    one property that wait for each other (a package model for the standalone one, a package plan's rates
    for the standalone plan's) are then not sent at the same time by two worker slots, the second only to
    find the first unknown to the hub; and a property's rows spread over the whole publish, within its
    request budget."""
    now = timezone.now()
    # Only a retry's backoff is kept: a row parked for its parents or waiting for its budget finds out again.
    later = list(rows.filter(next_attempt_at__gt=now, failures__gt=0).values_list("pk", "next_attempt_at"))
    due = rows.exclude(next_attempt_at__gt=now, failures__gt=0)
    turns: Counter[tuple[bool, str, int]] = Counter()
    planned = []
    for urgent, kind, property_id, object_id, pk in due.order_by("kind", "property_id", "object_id").values_list(
        "urgent", "kind", "property_id", "object_id", "pk"
    ):
        first = urgent_first and urgent
        turns[first, kind, property_id] += 1
        turn = turns[first, kind, property_id]
        planned.append(((not first, RESOURCES[kind].rank, kind, turn, property_id, object_id), pk))
    planned.sort()
    due.update(queued_at=now)
    queued = publish_many(SEND_TASK, [(pk,) for _order, pk in planned])
    return queued + for_each_row(later, lambda row: _queue_again(*row), what="hub sync send after its backoff")


def _publish_on_commit(state_id: int, countdown: float) -> None:
    queue_after_commit(SEND_TASK, state_id, countdown=countdown or None, on_failure=lambda: _not_queued(state_id))


def _not_queued(state_id: int) -> None:
    # The broker did not take it: the row stays pending, and the sweeper's next run queues it.
    SyncState.objects.filter(pk=state_id).update(queued_at=None)


def sync_request(states: Iterable[SyncState], *, retry_failed: bool = False) -> int:
    """Send these rows now ("send now"), and with retry_failed also the failed ones ("retry")."""
    rows = SyncState.objects.filter(pk__in=[state.pk for state in states])
    if retry_failed:
        rows.filter(status=SyncStatus.FAILED).update(status=SyncStatus.PENDING, failures=0, next_attempt_at=None)
    queued = 0
    for state_id in rows.filter(status=SyncStatus.PENDING).values_list("pk", flat=True):
        sync_queue(state_id, force=True)
        queued += 1
    return queued


def sync_sweep() -> int:
    """Queue again every pending row whose send was lost or is overdue, or, after the broker lost its
    messages (a Redis restarted empty), every pending row not being sent, each at its next attempt (a row
    that fails is logged and skipped); and have one row waiting for a retry probe the hub (_probe).
    Nothing while distribution is paused. Returns how many were queued."""
    if hub_distribution_paused_since() is not None:
        return 0  # distribution is paused: its resume queues every pending row (integration.sync.services.pause)
    now = timezone.now()
    stale = now - QUEUE_GRACE
    pending = SyncState.objects.filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now), status=SyncStatus.PENDING)
    if not broker_lost_messages("hub-sync"):
        pending = pending.filter(
            Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=stale),
            Q(queued_at__isnull=True)
            | Q(
                queued_at__lt=broker_still_queued_since(
                    SEND_TASK, SyncState.objects.filter(status=SyncStatus.PENDING), stale
                )
            ),
        )
    next_attempts = dict(pending.values_list("pk", "next_attempt_at"))
    count = for_each_row(list(next_attempts), lambda pk: _queue_again(pk, next_attempts[pk]), what="hub sync sweeper")
    count += _probe(now)
    if count:
        logger.info("sync sweeper queued %d pending resources again", count)
    return count


def _probe(now: datetime) -> int:
    """While rows wait for a retry and none is due within PROBE_AFTER, queue the first of them at once
    (due now, so that the next sweeps send no other until it was tried): one request that finds out whether
    the hub answers again, and, when it does, brings the others forward (sync_retries_now). Returns 1 when
    it queued one."""
    first = (
        # failures > 0: a row waiting for its request budget (decision 0022) is not probing anything.
        SyncState.objects.filter(status=SyncStatus.PENDING, next_attempt_at__isnull=False, failures__gt=0)
        .order_by("next_attempt_at")
        .values_list("pk", "next_attempt_at")
        .first()
    )
    if first is None:
        return 0
    state_id, due = first
    if due is None or due <= now + PROBE_AFTER:
        return 0
    if not SyncState.objects.filter(pk=state_id, next_attempt_at=due).update(next_attempt_at=now):
        return 0  # changed or sent meanwhile
    return int(sync_queue(state_id, force=True))


def sync_retries_now(environment: str) -> int:
    """The hub of environment answers again: queue at once every row of it waiting for a retry, in
    statements of RETRIES_BATCH rows. Returns how many."""
    now = timezone.now()
    # failures > 0: a row waiting for its request budget (decision 0022) would only spend it again.
    waiting = SyncState.objects.filter(
        environment=environment, status=SyncStatus.PENDING, next_attempt_at__isnull=False, failures__gt=0
    ).order_by()
    select, params = waiting.values("pk")[:RETRIES_BATCH].query.sql_with_params()
    queued = 0
    while True:
        batch = states_queued(select, params, now=now, retried=True)
        if not batch:
            break
        for state_id in batch:
            _publish_on_commit(state_id, 0)
        queued += len(batch)
    if queued:
        logger.info("the %s hub answers again: queued %d sends waiting for a retry", environment, queued)
    return queued


def _queue_again(state_id: int, next_attempt_at: datetime | None = None) -> bool:
    countdown = (next_attempt_at - timezone.now()).total_seconds() if next_attempt_at else 0
    return sync_queue(state_id, countdown=max(0, countdown), force=True)


def sync_leases_release(*, owner: str) -> int:
    """Free the rows that the worker named owner was sending, and queue the pending ones at once: called
    when a worker starts, before it takes a message, so what it held was held by its previous life, which
    died (Celery node names are unique among running workers). Returns how many were queued."""
    held = list(SyncState.objects.filter(lease_owner=owner).values_list("pk", flat=True))
    if not held:
        return 0
    SyncState.objects.filter(pk__in=held, lease_owner=owner).update(lease_until=None, lease_owner=None, lease_task=None)
    pending = SyncState.objects.filter(pk__in=held, status=SyncStatus.PENDING).values_list("pk", flat=True)
    count = for_each_row(list(pending), _queue_again, what="hub sync leases of a restarted worker")
    logger.warning("worker %s restarted: freed %d hub sync leases, queued %d sends again", owner, len(held), count)
    return count


def sync_attempts_purge(*, now: datetime | None = None) -> int:
    """Delete the sync log's attempts older than HUB_SYNC_LOG_DAYS (0 keeps them). Returns how many."""
    return purge_older_than(SyncAttempt.objects.all(), days=settings.HUB_SYNC_LOG_DAYS, now=now)
