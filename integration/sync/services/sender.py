"""The sender: builds a resource's current body, compares it with what the hub acknowledged, sends
POST, PATCH or nothing, records the attempt, and decides what follows (synced, retry, failed).

A failure the hub gets over by itself (5xx, no answer, 429) is retried with backoff for as long as it lasts:
only the hub's refusal (a 4xx) fails a row. The first success after failures queues every row waiting for
a retry at once (sync_retries_now), so that a healed hub gets them all within seconds."""

import enum
import logging
import random
import time
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import Model, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from core.db.plain_sql import insert
from core.request_id import request_id_get

from ...hub.budget import WINDOW_SECONDS
from ...hub.client import (
    HubBudgetSpent,
    HubClient,
    HubError,
    HubHTTPError,
    HubResponse,
    HubUnavailable,
    get_hub_client,
)
from ...hub.payloads import redact_body
from ...hub.selectors import hub_distribution_paused_since
from ..choices import SyncStatus
from ..models import SyncAttempt, SyncState
from ..resources import RESOURCES, Call, Plan, PlanError, Resource
from ..signals import hub_learned, sync_failed
from ..sql import state_claim, state_release, state_synced, state_urgent_next, states_known_to_hub
from .outbox import sync_queue, sync_queue_waiting, sync_retries_now, sync_state_ensure

logger = logging.getLogger(__name__)

#: Seconds between a send task's soft and hard time limits (recording the cut attempt), and between its hard
#: limit and the end of the lease.
LIMIT_MARGIN_SECONDS = 5
#: Retry-After is honoured up to this many seconds (below the broker's visibility timeout).
RETRY_AFTER_CAP = 60 * 60
#: When another worker holds the row, look again this much later.
BUSY_RETRY_SECONDS = 5
#: A send from the queue sends the urgent rows waiting for their turn for at most this many seconds (a few
#: availability sends; far below the task's soft time limit, one hub call at its slowest).
URGENT_SECONDS = 5.0
#: A row waiting for its parents to reach the hub is looked at again after this at the latest (the parent
#: reaching the hub queues it at once).
PARKED_FOR = timedelta(minutes=1)
#: Failures in a row are counted up to this (the column is small); the backoff reached its cap long before.
FAILURES_COUNTED = 1000


class Outcome(enum.StrEnum):
    """What one sync_send did."""

    SENT = "sent"
    UNCHANGED = "unchanged"
    WAITING = "waiting"
    BUSY = "busy"
    RETRY = "retry"
    FAILED = "failed"
    GONE = "gone"
    #: A switch of hub environment came during the send: the row starts over at the new hub.
    MOVED = "moved"
    #: Distribution to the hub is paused: nothing sent, the row stays pending for the resume.
    PAUSED = "paused"
    #: The property's request budget has no slot free: the row stays pending until one frees (decision 0022).
    BUDGET = "budget"


def retry_delay(failures: int, retry_after: float | None = None) -> float:
    """Seconds before the next try after failures in a row: exponential with jitter, or Retry-After.

    The n-th retry waits between half and all of HUB_SYNC_BACKOFF_BASE * 2^(n-1), at most
    HUB_SYNC_BACKOFF_CAP seconds.
    """
    exponent = min(failures - 1, 32)  # 2 ** 32 times the base is past any cap, and stays a float
    ceiling = min(settings.HUB_SYNC_BACKOFF_CAP, settings.HUB_SYNC_BACKOFF_BASE * 2**exponent)
    delay = ceiling / 2 + random.uniform(0, ceiling / 2)  # noqa: S311 (jitter, not cryptography)
    if retry_after is not None:
        delay = max(delay, min(retry_after, RETRY_AFTER_CAP))
    return delay


def send_time_limits() -> tuple[float, float]:
    """(soft, hard) seconds of the send task: soft after one hub call at its slowest (connect and read
    timeouts), which the sender takes as a failure to retry with backoff; hard a margin later."""
    soft = settings.HUB_CONNECT_TIMEOUT + settings.HUB_READ_TIMEOUT
    return soft, soft + LIMIT_MARGIN_SECONDS


def lease_duration() -> timedelta:
    """How long a sender holds its row (renewed before each hub call): longer than the send task's hard
    time limit, so that a send is dead before another worker may take its row. A dead sender's row is free
    again within it, for the sweeper to queue."""
    return timedelta(seconds=send_time_limits()[1] + LIMIT_MARGIN_SECONDS)


def sync_send(
    state_id: int,
    *,
    full: bool = False,
    schedule: bool = True,
    client: HubClient | None = None,
    owner: str | None = None,
    task: str | None = None,
) -> Outcome:
    """Bring the hub up to date with one resource. full re-sends its whole state (a full resync).

    schedule: queue retries and follow-ups through Celery (False when a command sends in-process).
    owner: the Celery node name of the worker sending, recorded on the lease so that the worker, started
    again after it died, frees its rows at once (sync_leases_release).
    task: the Celery task id of the send, recorded on the lease: a retry of the same task (after the
    database connection broke in the middle of a send) takes the lease back at once.

    Distribution paused: nothing is sent (Outcome.PAUSED; its resume queues the row again). Otherwise a send
    from the queue also sends the urgent rows waiting for their own turn, before and after its own
    (_send_urgent_first).
    """
    if hub_distribution_paused_since() is not None:
        return Outcome.PAUSED
    if not schedule:
        return _send_claimed(state_id, full=full, schedule=schedule, client=client, owner=owner, task=task)
    deadline = time.monotonic() + URGENT_SECONDS
    _send_urgent_first(state_id, deadline, client=client, owner=owner, task=task)
    outcome = _send_claimed(state_id, full=full, schedule=schedule, client=client, owner=owner, task=task)
    _send_urgent_first(state_id, deadline, client=client, owner=owner, task=task)
    return outcome


def _send_urgent_first(
    state_id: int, deadline: float, *, client: HubClient | None, owner: str | None, task: str | None
) -> None:
    """Send the urgent rows (availability moved, a day closed) that wait for their own turn, oldest change
    first, until none waits or the deadline (time.monotonic()) passes: the sends from the queue run it before
    and after their own row, so that whatever backlog the queue and the workers hold (a bulk rate edit
    draining, its messages reserved by the workers), an availability drop reaches the hub after the sends
    under way. The deadline keeps the task well within its time limit."""
    while time.monotonic() < deadline:
        waiting = state_urgent_next(state_id, now=timezone.now())
        if waiting is None:
            return
        _send_claimed(waiting, full=False, schedule=True, client=client, owner=owner, task=task, busy_retry=False)


def _send_claimed(
    state_id: int,
    *,
    full: bool,
    schedule: bool,
    client: HubClient | None,
    owner: str | None,
    task: str | None,
    busy_retry: bool = True,
) -> Outcome:
    """sync_send of one row once it is claimed; busy_retry: look again later when another sender holds it."""
    state = _claim(state_id, owner, task)
    if state is None:
        if schedule and busy_retry:
            sync_queue(state_id, countdown=BUSY_RETRY_SECONDS, force=True)
        return Outcome.BUSY
    outcome = Outcome.GONE
    try:
        outcome = _send(state, full=full, schedule=schedule, client=client)
        return outcome
    finally:
        changed_meanwhile = state_release(state_id)
        if schedule and outcome in (Outcome.SENT, Outcome.UNCHANGED) and changed_meanwhile:
            sync_queue(state_id, force=True)


def _claim(state_id: int, owner: str | None, task: str | None) -> SyncState | None:
    """The outbox row, leased to owner (and task) for one hub call, taken and read in one statement; None
    when another sender holds it, or it is gone."""
    now = timezone.now()
    return state_claim(state_id, owner=owner, task=task, now=now, until=now + lease_duration())


def _send(state: SyncState, *, full: bool, schedule: bool, client: HubClient | None) -> Outcome:
    """One send of the claimed row: nothing (refused before, gone, waiting), or its plan's calls, and what
    follows them."""
    if state.status == SyncStatus.FAILED and not full:
        # The hub refused it: only a change, staff's "retry" or a full resync sends it again.
        return Outcome.FAILED
    resource = RESOURCES[state.kind]
    obj = resource.load(state.object_id)
    if obj is None:
        state.delete()
        return Outcome.GONE
    blocked = resource.blocked(obj)
    if blocked:
        return _wait(state, blocked)
    missing = _unknown_to_hub(resource.parents(obj))
    if missing:
        return _wait_for_parents(state, missing, schedule=schedule)
    version, was_known = state.version, state.known_to_hub
    sent = _call_plan(state, resource, obj, full=full, schedule=schedule, client=client)
    if isinstance(sent, Outcome):
        return sent
    plan, responses = sent
    return _after_sent(state, plan, responses, version=version, was_known=was_known, schedule=schedule)


def _call_plan(
    state: SyncState, resource: Resource, obj: Any, *, full: bool, schedule: bool, client: HubClient | None
) -> tuple[Plan, list[HubResponse]] | Outcome:
    """The plan of the send and the hub's responses to its calls; or the Outcome when a call failed (to
    retry when the hub gets over it by itself, else failed) or waits for the property's request budget."""
    try:
        # The hub the row's knowledge is of: a switch moves every row to the new one before queueing it.
        client = client or get_hub_client(state.environment)
        plan = resource.plan(state, obj, full=full)
        # A worker gives its slot to other rows rather than wait for the budget (schedule), but only before
        # the first call: a plan the hub has begun to take waits for the rest, else its next try sends again
        # what the hub already has.
        return plan, [
            _exchange(state, client, call, renew=index > 0, wait=not schedule or index > 0)
            for index, call in enumerate(plan.calls)
        ]
    except HubBudgetSpent as exc:
        return _wait_for_budget(state, exc, schedule)
    except PlanError as exc:
        _mark_failed(state, HubError(str(exc)))
        return Outcome.FAILED
    except SoftTimeLimitExceeded:
        # A hub too slow for the task's time limit: like no answer, tried again with backoff.
        return _schedule_retry(state, HubUnavailable(_("The send took longer than its time limit.")), schedule)
    except HubError as exc:
        if exc.retryable:
            return _schedule_retry(state, exc, schedule)
        _mark_failed(state, exc)
        return Outcome.FAILED


def _after_sent(
    state: SyncState, plan: Plan, responses: list[HubResponse], *, version: int, was_known: bool, schedule: bool
) -> Outcome:
    """The hub took the plan's calls: record it (synced, unless changed meanwhile), and queue what waited
    for the hub (rows waiting for a retry, children waiting for this one)."""
    # A switch to another hub came while this was sent: the row starts over there; this answer is the old
    # hub's and is not kept. What the plan records of the answer is in place before the row reads synced.
    if plan.on_done:
        if not _same_hub(state).exists():
            return Outcome.MOVED
        plan.on_done(responses)
    if not state_synced(state, version=version, body=plan.acked_body, now=timezone.now()):
        return Outcome.MOVED
    if state.failures and schedule:
        # The hub answers again after failing: the rows waiting for a retry need not wait for their backoff.
        sync_retries_now(state.environment)
    if not was_known:
        _queue_waiting_children(state, parked_only=not schedule)
        hub_learned.send(sender=SyncState, state=state)
    return Outcome.SENT if plan.calls else Outcome.UNCHANGED


def _wait(state: SyncState, message: str) -> Outcome:
    """The resource stays pending, with message (why it waits) shown to staff."""
    state.last_error = message
    state.save(update_fields=["last_error", "updated_at"])
    return Outcome.WAITING


def _wait_for_parents(state: SyncState, missing: list[tuple[str, Model]], *, schedule: bool) -> Outcome:
    """The resource waits for parents the hub does not know yet (missing): a parent neither queued nor
    waiting for its turn is queued, and the row is parked until the first of them reaches the hub, which
    queues it (_queue_waiting_children), or until PARKED_FOR passes (the sweeper's safety net). Parked, a row
    costs no task of its own in the meantime: a resync's children taken while their parent is still in
    flight are not queued again by every sweep."""
    if schedule:
        for _kind, parent in missing:
            parent_state = sync_state_ensure(parent)
            if parent_state.status == SyncStatus.PENDING and not _coming(parent_state):
                sync_queue(parent_state.pk)
    names = ", ".join(str(RESOURCES[kind].model._meta.verbose_name) for kind, _parent in missing)
    _same_hub(state).update(next_attempt_at=timezone.now() + PARKED_FOR)
    return _wait(state, _("Waiting for the %(parents)s to reach the hub.") % {"parents": names})


def _coming(state: SyncState) -> bool:
    """Whether the row's send comes without being asked: queued (its message perhaps in a backlog), being
    sent, or due later (a retry, its request budget, parked). Asked again, it would only cost a task (each
    of a resync's children asking)."""
    leased = state.lease_until is not None and state.lease_until > timezone.now()
    return bool(state.queued_at or state.next_attempt_at or leased)


def _unknown_to_hub(parents: Sequence[tuple[str, Model]]) -> list[tuple[str, Model]]:
    """The (kind, object) pairs of parents that the hub does not know yet, read in one query."""
    if not parents:
        return []
    known = states_known_to_hub([(kind, parent.pk) for kind, parent in parents])
    return [(kind, parent) for kind, parent in parents if (kind, parent.pk) not in known]


def _same_hub(state: SyncState) -> QuerySet[SyncState]:
    """The row, as long as its knowledge is still of the hub this send went to (a switch moves it)."""
    return SyncState.objects.filter(pk=state.pk, environment=state.environment)


def _exchange(state: SyncState, client: HubClient, call: Call, *, renew: bool = True, wait: bool = True) -> HubResponse:
    """One call to the hub, recorded as an attempt whatever its result; a 409 turns into call.if_exists,
    a 404 into call.if_missing. renew: extend the lease first (not before the first call: the claim has
    just taken it). wait: sleep for the property's request budget, else raise HubBudgetSpent (nothing sent,
    nothing recorded)."""
    path = call.endpoint.path(**call.params)
    if renew:
        # The lease covers one call: a plan of several calls renews it before each.
        SyncState.objects.filter(pk=state.pk).update(lease_until=timezone.now() + lease_duration())
    try:
        response = client.call(call.endpoint, path_params=call.params, body=call.body, wait=False)
    except HubBudgetSpent as exc:
        if not wait:
            raise
        # Slept here rather than in the client: the wait (up to a minute) outlasts the lease, renewed after it.
        time.sleep(exc.seconds)
        return _exchange(state, client, call, wait=wait)
    except HubError as exc:
        if isinstance(exc, HubHTTPError) and exc.status == 409 and call.if_exists:
            # OURS (decision 0003): 409 on create means the hub has it already; continue with the update.
            _record(state, call, path, exc.status, exc.message, SyncAttempt.Outcome.SUCCESS, exc.duration_ms)
            _same_hub(state).update(known_to_hub=True)
            return _exchange(state, client, call.if_exists, wait=wait)
        if isinstance(exc, HubHTTPError) and exc.status == 404 and call.if_missing:
            # OURS (decision 0003): 404 on update means this hub does not know the resource (a new hub environment, or
            # lost on its side): create it instead.
            _record(state, call, path, exc.status, exc.message, SyncAttempt.Outcome.SUCCESS, exc.duration_ms)
            _same_hub(state).update(known_to_hub=False)
            return _exchange(state, client, call.if_missing, wait=wait)
        outcome = SyncAttempt.Outcome.RETRY if exc.retryable else SyncAttempt.Outcome.FAILED
        _record(state, call, path, exc.status, exc.message, outcome, exc.duration_ms)
        raise
    _record(state, call, path, response.status, "", SyncAttempt.Outcome.SUCCESS, response.duration_ms)
    return response


def _record(
    state: SyncState, call: Call, path: str, status: int | None, message: str, outcome: str, duration_ms: int
) -> None:
    """The attempt in the sync log, in one plain INSERT (every hub call writes one)."""
    insert(
        SyncAttempt(
            state=state,
            property_id=state.property_id,
            method=call.endpoint.method,
            path=path,
            request_body=redact_body(call.body),
            status_code=status,
            hub_message=message,
            outcome=outcome,
            duration_ms=duration_ms,
            request_id=request_id_get(),
        )
    )


def _schedule_retry(state: SyncState, exc: HubError, schedule: bool) -> Outcome:
    """A failure the hub gets over by itself: the row stays pending and is tried again after its backoff
    (or sooner, when another row finds the hub answering again), however many times it failed."""
    failures = min(state.failures + 1, FAILURES_COUNTED)
    delay = retry_delay(failures, exc.retry_after)
    _same_hub(state).update(
        failures=failures,
        last_error=exc.message,
        last_status_code=exc.status,
        next_attempt_at=timezone.now() + timedelta(seconds=delay),
    )
    logger.info("hub sync of %s #%s retries in %.1f s after: %s", state.kind, state.object_id, delay, exc.message)
    if schedule:
        sync_queue(state.pk, countdown=delay, force=True)
    return Outcome.RETRY


def _wait_for_budget(state: SyncState, exc: HubBudgetSpent, schedule: bool) -> Outcome:
    """No slot of the property's request budget is free: nothing was sent and nothing failed; the row stays
    pending until the slot frees, saying why to staff, and the worker moves on to other properties' rows.

    The waiting rows of one property are told the same moment (when the oldest slot frees), where only one of
    them fits: each comes back at a random point of the next slot's share of the minute instead, so that they
    do not all try again at once and wait again, one by one (a resync's many rows of each property)."""
    seconds = exc.seconds + random.uniform(0, WINDOW_SECONDS / exc.limit)  # noqa: S311 (jitter, not cryptography)
    _same_hub(state).update(last_error=exc.message, next_attempt_at=timezone.now() + timedelta(seconds=seconds))
    logger.info("hub sync of %s #%s waits %.1f s for its %s budget", state.kind, state.object_id, seconds, exc.kind)
    if schedule:
        sync_queue(state.pk, countdown=seconds, force=True)
    return Outcome.BUDGET


@transaction.atomic
def _mark_failed(state: SyncState, exc: HubError) -> None:
    """A failure the hub will not get over by itself (a 4xx): shown to staff, never retried alone."""
    state.last_error = exc.message
    marked = _same_hub(state).update(
        status=SyncStatus.FAILED,
        last_error=state.last_error,
        last_status_code=exc.status,
        failures=min(state.failures + 1, FAILURES_COUNTED),
        next_attempt_at=None,
    )
    if marked:
        sync_failed.send(sender=SyncState, state=state)
    logger.warning("hub sync of %s #%s failed: %s", state.kind, state.object_id, exc.message)


def _queue_waiting_children(state: SyncState, *, parked_only: bool) -> None:
    """The hub now knows this resource: queue the pending rows that wait for it (its kind says which), in
    one statement whatever the size of the property; each once: a child already queued by its other
    parent is not queued again.
    parked_only: a send in this process (a command, which sends the other rows itself) queues only the
    children a worker parked meanwhile; the command found them busy while the worker held them, and passed
    them by."""
    children = RESOURCES[state.kind].children(state)
    if children is not None:
        rows = children & ~Q(pk=state.pk)
        sync_queue_waiting(rows & Q(next_attempt_at__isnull=False) if parked_only else rows)
