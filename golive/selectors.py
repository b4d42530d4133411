"""The health of one property, for its health page: where its sync to the hub stands, its bookings of
today, the catalog and the go-live checklist, each read with a fixed number of queries."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, TypedDict

from django.conf import settings
from django.db.models import Case, Count, IntegerField, Max, Q, Value, When
from django.db.models.functions import Coalesce
from django.urls import NoReverseMatch, reverse

from bookings.selectors import BookingCounts, booking_counts
from integration.ari.services.horizon import hub_days_ahead
from integration.drift.selectors import property_drift_status
from integration.hub.selectors import hub_distribution_pause_read
from integration.models import AriHorizonCheck, Property
from integration.sync.choices import SyncStatus
from integration.sync.models import ResourceKind, SyncState
from integration.sync.resources import RESOURCES

from .checklist import property_checklist


class _Since(TypedDict):
    since: datetime


if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    #: An outbox row not synced, annotated `since`: when its oldest change not sent was made.
    UnsentState = WithAnnotations[SyncState, _Since]

#: The page lists at most this many resources that failed or wait; the others are counted.
PROBLEMS_SHOWN = 50


@dataclass(frozen=True)
class KindPush:
    """The last successful push of one kind of resource of the property (None: never)."""

    kind: str
    label: str
    last_synced_at: object
    count: int


@dataclass(frozen=True)
class ProblemRow:
    """A resource that failed or waits to be sent, and why."""

    state_id: int
    kind_label: str
    name: str
    status: str
    status_label: str
    reason: str
    since: object
    next_attempt_at: object
    object_url: str
    log_url: str


@dataclass
class PropertyHealth:
    """Everything the health page shows of one property."""

    property: object
    pushes: list
    problems: list
    problems_total: int
    failed_total: int
    oldest_pending: ProblemRow | None
    bookings_today: int | None
    pending_holds: int | None
    checklist: object
    catalog_fetched_at: object = field(default=None)
    drift: object = field(default=None)
    arrivals_today: int | None = field(default=None)
    #: How many days ahead (today included) the hub holds every rate and availability, of how many it should.
    hub_days_ahead: int = field(default=0)
    horizon_days: int = field(default=0)
    #: The last nightly horizon check (None: never run).
    horizon_check: object = field(default=None)
    #: The hub connection's row while distribution to the hub is paused (paused_at, paused_by), else None.
    distribution_paused: object = field(default=None)


def _object_names(states: Sequence[SyncState]) -> dict[tuple[str, int], tuple[str, str]]:
    """{(kind, object_id): (name, admin URL)} of the states' objects: one query per kind present."""
    ids_by_kind: dict[str, set[int]] = {}
    for state in states:
        ids_by_kind.setdefault(state.kind, set()).add(state.object_id)
    names: dict[tuple[str, int], tuple[str, str]] = {}
    for kind, ids in ids_by_kind.items():
        model = RESOURCES[kind].model
        opts = model._meta
        for obj in model._default_manager.filter(pk__in=ids).order_by():
            try:
                url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
            except NoReverseMatch:
                url = ""
            # Models without a vendor id (license requests, say) are named by their number.
            label = getattr(obj, "vendor_id", f"#{obj.pk}")
            names[kind, obj.pk] = (label, url)
    return names


def _problem_rows(states: "Sequence[UnsentState]") -> list[ProblemRow]:
    names = _object_names(states)
    log = reverse("admin:integration_syncattempt_changelist")
    rows = []
    for state in states:
        name, url = names.get((state.kind, state.object_id), (f"#{state.object_id}", ""))
        rows.append(
            ProblemRow(
                state_id=state.pk,
                kind_label=str(ResourceKind(state.kind).label),
                name=name,
                status=state.status,
                status_label=str(SyncStatus(state.status).label),
                reason=state.last_error,
                since=state.since,
                next_attempt_at=state.next_attempt_at,
                object_url=url,
                log_url=f"{log}?state__id__exact={state.pk}",
            )
        )
    return rows


def property_health(prop: Property, *, with_bookings: bool = True) -> PropertyHealth:
    """The health of prop. with_bookings: count today's bookings received, arrivals and pending holds (for users who may
    see bookings). A fixed number of queries, whatever the size of the property."""
    states = SyncState.objects.filter(property=prop)
    pushed = {
        row["kind"]: row
        for row in states.order_by().values("kind").annotate(last=Max("last_synced_at"), count=Count("pk"))
    }
    pushes = [
        KindPush(kind, str(label), pushed[kind]["last"], pushed[kind]["count"])
        for kind, label in ResourceKind.choices
        if kind in pushed
    ]
    unsent = (
        states.exclude(status=SyncStatus.SYNCED)
        .annotate(
            since=Coalesce("pending_since", "updated_at"),
            failed_first=Case(
                When(status=SyncStatus.FAILED, then=Value(0)), default=Value(1), output_field=IntegerField()
            ),
        )
        .only("pk", "kind", "object_id", "status", "last_error", "next_attempt_at", "pending_since", "updated_at")
    )
    totals = unsent.order_by().aggregate(total=Count("pk"), failed=Count("pk", filter=Q(status=SyncStatus.FAILED)))
    shown = list(unsent.order_by("failed_first", "since", "pk")[:PROBLEMS_SHOWN])
    oldest = unsent.order_by("since", "pk").first()
    rows = _problem_rows([*shown, *([oldest] if oldest else [])])
    counts = None
    if with_bookings:
        counts = booking_counts([prop.pk]).get(prop.pk, BookingCounts(0, 0, 0))
    checklist = property_checklist(prop)
    return PropertyHealth(
        property=prop,
        pushes=pushes,
        problems=rows[: len(shown)],
        problems_total=totals["total"],
        failed_total=totals["failed"],
        oldest_pending=rows[-1] if oldest else None,
        bookings_today=counts.received if counts else None,
        pending_holds=counts.pending if counts else None,
        arrivals_today=counts.arrivals if counts else None,
        checklist=checklist,
        catalog_fetched_at=checklist.catalog_fetched_at,
        drift=property_drift_status(prop),
        hub_days_ahead=hub_days_ahead(prop),
        horizon_days=settings.ARI_HORIZON_DAYS,
        horizon_check=AriHorizonCheck.objects.filter(property=prop).first(),
        distribution_paused=hub_distribution_pause_read(),
    )
