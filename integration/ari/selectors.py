"""Reads of rates and availability that the edits, the grid, the CSV and the push share."""

from ..content.choices import RatePlanType
from ..content.models import RatePlan
from .models import AriCellChange, RatePlanDay

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
