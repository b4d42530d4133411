"""What the hub must get again: the dirty ranges of a rate plan's rates or a room type's availability
on its outbox row, recorded in the transaction of the change that makes them."""

import datetime
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import TypeVar

from django.db import connection

from ...channels.models import SalesChannel
from ...content.choices import RatePlanType
from ...content.models import Property, RatePlan, RoomType
from ...sync.models import ResourceKind
from ...sync.services.outbox import sync_state_bump_statement, sync_state_bumped, sync_state_changed, sync_state_ensure
from .. import sql
from ..dates import DateRange, ari_window, ranges_of
from ..models import AriDirtyRange, ChannelAvailDay, ChannelRateDay, RatePlanDay
from ..models_avail import ChannelAvailRule, ChannelLeadDays, PropertyCutoff
from ..models_prices import ChannelPriceRule
from ..sql import Statement

_Target = TypeVar("_Target", RatePlan, RoomType)


def ari_mark_dirty(
    target: RatePlan | RoomType,
    *,
    kind: str,
    dates: Iterable[datetime.date],
    along: Statement | None = None,
    closes: bool = False,
) -> None:
    """Record that the hub must get these days of target (a rate plan's rates or a room type's
    availability) again, and queue the push. Call inside the transaction of the change. along: a
    statement of the change itself (SQL, params) to run first, in the same round trip where the
    database allows it (every booking's hold: its nights' update). Availability, and rates with closes
    (the change closes days for sale), go to the hub ahead of other pending changes (SyncState.urgent)."""
    ranges = ranges_of(dates)
    urgent = closes or kind == ResourceKind.ARI_AVAILS
    if ranges and _dirty_ranges_add(kind, target.pk, ranges, along, urgent=urgent):
        return
    if along is not None and not ranges:
        with connection.cursor() as cursor:
            cursor.execute(*along)
    # The target's first change: its outbox row is created first.
    state = sync_state_ensure(target, kind=kind)
    AriDirtyRange.objects.bulk_create(AriDirtyRange(state=state, date_from=r.start, date_to=r.end) for r in ranges)
    sync_state_changed(state, urgent=urgent)


def ari_channel_opened(prop: Property, channel: SalesChannel) -> None:
    """Queue for the hub the property's own rates and caps for channel within the window, and the prices
    of its price rules: only an open channel's values are pushed (push), so those set or kept while it was
    not open waited for it. Call
    in the transaction that records the channel as open."""
    first, last = ari_window()
    rates = ChannelRateDay.objects.filter(channel=channel, date__range=(first, last), rate_plan__property=prop)
    caps = ChannelAvailDay.objects.filter(channel=channel, date__range=(first, last), room_type__property=prop)
    rates_days = list(rates.values_list("rate_plan_id", "date"))
    # The prices of its rules too (integration.ari.selectors.prices): each ruled standalone plan's common rates.
    ruled = list(ChannelPriceRule.objects.filter(property=prop, channel=channel).values_list("rate_plan_id", flat=True))
    if ruled:
        plans = RatePlan.objects.filter(property=prop, model__type=RatePlanType.STANDALONE)
        if None not in ruled:
            plans = plans.filter(pk__in=list(ruled))
        common = RatePlanDay.objects.filter(rate_plan__in=plans, date__range=(first, last), rate__isnull=False)
        rates_days += common.values_list("rate_plan_id", "date")
    for plan, dates in _dates_of(RatePlan, rates_days):
        ari_mark_dirty(plan, kind=ResourceKind.ARI_RATES, dates=dates)
    for room_type, dates in _dates_of(RoomType, caps.values_list("room_type_id", "date")):
        ari_mark_dirty(room_type, kind=ResourceKind.ARI_AVAILS, dates=dates)
    # Its availability rules, lead days and cut-off: one push of the window per room type.
    if _has_avail_rules(prop, channel):
        for room_type in RoomType.objects.filter(property=prop).select_related("property"):
            ari_mark_dirty(room_type, kind=ResourceKind.ARI_AVAILS, dates=DateRange(first, last).days())


def _has_avail_rules(prop: Property, channel: SalesChannel) -> bool:
    return (
        ChannelAvailRule.objects.filter(property=prop, channel=channel).exists()
        or ChannelLeadDays.objects.filter(property=prop, channel=channel, days__gt=0).exists()
        or PropertyCutoff.objects.filter(property=prop, channels=channel).exists()
    )


def _dates_of(
    model: type[_Target], rows: Iterable[tuple[int, datetime.date]]
) -> list[tuple[_Target, list[datetime.date]]]:
    """(object, its dates) for rows of (object id, date)."""
    dates: dict[int, list[datetime.date]] = defaultdict(list)
    for object_id, day in rows:
        dates[object_id].append(day)
    return [(obj, dates[obj.pk]) for obj in model.objects.filter(pk__in=dates)]


def _dirty_ranges_add(
    kind: str, object_id: int, ranges: Sequence[DateRange], along: Statement | None = None, *, urgent: bool = False
) -> bool:
    """Run along (a statement of the change, or None), add the ranges to the existing outbox row of (kind,
    object_id) and mark it changed, without reading the row first (every booking's hold runs this);
    False when there is no such row (along run all the same, nothing else done). On PostgreSQL one
    statement (along and the ranges' insert in a WITH of the row's update), elsewhere up to three."""
    bump = sync_state_bump_statement(*sql.sync_state_of(kind, object_id), urgent=urgent)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(*sql.dirty_ranges_add_with(bump, ranges, along))
            found = cursor.fetchone()
        else:
            if along:
                cursor.execute(*along)
            cursor.execute(*bump)
            found = cursor.fetchone()
            if found is not None:
                cursor.execute(*sql.dirty_ranges_insert(found[0], ranges))
    if found is None:
        return False
    sync_state_bumped(found[0], claimed=found[1], urgent=urgent)
    return True
