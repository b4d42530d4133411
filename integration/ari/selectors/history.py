"""Reads of the history of rates and availability: the changes, the cells they changed, what those cells
hold now; and the lines an import kept."""

import datetime
from collections.abc import Collection, Sequence
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from core.dates import KOREA

from ...channels.models import SalesChannel
from ...content.models import Property, RatePlan, RoomType
from ..models import (
    AriCellChange,
    AriChangeSet,
    AriImport,
    AriImportLine,
    ChannelAvailDay,
    ChannelRateDay,
    RatePlanDay,
    RoomTypeDay,
)

#: A cell of a change: (rate plan id, room type id, channel id, date, field); one of the ids is None.
CellKey = tuple[int | None, int | None, int | None, datetime.date, str]

#: The most changes a cell's history lists (newest first).
CELL_HISTORY_LIMIT = 50


def ari_cell_history(
    *,
    target: RatePlan | RoomType,
    date: datetime.date,
    channel: SalesChannel | None = None,
    room_type: bool = False,
) -> list[AriCellChange]:
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


def _korea_midnight(day: datetime.date) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time(), tzinfo=KOREA)


def ari_cells_filter(
    *, day: datetime.date | None = None, rate_plan: RatePlan | None = None, room_type: RoomType | None = None
) -> Q:
    """The cells a history filter asks for (a day of the grid, a row), as a Q on AriCellChange."""
    cells = Q()
    if day is not None:
        cells &= Q(date=day)
    if rate_plan is not None:
        cells &= Q(rate_plan=rate_plan)
    if room_type is not None:
        cells &= Q(room_type=room_type)
    return cells


def ari_changes(
    prop: Property,
    *,
    made_from: datetime.date | None = None,
    made_to: datetime.date | None = None,
    user: Any = None,
    cells: Q | None = None,
) -> QuerySet[AriChangeSet]:
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


def ari_change_cells(
    change_sets: Sequence[AriChangeSet], *, cells: Q | None = None, limit: int = CHANGE_CELLS_SHOWN
) -> dict[int, list[AriCellChange]]:
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


def ari_change_cell_counts(change_sets: Sequence[AriChangeSet], cells: Q) -> dict[int, int]:
    """{change set id: how many of its cells match cells}: one query for the page."""
    rows = AriCellChange.objects.filter(cells, change_set__in=[change.pk for change in change_sets]).order_by()
    return dict(rows.values_list("change_set_id").annotate(count=Count("pk")).values_list("change_set_id", "count"))


def ari_current_values(cells: Collection[AriCellChange]) -> dict[CellKey, int | None]:
    """{key: what the cell holds now} for each cell of a change (business days as 1 or 0): one query per
    table the change touched, over its dates."""
    if not cells:
        return {}
    span = {"date__gte": min(cell.date for cell in cells), "date__lte": max(cell.date for cell in cells)}
    plans = {cell.rate_plan_id for cell in cells if cell.rate_plan_id}
    room_types = {cell.room_type_id for cell in cells if cell.room_type_id}
    channels = {cell.channel_id for cell in cells if cell.channel_id}
    now: dict[CellKey, int | None] = {}
    for plan_id, date, rate, modify, business_day in RatePlanDay.objects.filter(
        rate_plan__in=plans, **span
    ).values_list("rate_plan_id", "date", "rate", "rate_modify", "business_day"):
        now[(plan_id, None, None, date, "rate")] = rate
        now[(plan_id, None, None, date, "rate_modify")] = modify
        now[(plan_id, None, None, date, "business_day")] = int(business_day)
    for room_type_id, date, allotment in RoomTypeDay.objects.filter(room_type__in=room_types, **span).values_list(
        "room_type_id", "date", "allotment"
    ):
        now[(None, room_type_id, None, date, "allotment")] = allotment
    if channels:
        for plan_id, channel_id, date, rate, modify in ChannelRateDay.objects.filter(
            rate_plan__in=plans, channel__in=channels, **span
        ).values_list("rate_plan_id", "channel_id", "date", "rate", "rate_modify"):
            now[(plan_id, None, channel_id, date, "rate")] = rate
            now[(plan_id, None, channel_id, date, "rate_modify")] = modify
        for room_type_id, channel_id, date, cap in ChannelAvailDay.objects.filter(
            room_type__in=room_types, channel__in=channels, **span
        ).values_list("room_type_id", "channel_id", "date", "cap"):
            now[(None, room_type_id, channel_id, date, "cap")] = cap
    return now


def ari_import_lines(ari_import: AriImport, *, errors: bool) -> QuerySet[AriImportLine]:
    """The import's lines with errors (errors=True) or that change something, in the file's order."""
    return AriImportLine.objects.filter(ari_import=ari_import, error=errors).order_by("line")
