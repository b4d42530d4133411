"""Rates, business days and availability as kinds of hub resource: one request per rate plan
(POST .../ari) or room type (POST .../ari/avails) for the days marked dirty, runs of equal days as one
entry, split at the entry limit of decision 0006."""

from collections import defaultdict
from collections.abc import Callable
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
from .dates import DateRange, ari_window, clamp_ranges, dates_within, merge_ranges
from .models import AriDirtyRange, ChannelRateDay, RatePlanDay
from .selectors.prices import channel_rule_rates
from .services.avail_rules import room_type_availability, room_type_counts
from .services.horizon import hub_days_record

#: The values of a rate plan or room type to send on the days of ranges: (common, {channel id: values}).
PushValues = Callable[[Any, list[DateRange]], tuple[list, dict]]


@dataclass(frozen=True, kw_only=True)
class AriResource(Resource):
    """The per-day values of a rate plan or room type; what to send is read from its dirty ranges."""

    endpoint: endpoints.Endpoint
    section: str
    parent_kind: str
    values: PushValues

    def parents(self, obj):
        # The hub must know the rate plan or room type itself first.
        return [(self.parent_kind, obj)]

    def children(self, state):
        return None  # nothing waits for rates or availability

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
        days = [day for day, _values in common]
        first_push = full or not state.known_to_hub

        def forget_sent(responses: list) -> None:
            # Ranges marked while this send was under way stay for the next one.
            if sent:
                AriDirtyRange.objects.filter(pk__in=sent).delete()
            # What the hub now holds, for the nightly horizon check (a first push starts it over).
            hub_days_record(state, days, replace=first_push)

        return Plan(calls, on_done=forget_sent)


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
    [(date, {...})] and each channel's as {channel_id: [(date, {...})]}. A channel's own rate on a day
    wins; else its price rule's price (integration.ari.selectors.prices); else it sells at the common value."""
    field_name = "rate_modify" if rate_plan.model.type == RatePlanType.PACKAGE else "rate"
    common = {}
    # Tuples, not model instances: a year of a rate plan is 365 rows per send.
    days = RatePlanDay.objects.filter(dates_within(ranges), rate_plan=rate_plan).order_by("date")
    for date, business_day, value in days.values_list("date", "business_day", field_name):
        common[date] = (
            {"business_day": business_day} if value is None else {"business_day": business_day, field_name: value}
        )
    channels = defaultdict(list)
    # Only the channels open for the property get their own values; others' wait until they open (none
    # open: no channel's values to read).
    open_ids = open_channel_ids(rate_plan.property)
    if not open_ids:
        return sorted(common.items()), {}
    overrides = ChannelRateDay.objects.filter(
        dates_within(ranges), rate_plan=rate_plan, channel__channel_id__in=open_ids
    ).values_list("channel__channel_id", "date", field_name)
    by_day = {(channel_id, date): value for channel_id, date, value in overrides}
    ruled = channel_rule_rates(
        rate_plan, {day: values[field_name] for day, values in common.items() if field_name in values}
    )
    for channel_id in sorted({channel_id for channel_id, _date in by_day} | set(ruled)):
        for day in _days(ranges):
            value = by_day.get((channel_id, day))
            if value is None:
                value = ruled.get(channel_id, {}).get(day, common.get(day, {}).get(field_name))
            if value is not None:
                channels[channel_id].append((day, {field_name: value}))
    return sorted(common.items()), dict(channels)


def room_type_push_values(room_type, ranges):
    """The rooms of room_type on the days of ranges, common and per channel, in the same shape as
    rate_plan_push_values: each channel's count worked out now from what is left and its rules
    (integration.ari.services.avail_rules)."""
    available, caps, rules = room_type_availability(room_type, ranges)
    common, channels = room_type_counts(available, caps, rules)
    return common, channels


def _days(ranges):
    return (day for date_range in ranges for day in date_range.days())
