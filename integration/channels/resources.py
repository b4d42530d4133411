"""A property's channel requests, sales settings and mapping as kinds of hub resource for the sync engine.

- An open request is POSTed once (operation 24); the hub's review is read back by the services.
- The sales settings are PATCHed (operation 28): what changed since the hub last acknowledged them, or
  the whole body the first time and on a full resync.
- A cms channel's mapping is PUT whole (operation 30) whenever it differs from what the hub holds.
The settings and the mapping name room types and rate plans, which the hub must know first.
"""

from dataclasses import dataclass

from ..content.models import RatePlan, RoomType
from ..hub import endpoints, payloads
from ..sync.models import ResourceKind
from ..sync.resources import Call, Plan, Resource, register
from .models import ChannelOpenRequest, PropertyChannel

#: After the property (an open request) and after the room types and rate plans they name (settings
#: and mapping): a rate plan reaching the hub queues them.
REQUEST_RANK = 1
SETTINGS_RANK = 3


def _params(property_channel):
    return {"pid": property_channel.property.vendor_id, "channel_id": property_channel.channel.channel_id}


def _named_content(property_channel, *id_maps):
    """The room types and rate plans of the property that a settings or mapping body names."""
    room_ids = set(id_maps[0])
    plan_ids = set(id_maps[1])
    rooms = RoomType.objects.filter(property_id=property_channel.property_id, vendor_id__in=room_ids)
    plans = RatePlan.objects.filter(property_id=property_channel.property_id, vendor_id__in=plan_ids)
    return [(ResourceKind.ROOM_TYPE, room) for room in rooms] + [(ResourceKind.RATE_PLAN, plan) for plan in plans]


@dataclass(frozen=True)
class ChannelRequestResource(Resource):
    """An open request: POST once; known to the hub afterwards, it plans no call."""

    def parents(self, obj):
        return [(ResourceKind.PROPERTY, obj.property)]

    def children(self, state):
        return None  # nothing waits for it

    def describe(self, obj):
        return f"{obj.property.vendor_id}/{obj.channel.channel_id}"

    def plan(self, state, obj, *, full):
        if state.known_to_hub or obj.hub_id is not None:
            return Plan([])
        body = payloads.build_open_request(obj, cms=obj.channel.is_cms)
        params = {"pid": obj.property.vendor_id, "channel_id": obj.channel.channel_id}

        def on_done(responses):
            from .services import channel_request_record_submission

            channel_request_record_submission(request_id=obj.pk, answer=responses[0].data)

        return Plan([Call(endpoints.OPEN_REQUEST_CREATE, params, body)], acked_body=body, on_done=on_done)


@dataclass(frozen=True)
class ChannelSettingsResource(Resource):
    """A property's sales settings on an open channel: PATCH what changed (the whole body the first time)."""

    def parents(self, obj):
        return [(ResourceKind.PROPERTY, obj.property), *_named_content(obj, obj.room_types, obj.rate_plans)]

    def describe(self, obj):
        return "/".join(str(value) for value in _params(obj).values())

    def plan(self, state, obj, *, full):
        if not obj.is_open:
            # Prepared while the request is under review: sent once the channel opens (the refresh marks it).
            return Plan([], acked_body=state.acked_body)
        body = payloads.build_channel_settings(obj)
        send = body if full or state.acked_body is None else payloads.merge_patch(state.acked_body, body)
        return Plan([Call(endpoints.CHANNEL_SETTINGS_UPDATE, _params(obj), send)] if send else [], acked_body=body)


@dataclass(frozen=True)
class ChannelMappingResource(Resource):
    """A property's mapping on an open cms channel: PUT the whole mapping when it differs from the hub's."""

    def parents(self, obj):
        return [(ResourceKind.PROPERTY, obj.property), *_named_content(obj, obj.room_type_codes, obj.rate_plan_codes)]

    def describe(self, obj):
        return "/".join(str(value) for value in _params(obj).values())

    def plan(self, state, obj, *, full):
        if not obj.is_open or not obj.channel.is_cms:  # a hub channel has no mapping (a full resync asks)
            return Plan([], acked_body=state.acked_body)
        body = payloads.build_channel_mappings(obj)
        if not full and state.acked_body == body:
            return Plan([], acked_body=body)
        return Plan([Call(endpoints.CHANNEL_MAPPINGS_REPLACE, _params(obj), body)], acked_body=body)


def register_channel_resources():
    """Add open requests, sales settings and mappings to the kinds the sync engine sends (from ready())."""
    register(
        ChannelRequestResource(
            kind=ResourceKind.CHANNEL_REQUEST,
            model=ChannelOpenRequest,
            rank=REQUEST_RANK,
            related=("property", "channel"),
        )
    )
    register(
        ChannelSettingsResource(
            kind=ResourceKind.CHANNEL_SETTINGS,
            model=PropertyChannel,
            rank=SETTINGS_RANK,
            related=("property", "channel"),
        )
    )
    register(
        ChannelMappingResource(
            kind=ResourceKind.CHANNEL_MAPPING,
            model=PropertyChannel,
            rank=SETTINGS_RANK,
            related=("property", "channel"),
        ),
        default_for_model=False,
    )
