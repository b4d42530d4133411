"""Reads of the sync to the hub that other screens show."""

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db.models import Count, Max, Min, OuterRef, QuerySet, Subquery
from django.db.models.functions import TruncHour

from ..hub.models import HubSwitch
from ..hub.selectors import hub_distribution_paused_since, hub_environment_active
from .choices import SyncStatus
from .models import SyncAttempt, SyncState


def sync_known_to_hub(kind: str, object_id: int) -> bool:
    """Whether the active hub holds the resource: its create (or a 409 that found it there) succeeded, and no
    switch to another hub has come since. Nothing about a resource may be read from a hub before it."""
    return SyncState.objects.filter(kind=kind, object_id=object_id, known_to_hub=True).exists()


def with_sync_state(queryset: QuerySet[Any], kind: str) -> QuerySet[Any]:
    """queryset annotated with each object's sync_status and sync_error (as kind), in the same query."""
    # One row at most (unique kind and object id): no ordering. SyncState's default order joins its
    # property, whose alias then took the place of the outer property in OuterRef: every property of the
    # list showed the status of one of them, and each row's look-up joined the properties.
    states = SyncState.objects.filter(kind=kind, object_id=OuterRef("pk")).order_by()
    return queryset.annotate(
        sync_status=Subquery(states.values("status")[:1]),
        sync_error=Subquery(states.values("last_error")[:1]),
    )


@dataclass
class SwitchProgress:
    """How far the first sync against a switch's hub has got: rows of that hub by status."""

    switch: HubSwitch
    synced: int = 0
    pending: int = 0
    failed: int = 0
    failed_rows: list = field(default_factory=list)
    #: Pending rows whose last try failed (the hub unreachable, busy or erring), waiting for their retry.
    retrying: int = 0
    retrying_rows: list = field(default_factory=list)
    #: When the last resource reached the new hub (None while nothing has).
    last_synced_at: datetime | None = None

    @property
    def total(self) -> int:
        """Every resource the new hub should know."""
        return self.synced + self.pending + self.failed

    @property
    def added(self) -> int:
        """Rows of the new hub made after the switch (a channel's settings, new content): the switch's own
        count stays the one it recorded, and these are told apart."""
        return max(self.total - self.switch.resources, 0)

    @property
    def done(self) -> bool:
        """Nothing is left to send: the summary is final (until content changes again)."""
        return self.pending == 0

    @property
    def elapsed_seconds(self) -> float | None:
        """Seconds from the switch to the last resource synced (one decimal), once done."""
        if not self.done or self.last_synced_at is None:
            return None
        return round(max(self.last_synced_at - self.switch.switched_at, timedelta(0)).total_seconds(), 1)

    @property
    def percent(self) -> int:
        """The share sent successfully, 0 to 100."""
        return round(100 * self.synced / self.total) if self.total else 100


#: How many failed rows the progress lists (the sync state list shows them all).
FAILED_SHOWN = 50


def outbox_backlog() -> dict[str, Any]:
    """What waits for the active hub: changes pending (and since when the oldest), rows failed, and since when
    distribution is paused (ISO 8601; None while it runs)."""
    environment = hub_environment_active()
    paused = hub_distribution_paused_since()
    counts = sync_status_counts(environment)
    oldest = SyncState.objects.filter(environment=environment, status=SyncStatus.PENDING).aggregate(
        oldest=Min("pending_since")
    )["oldest"]
    return {
        "pending": counts.get(SyncStatus.PENDING, 0),
        "oldest_pending_since": oldest,
        "failed": counts.get(SyncStatus.FAILED, 0),
        "paused_since": paused.isoformat() if paused else None,
    }


def sync_attempts_by_hour(since: datetime) -> dict[tuple[datetime, str], int]:
    """{(hour, outcome): count} of the attempts to send to the hub since then, hour truncated in UTC."""
    rows = SyncAttempt.objects.filter(created_at__gte=since).order_by()
    hourly = rows.annotate(hour=TruncHour("created_at", tzinfo=UTC)).values_list("hour", "outcome")
    return {(hour, outcome): count for hour, outcome, count in hourly.annotate(count=Count("id"))}


def outbox_counts() -> dict[tuple[str, str], int]:
    """{(status, kind): count} of the active hub's sync states: the outbox by state and kind."""
    rows = SyncState.objects.filter(environment=hub_environment_active()).order_by()
    return {(status, kind): count for status, kind, count in rows.values_list("status", "kind").annotate(Count("id"))}


def sync_status_counts(environment: str) -> dict[str, int]:
    """{status: count} of the sync states of a hub environment."""
    rows = SyncState.objects.filter(environment=environment).order_by()
    return dict(rows.values_list("status").annotate(count=Count("id")).values_list("status", "count"))


def hub_switch_progress(switch: HubSwitch) -> SwitchProgress:
    """The progress of switch: counts of the rows of its hub environment by status, and the failed ones."""
    rows = SyncState.objects.filter(environment=switch.to_environment)
    counts = sync_status_counts(switch.to_environment)
    last_synced_at = rows.aggregate(last=Max("last_synced_at"))["last"]
    failed = rows.filter(status=SyncStatus.FAILED).select_related("property").order_by("property", "kind")
    retrying = (
        rows.filter(status=SyncStatus.PENDING, failures__gt=0).select_related("property").order_by("next_attempt_at")
    )
    return SwitchProgress(
        switch=switch,
        synced=counts.get(SyncStatus.SYNCED, 0),
        pending=counts.get(SyncStatus.PENDING, 0),
        failed=counts.get(SyncStatus.FAILED, 0),
        failed_rows=list(failed[:FAILED_SHOWN]),
        retrying=retrying.count(),
        retrying_rows=list(retrying[:FAILED_SHOWN]),
        last_synced_at=last_synced_at,
    )


def hub_switch_latest() -> HubSwitch | None:
    """The latest switch, or None before the first."""
    return HubSwitch.objects.select_related("switched_by").first()
