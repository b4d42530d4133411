"""The drift check: queue checks, run them one runner at a time at the configured pace, store what
differs, and re-send what staff choose (ours wins) through the sync engine's outbox."""

import logging
import secrets
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.background.jobs import job_queue
from core.metrics import drift_check_counted

from ..content.models import Property
from ..content.resources import path_params
from ..hub import endpoints
from ..hub.client import HubClient, HubError, HubHTTPError, get_hub_client
from ..hub.selectors import hub_paused_refusal
from ..sync.models import ResourceKind, SyncState
from ..sync.resources import RESOURCES
from ..sync.services.outbox import sync_state_resend
from .choices import DriftCheckStatus
from .compare import FieldDifference, body_differences
from .models import DriftCheck, DriftDifference
from .pacing import HubBusy, Pacer
from .signals import drift_found

logger = logging.getLogger(__name__)

#: The spec's emergency reads (GET) of each kind of content the drift check compares.
READ_ENDPOINTS = {
    ResourceKind.PROPERTY: endpoints.PROPERTY_READ,
    ResourceKind.ROOM_TYPE: endpoints.ROOMTYPE_READ,
    ResourceKind.RATE_PLAN_MODEL: endpoints.RATEPLAN_MODEL_READ,
    ResourceKind.RATE_PLAN: endpoints.RATEPLAN_READ,
}
#: The Celery task that works through the queued checks, queued by name (integration.drift.tasks).
RUN_TASK = "integration.drift.tasks.drift_checks_run_task"
#: One runner at a time, so that HUB_DRIFT_RATE holds across every check (a lock in the shared cache:
#: Redis in production). Renewed at each resource read; a dead runner's lock expires (runner_lock_seconds).
RUNNER_LOCK = "integration.drift.runner"
#: A runner starts no check after running this long (another runner goes on): below its task's soft time
#: limit (integration.drift.tasks), so that only a single check longer than the difference is cut.
RUNNER_BUDGET = timedelta(minutes=30)
#: Finished checks kept per property (the newest); older ones and their rows are deleted.
CHECKS_KEPT = 5


def runner_lock_seconds() -> int:
    """How long the runner's lock lasts without renewal: 15 minutes, or longer when one read's retries
    may wait longer (HUB_DRIFT_MAX_TRIES waits of up to HUB_DRIFT_MAX_WAIT seconds)."""
    return max(15 * 60, settings.HUB_DRIFT_MAX_TRIES * settings.HUB_DRIFT_MAX_WAIT + 60)


def drift_check_request(*, property: Property, user: User | None = None) -> DriftCheck:
    """Queue a drift check of property and have the runner start after the commit. Asking again while
    one is queued or running returns that one. Raises ValidationError while distribution is paused."""
    if (refusal := hub_paused_refusal()) is not None:
        raise ValidationError(refusal)
    with transaction.atomic():
        _fail_interrupted()
        check = _queue_check(property, user)
        job_queue(RUN_TASK)
    return check


def drift_checks_request_all() -> int:
    """Queue a drift check of every property (the weekly run) and start the runner once; returns how many
    checks are waiting."""
    with transaction.atomic():
        _fail_interrupted()
        waiting = {_queue_check(prop, None).pk for prop in Property.objects.all()}
        job_queue(RUN_TASK)
    return len(waiting)


def _queue_check(prop: Property, user: User | None) -> DriftCheck:
    waiting = DriftCheck.objects.filter(
        property=prop, status__in=[DriftCheckStatus.QUEUED, DriftCheckStatus.RUNNING]
    ).first()
    return waiting or DriftCheck.objects.create(property=prop, requested_by=user)


def drift_checks_run(
    *, client: HubClient | None = None, pacer: Pacer | None = None, budget: timedelta = RUNNER_BUDGET
) -> int:
    """Run the queued checks, oldest first, unless another runner holds the lock (it then runs them).
    One pacer spaces all the reads. A runner starts no check after budget: it queues another runner for
    the rest, so that one run stays within its task's time limit. Returns how many checks this call ran."""
    client = client or get_hub_client()
    pacer = pacer or Pacer.from_settings()
    stop_at = time.monotonic() + budget.total_seconds()
    ran = 0
    out_of_time = False
    while not out_of_time and DriftCheck.objects.filter(status=DriftCheckStatus.QUEUED).exists():
        token = secrets.token_hex(8)
        if not cache.add(RUNNER_LOCK, token, runner_lock_seconds()):
            break
        try:
            _fail_interrupted()
            while not out_of_time and (check := _claim_next()) is not None:
                drift_check_run(check=check, client=client, pacer=pacer)
                ran += 1
                out_of_time = time.monotonic() >= stop_at
        finally:
            if cache.get(RUNNER_LOCK) == token:
                cache.delete(RUNNER_LOCK)
        # A check queued while the lock was being released finds no runner: look once more.
    if out_of_time and DriftCheck.objects.filter(status=DriftCheckStatus.QUEUED).exists():
        job_queue(RUN_TASK)
    return ran


def _fail_interrupted() -> None:
    """Checks left running longer than a runner's lock lasts belong to a runner that died."""
    stale = timezone.now() - timedelta(seconds=runner_lock_seconds())
    DriftCheck.objects.filter(status=DriftCheckStatus.RUNNING, started_at__lt=stale).update(
        status=DriftCheckStatus.FAILED,
        finished_at=timezone.now(),
        error=_("Interrupted: the worker running it stopped. Run the check again."),
    )


def _claim_next() -> DriftCheck | None:
    for check in DriftCheck.objects.filter(status=DriftCheckStatus.QUEUED).order_by("requested_at", "pk")[:5]:
        claimed = DriftCheck.objects.filter(pk=check.pk, status=DriftCheckStatus.QUEUED).update(
            status=DriftCheckStatus.RUNNING, started_at=timezone.now()
        )
        if claimed:
            check.refresh_from_db()
            return check
    return None


def drift_check_run(*, check: DriftCheck, client: HubClient, pacer: Pacer) -> DriftCheck:
    """Read back every resource of the check's property that the hub has acknowledged, compare each with
    the body it acknowledged, and store the differences; no transaction is held across a read.
    A resource the hub answers 404 for is a difference of its own (the hub lost it). Distribution paused:
    the check fails at once, saying so (queued before the pause, it reads nothing from a hub in incident)."""
    if (refusal := hub_paused_refusal()) is not None:
        _finish(check, DriftCheckStatus.FAILED, 0, [], error=refusal)
        return check
    found = []
    read = 0
    try:
        for state, obj in _checked_resources(check.property):
            cache.touch(RUNNER_LOCK, runner_lock_seconds())
            resource = RESOURCES[state.kind]
            params = path_params(obj)
            try:
                response = pacer.call(lambda s=state, p=params: client.call(READ_ENDPOINTS[s.kind], path_params=p))
            except HubHTTPError as error:
                if error.status != 404:
                    raise
                found.append(_difference(state, resource.describe(obj), None))
            else:
                if not isinstance(response.data, dict):
                    raise HubError(
                        _("%(resource)s: the hub answered something other than a JSON object.")
                        % {"resource": resource.describe(obj)}
                    )
                found.extend(
                    _difference(state, resource.describe(obj), difference)
                    for difference in body_differences(state.kind, state.acked_body, response.data)
                )
            read += 1
    except SoftTimeLimitExceeded:
        _finish(
            check, DriftCheckStatus.FAILED, read, [], error=_("The check took longer than a run may: run it again.")
        )
        return check
    except (HubBusy, HubError) as error:
        _finish(
            check,
            DriftCheckStatus.FAILED,
            read,
            [],
            error=_("The hub could not be read: %(message)s") % {"message": error.message},
        )
        return check
    _finish(check, DriftCheckStatus.DONE, read, found)
    return check


def _checked_resources(prop: Property) -> Iterator[tuple[SyncState, Any]]:
    """The property's content that the hub has acknowledged, parents first, with each object loaded."""
    states = SyncState.objects.filter(
        property=prop, kind__in=list(READ_ENDPOINTS), known_to_hub=True, acked_body__isnull=False
    )
    for state in sorted(states, key=lambda s: (RESOURCES[s.kind].rank, s.kind, s.object_id)):
        obj = RESOURCES[state.kind].load(state.object_id)
        if obj is not None:
            yield state, obj


def _difference(state: SyncState, resource_name: str, difference: FieldDifference | None) -> DriftDifference:
    if difference is None:
        return DriftDifference(state=state, resource=resource_name, field="", ours=None, hubs=None, hubs_present=False)
    return DriftDifference(
        state=state,
        resource=resource_name,
        field=difference.field,
        ours=difference.ours if difference.ours_present else None,
        hubs=difference.hubs if difference.hubs_present else None,
        ours_present=difference.ours_present,
        hubs_present=difference.hubs_present,
    )


def _finish(check: DriftCheck, status: str, read: int, differences: list[DriftDifference], *, error: str = "") -> None:
    fields = {
        "status": status,
        "finished_at": timezone.now(),
        "resources_checked": read,
        "difference_count": len(differences),
        "error": error,
    }
    with transaction.atomic():
        if not DriftCheck.objects.filter(pk=check.pk).update(**fields):
            return  # deleted meanwhile, with its property
        for name, value in fields.items():
            setattr(check, name, value)
        for difference in differences:
            difference.check_run = check
        DriftDifference.objects.bulk_create(differences)
        finished = DriftCheck.objects.filter(property_id=check.property_id, finished_at__isnull=False)
        old = finished.order_by("-finished_at", "-pk").values_list("pk", flat=True)[CHECKS_KEPT:]
        DriftCheck.objects.filter(pk__in=list(old)).delete()
        if differences:
            drift_found.send(sender=DriftCheck, check=check)
    drift_check_counted(status)
    logger.info(
        "drift check of property %s: %s, %d resources read, %d differences",
        check.property_id,
        status,
        read,
        len(differences),
    )


def drift_resend(*, check: DriftCheck, difference_ids: list[int] | None = None) -> int:
    """Re-send (ours wins) the resources of the check's differences not re-sent yet, or of only those
    difference_ids: each resource's whole current state at its next send, clearing what the hub holds and
    we do not as far as decision 0004 allows, or re-created when the hub lost it. Returns how many resources."""
    with transaction.atomic():
        rows = check.differences.filter(resent_at__isnull=True).select_related("state")
        if difference_ids is not None:
            # A re-send carries the resource's whole state: it answers every row of that resource.
            chosen = rows.filter(pk__in=difference_ids).values("state_id")
            rows = rows.filter(state_id__in=chosen)
        found = list(rows)
        by_state: dict[int, tuple[SyncState, list[DriftDifference]]] = {}
        for row in found:
            by_state.setdefault(row.state_id, (row.state, []))[1].append(row)
        for state, state_rows in by_state.values():
            sync_state_resend(state, recreate=any(row.missing_at_hub for row in state_rows))
        DriftDifference.objects.filter(pk__in=[row.pk for row in found]).update(resent_at=timezone.now())
    return len(by_state)
