"""Reads of rates and availability that the edits, the grid, the CSV and the push share, and where each
row stands with the hub."""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from ...content.choices import RatePlanType
from ...content.models import Property, RatePlan
from ...sync.choices import SyncStatus
from ...sync.models import ResourceKind, SyncState
from ..dates import DateRange, merge_ranges
from ..models import AriDirtyRange, RatePlanDay


def standalone_rates(
    room_type_ids: Iterable[int], first: datetime.date, last: datetime.date
) -> dict[tuple[int, datetime.date], int]:
    """The common rate of each room type's standalone plan from first to last: {(room_type_id, date): rate},
    in one query (package prices are these plus their difference)."""
    return {
        (room_type_id, date): rate
        for room_type_id, date, rate in RatePlanDay.objects.filter(
            rate_plan__room_type__in=list(room_type_ids),
            rate_plan__model__type=RatePlanType.STANDALONE,
            date__gte=first,
            date__lte=last,
            rate__isnull=False,
        ).values_list("rate_plan__room_type_id", "date", "rate")
        if rate is not None
    }


def rate_plans_of(prop: Property) -> list[RatePlan]:
    """A property's rate plans with what the grid and the push need, in display order."""
    return list(
        RatePlan.objects.filter(property=prop)
        .select_related("room_type", "model", "property")
        .prefetch_related("room_type__translations", "model__translations")
        .order_by("room_type__name", "-model__type", "model__name")
    )


@dataclass
class HubStanding:
    """Where a row of the grid (a rate plan's rates, a room type's availability) stands with the hub: its
    outbox row's status in the words staff read, why it failed or retries, and the days not yet there."""

    NOT_SENT = "none"
    PENDING = "pending"
    RETRYING = "retrying"
    SYNCED = "synced"
    FAILED = "failed"
    LABELS = {
        NOT_SENT: pgettext_lazy("hub standing", "Not sent"),
        PENDING: pgettext_lazy("hub standing", "Pending"),
        RETRYING: pgettext_lazy("hub standing", "Retrying"),
        SYNCED: pgettext_lazy("hub standing", "At the hub"),
        FAILED: pgettext_lazy("hub standing", "Failed"),
    }

    status: str = NOT_SENT
    reason: str = ""
    state_id: int | None = None
    #: DateRanges changed since the hub last took them (clipped to the span read).
    unsent: list[DateRange] = field(default_factory=list)

    @property
    def label(self) -> Promise:
        return self.LABELS[self.status]

    @property
    def waiting(self) -> bool:
        """Still on its way: the calendar refreshes while a row waits."""
        return self.status in (self.PENDING, self.RETRYING)

    def unsent_on(self, day: datetime.date) -> bool:
        return any(r.start <= day <= r.end for r in self.unsent)


def ari_hub_standing(
    prop: Property, *, first: datetime.date, last: datetime.date
) -> dict[tuple[str, int], HubStanding]:
    """{(kind, object_id): HubStanding} of every rate plan's rates and room type's availability of prop
    that has an outbox row (rows without one are HubStanding() "not sent"), with the days from first to
    last not yet at the hub: two queries, however many rows and days."""
    kinds = (ResourceKind.ARI_RATES, ResourceKind.ARI_AVAILS)
    standing: dict[tuple[str, int], HubStanding] = {}
    states = SyncState.objects.filter(property=prop, kind__in=kinds).order_by()
    for pk, kind, object_id, status, failures, error in states.values_list(
        "pk", "kind", "object_id", "status", "failures", "last_error"
    ):
        if status == SyncStatus.SYNCED:
            word = HubStanding.SYNCED
        elif status == SyncStatus.FAILED:
            word = HubStanding.FAILED
        else:
            word = HubStanding.RETRYING if failures else HubStanding.PENDING
        reason = error if word in (HubStanding.FAILED, HubStanding.RETRYING) else ""
        standing[(kind, object_id)] = HubStanding(word, reason, pk)
    by_state = {row.state_id: row for row in standing.values()}
    dirty = AriDirtyRange.objects.filter(
        state__property=prop, state__kind__in=kinds, date_to__gte=first, date_from__lte=last
    ).order_by()
    for state_id, date_from, date_to in dirty.values_list("state_id", "date_from", "date_to"):
        row = by_state.get(state_id)
        if row is not None:
            row.unsent.append(DateRange(max(date_from, first), min(date_to, last)))
    for row in by_state.values():
        # Edits of the same days before a send leave overlapping ranges: each day once.
        row.unsent = merge_ranges(row.unsent)
    return standing


def rate_plan_has_rate(rate_plan: RatePlan, day: datetime.date) -> bool:
    """Whether rate_plan has a common rate (or difference) on day."""
    return RatePlanDay.objects.filter(
        Q(rate__isnull=False) | Q(rate_modify__isnull=False), rate_plan=rate_plan, date=day
    ).exists()
