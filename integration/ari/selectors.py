"""Reads of rates and availability that the edits, the grid, the CSV and the push share."""

import datetime
from dataclasses import dataclass, field

from django.db.models import Count, Exists, F, OuterRef, Q, Window
from django.db.models.functions import RowNumber
from django.utils.translation import pgettext_lazy

from core.dates import KOREA

from ..content.choices import RatePlanType
from ..content.models import RatePlan
from ..sync.choices import SyncStatus
from ..sync.models import ResourceKind, SyncState
from .dates import DateRange, merge_ranges
from .models import AriCellChange, AriChangeSet, AriDirtyRange, RatePlanDay

#: The most changes a cell's history lists (newest first).
CELL_HISTORY_LIMIT = 50


def standalone_rates(room_type_ids, first, last):
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
    }


def rate_plans_of(prop):
    """A property's rate plans with what the grid and the push need, in display order."""
    return list(
        RatePlan.objects.filter(property=prop)
        .select_related("room_type", "model", "property")
        .prefetch_related("room_type__translations", "model__translations")
        .order_by("room_type__name", "-model__type", "model__name")
    )


def ari_cell_history(*, target, date, channel=None, room_type=False):
    """The latest changes of one cell of the grid, newest first, with their change (who, when, through
    which screen): a rate plan's rate, difference and business day, or a room type's rooms to sell;
    with a channel, that channel's own values. room_type: target is a RoomType."""
    return list(
        AriCellChange.objects.filter(**{"room_type" if room_type else "rate_plan": target}, date=date, channel=channel)
        .select_related("change_set__user")
        .order_by("-change_set__created_at", "-pk")[:CELL_HISTORY_LIMIT]
    )


#: The cells the change history names for each change ("and N more" for the rest).
CHANGE_CELLS_SHOWN = 3


def _korea_midnight(day):
    return datetime.datetime.combine(day, datetime.time(), tzinfo=KOREA)


def ari_cells_filter(*, day=None, rate_plan=None, room_type=None):
    """The cells a history filter asks for (a day of the grid, a row), as a Q on AriCellChange."""
    cells = Q()
    if day is not None:
        cells &= Q(date=day)
    if rate_plan is not None:
        cells &= Q(rate_plan=rate_plan)
    if room_type is not None:
        cells &= Q(room_type=room_type)
    return cells


def ari_changes(prop, *, made_from=None, made_to=None, user=None, cells=None):
    """The changes of prop's rates and availability, newest first: made from..to (days in Korea, both
    included), by user, and touching cells (ari_cells_filter) when given."""
    changes = AriChangeSet.objects.filter(property=prop).select_related("user", "undo_of")
    if made_from is not None:
        changes = changes.filter(created_at__gte=_korea_midnight(made_from))
    if made_to is not None:
        changes = changes.filter(created_at__lt=_korea_midnight(made_to + datetime.timedelta(days=1)))
    if user is not None:
        changes = changes.filter(user=user)
    if cells:
        changes = changes.filter(Exists(AriCellChange.objects.filter(cells, change_set=OuterRef("pk"))))
    return changes


def ari_change_cells(change_sets, *, cells=None, limit=CHANGE_CELLS_SHOWN):
    """{change set id: its first `limit` cells (those of cells, when given)} with their rows and names, in
    the same few queries for a page of any size (a window numbers each change's cells)."""
    numbered = AriCellChange.objects.filter(cells or Q(), change_set__in=[change.pk for change in change_sets])
    # In the order of the cells' ids only: the model's order (by their change's time) would join every
    # change of the history to sort a page's cells.
    numbered = (
        numbered.annotate(position=Window(RowNumber(), partition_by=[F("change_set_id")], order_by=[F("pk").asc()]))
        .filter(position__lte=limit)
        .order_by("pk")
    )
    shown: dict[int, list[AriCellChange]] = {}
    for cell in numbered.select_related(
        "rate_plan__model", "rate_plan__room_type", "room_type", "channel"
    ).prefetch_related(
        "rate_plan__model__translations", "rate_plan__room_type__translations", "room_type__translations"
    ):
        shown.setdefault(cell.change_set_id, []).append(cell)
    return shown


def ari_change_cell_counts(change_sets, cells):
    """{change set id: how many of its cells match cells}: one query for the page."""
    rows = AriCellChange.objects.filter(cells, change_set__in=[change.pk for change in change_sets]).order_by()
    return dict(rows.values_list("change_set_id").annotate(count=Count("pk")).values_list("change_set_id", "count"))


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
    unsent: list = field(default_factory=list)

    @property
    def label(self):
        return self.LABELS[self.status]

    @property
    def waiting(self):
        """Still on its way: the calendar refreshes while a row waits."""
        return self.status in (self.PENDING, self.RETRYING)

    def unsent_on(self, day):
        return any(r.start <= day <= r.end for r in self.unsent)


def ari_hub_standing(prop, *, first, last):
    """{(kind, object_id): HubStanding} of every rate plan's rates and room type's availability of prop
    that has an outbox row (rows without one are HubStanding() "not sent"), with the days from first to
    last not yet at the hub: two queries, however many rows and days."""
    kinds = (ResourceKind.ARI_RATES, ResourceKind.ARI_AVAILS)
    standing = {}
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
