"""Rates, business days and availability as kinds of hub resource: one request per rate plan
(POST .../ari) or room type (POST .../ari/avails) for the days marked dirty, runs of equal days as one
entry, split at the contract's entry limit."""

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from ..channels.selectors import open_channel_ids
from ..content.choices import RatePlanType
from ..content.models import RatePlan, RoomType
from ..content.resources import path_params
from ..hub import endpoints
from ..hub.payloads import build_ari_bodies
from ..sync.models import ResourceKind
from ..sync.resources import Call, Plan, Resource, register
from .dates import DateRange, ari_window, clamp_ranges, merge_ranges
from .models import AriDirtyRange, ChannelAvailDay, ChannelRateDay, RatePlanDay, RoomTypeDay


@dataclass(frozen=True)
class AriResource(Resource):
    """The per-day values of a rate plan or room type; what to send is read from its dirty ranges."""

    endpoint: endpoints.Endpoint = None
    section: str = ""
    parent_kind: str = ""
    values: Any = None

    def parents(self, obj):
        # The hub must know the rate plan or room type itself first.
        return [(self.parent_kind, obj)]

    def describe(self, obj):
        return "/".join(path_params(obj).values())

    def plan(self, state, obj, *, full):
        dirty = list(AriDirtyRange.objects.filter(state=state))
        window = ari_window()
        if full or not state.known_to_hub:
            # A first push (a new rate plan or room type, or a new hub environment) sends every day.
            ranges = [DateRange(*window)]
        else:
            ranges = clamp_ranges(merge_ranges(DateRange(r.date_from, r.date_to) for r in dirty), window)
        common, channels = self.values(obj, ranges) if ranges else ([], {})
        params = path_params(obj)
        calls = [
            Call(self.endpoint, params, body)
            for body in build_ari_bodies(self.section, common, channels)
            if body[self.section] or body.get("channels")
        ]
        sent = [row.pk for row in dirty]
        # Ranges marked while this send was under way stay for the next one.
        return Plan(calls, on_done=lambda responses: AriDirtyRange.objects.filter(pk__in=sent).delete())


def register_ari_resources():
    """Add rates and availability to the kinds the sync engine sends (from the app's ready())."""
    register(
        AriResource(
            kind=ResourceKind.ARI_RATES,
            model=RatePlan,
            rank=3,
            related=("property", "room_type", "model"),
            endpoint=endpoints.ARI_RATES,
            section="rates",
            parent_kind=ResourceKind.RATE_PLAN,
            values=rate_plan_push_values,
        ),
        default_for_model=False,
    )
    register(
        AriResource(
            kind=ResourceKind.ARI_AVAILS,
            model=RoomType,
            rank=2,
            related=("property",),
            endpoint=endpoints.ARI_AVAILS,
            section="avails",
            parent_kind=ResourceKind.ROOM_TYPE,
            values=room_type_push_values,
        ),
        default_for_model=False,
    )


def rate_plan_push_values(rate_plan, ranges):
    """The rates and business days of rate_plan on the days of ranges: the common values as
    [(date, {...})] and each channel's as {channel_id: [(date, {...})]}; a channel without an override
    on a day sells at the common value."""
    field_name = "rate_modify" if rate_plan.model.type == RatePlanType.PACKAGE else "rate"
    dates = [day for date_range in ranges for day in date_range.days()]
    common = {}
    for day in RatePlanDay.objects.filter(rate_plan=rate_plan, date__in=dates).order_by("date"):
        values = {"business_day": day.business_day}
        if getattr(day, field_name) is not None:
            values[field_name] = getattr(day, field_name)
        common[day.date] = values
    channels = defaultdict(list)
    # Only the channels open for the property get their own values; others' wait until they open.
    overrides = ChannelRateDay.objects.filter(
        rate_plan=rate_plan, date__in=dates, channel__channel_id__in=open_channel_ids(rate_plan.property)
    ).select_related("channel")
    channel_ids = {override.channel.channel_id for override in overrides}
    by_day = {(o.channel.channel_id, o.date): getattr(o, field_name) for o in overrides}
    for channel_id in sorted(channel_ids):
        for day in dates:
            value = by_day.get((channel_id, day))
            if value is None:
                value = common.get(day, {}).get(field_name)
            if value is not None:
                channels[channel_id].append((day, {field_name: value}))
    return sorted(common.items()), dict(channels)


def room_type_push_values(room_type, ranges):
    """The available rooms of room_type on the days of ranges, common and per channel (a cap above what
    is left sells only what is left), in the same shape as rate_plan_push_values."""
    dates = [day for date_range in ranges for day in date_range.days()]
    common = {
        day.date: {"count": day.available}
        for day in RoomTypeDay.objects.filter(room_type=room_type, date__in=dates).order_by("date")
    }
    caps = ChannelAvailDay.objects.filter(
        room_type=room_type, date__in=dates, channel__channel_id__in=open_channel_ids(room_type.property)
    ).select_related("channel")
    by_day = {(cap.channel.channel_id, cap.date): cap.cap for cap in caps}
    channels = defaultdict(list)
    for channel_id in sorted({cap.channel.channel_id for cap in caps}):
        for day in dates:
            left = common.get(day, {}).get("count")
            if left is None:
                continue
            cap = by_day.get((channel_id, day))
            channels[channel_id].append((day, {"count": left if cap is None else min(cap, left)}))
    return sorted(common.items()), dict(channels)
