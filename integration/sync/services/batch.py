"""Sending many resources at once, in this process: what `manage.py hub_sync` and the benchmark run.

The queue sends one resource per task as changes happen; this module is for an operator (or a
benchmark) who wants everything pending, or a full resync, sent now and a summary of how it went.
"""

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ...content.models import Property
from ..choices import SyncStatus
from ..models import SyncState
from ..resources import RESOURCES
from .outbox import sync_state_ensure
from .sender import Outcome, sync_send


@dataclass(frozen=True)
class FailedSend:
    """A resource the hub refused: which one, and what the hub answered."""

    resource: str
    status: int | None
    message: str


@dataclass
class SyncSummary:
    """What a batch send did: how many resources ended in each Outcome, and the failed ones."""

    counts: Counter[Outcome] = field(default_factory=Counter)
    failures: list[FailedSend] = field(default_factory=list)

    @property
    def total(self) -> int:
        """How many resources the batch went through."""
        return sum(self.counts.values())


def sync_pending(
    *,
    full: bool = False,
    property: Property | None = None,
    progress: Callable[[list[int]], Iterable[int]] | None = None,
) -> SyncSummary:
    """Send now every pending resource, parents before children; returns a SyncSummary.

    full: a full resync. Every property, room type, rate plan model and rate plan gets an outbox row if
    it had none, and each is sent whole (POST if the hub has never acknowledged it, else a PATCH of
    every field), whatever its status.
    property: only that property's resources.
    progress: wraps the ordered list of state ids and yields them (tqdm, say), to show how far it got.
    Retries are not queued: a row that needs one stays pending, for the queue's sweeper or the next run.
    """
    if full:
        sync_states_ensure_all(property=property)
    state_ids = _planned(full=full, property=property)
    outcomes = _send_all(state_ids, full=full, progress=progress)
    summary = SyncSummary()
    for state_id in state_ids:
        summary.counts[outcomes[state_id]] += 1
        if outcomes[state_id] is Outcome.FAILED:
            summary.failures.append(_failed_send(state_id))
    return summary


def _planned(*, full: bool, property: Property | None) -> list[int]:
    """The ids of the rows a batch sends (every row with full, else the pending ones; of property), parents
    first across the whole batch, so a child never waits for a parent sent later in the run."""
    rows = SyncState.objects.all() if full else SyncState.objects.filter(status=SyncStatus.PENDING)
    if property is not None:
        rows = rows.filter(property=property)
    planned = sorted(
        rows.values_list("kind", "property_id", "object_id", "pk"),
        key=lambda row: (RESOURCES[row[0]].rank, *row),
    )
    return [row[-1] for row in planned]


def _send_all(
    state_ids: list[int], *, full: bool, progress: Callable[[list[int]], Iterable[int]] | None
) -> dict[int, Outcome]:
    """Send the rows in order; {state id: Outcome}. A resource may wait for one of its own rank sent after
    it (a package model for the standalone model): those go again, in order, for as long as a round sends
    any."""
    outcomes = {}
    for state_id in progress(state_ids) if progress else state_ids:
        outcomes[state_id] = sync_send(state_id, full=full, schedule=False)
    waiting = [state_id for state_id in state_ids if outcomes[state_id] is Outcome.WAITING]
    while waiting:
        for state_id in waiting:
            outcomes[state_id] = sync_send(state_id, full=full, schedule=False)
        still = [state_id for state_id in waiting if outcomes[state_id] is Outcome.WAITING]
        if len(still) == len(waiting):
            break
        waiting = still
    return outcomes


def sync_states_ensure_all(*, property: Property | None = None) -> None:
    """Give every resource (of property) an outbox row, so that a full resync also reaches what was never
    marked changed (content loaded by a script or a restore, say)."""
    for kind, resource in RESOURCES.items():
        objects = resource.model._default_manager.all()
        if property is not None:
            objects = (
                objects.filter(pk=property.pk) if resource.model is Property else objects.filter(property=property)
            )
        with_state = SyncState.objects.filter(kind=kind).values("object_id")
        for obj in objects.exclude(pk__in=with_state):
            sync_state_ensure(obj, kind=kind)


def _failed_send(state_id: int) -> FailedSend:
    state = SyncState.objects.get(pk=state_id)
    resource = RESOURCES[state.kind]
    obj = resource.load(state.object_id)
    # The kind and how the hub names it ("roomtype prop-a/room-1").
    where = resource.describe(obj) if obj is not None else f"#{state.object_id}"
    return FailedSend(
        resource=f"{state.kind} {where}",
        status=state.last_status_code,
        message=state.last_error,
    )
