"""Rates, business days and availability as kinds of hub resource: one request per rate plan
(POST .../ari) or room type (POST .../ari/avails) for the days marked dirty, runs of equal days as one
entry, split at the contract's entry limit."""

from dataclasses import dataclass
from typing import Any

from ..ari import DateRange, ari_window, clamp_ranges, merge_ranges, rate_plan_push_values, room_type_push_values
from ..hub import endpoints
from ..hub.payloads import build_ari_bodies
from ..models import AriDirtyRange, RatePlan, ResourceKind, RoomType
from .resources import Call, Plan, Resource, path_params, register


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
        if full:
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
