"""Reads of rates and availability that the edits, the grid, the CSV and the push share."""

from ..content.choices import RatePlanType
from ..content.models import RatePlan
from .models import RatePlanDay


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
