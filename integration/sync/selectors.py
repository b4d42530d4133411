"""Reads of the sync to the hub that other screens show."""

from dataclasses import dataclass, field

from django.db.models import Count, OuterRef, Subquery

from ..hub.models import HubSwitch
from .choices import SyncStatus
from .models import SyncState


def with_sync_state(queryset, kind):
    """queryset annotated with each object's sync_status and sync_error (as kind), in the same query."""
    states = SyncState.objects.filter(kind=kind, object_id=OuterRef("pk"))
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

    @property
    def total(self):
        """Every resource the new hub should know."""
        return self.synced + self.pending + self.failed

    @property
    def done(self):
        """Nothing is left to send: the summary is final (until content changes again)."""
        return self.pending == 0

    @property
    def percent(self):
        """The share sent successfully, 0 to 100."""
        return round(100 * self.synced / self.total) if self.total else 100


#: How many failed rows the progress lists (the sync state list shows them all).
FAILED_SHOWN = 50


def hub_switch_progress(switch):
    """The progress of switch: counts of the rows of its hub environment by status, and the failed ones."""
    rows = SyncState.objects.filter(environment=switch.to_environment)
    counts = dict(rows.values_list("status").annotate(count=Count("id")).values_list("status", "count"))
    failed = rows.filter(status=SyncStatus.FAILED).select_related("property").order_by("property", "kind")
    return SwitchProgress(
        switch=switch,
        synced=counts.get(SyncStatus.SYNCED, 0),
        pending=counts.get(SyncStatus.PENDING, 0),
        failed=counts.get(SyncStatus.FAILED, 0),
        failed_rows=list(failed[:FAILED_SHOWN]),
    )


def hub_switch_latest():
    """The latest switch, or None before the first."""
    return HubSwitch.objects.select_related("switched_by").first()
