"""What the sync engine needs to know of each kind of hub resource: how to load it, what to send for
it, its parents, and the order in which kinds go out (parents before children).

A resource plans a send as a list of calls; the sender makes them, records each attempt, and handles
retries and failures the same way for every kind.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..hub import endpoints, payloads
from ..models import Property, RatePlan, RatePlanModel, ResourceKind, RoomType


class PlanError(Exception):
    """What to send cannot be built (a license's file is gone, say): the resource is failed with this
    message, for staff to see, instead of the send crashing again at every retry."""


@dataclass(frozen=True)
class Call:
    """One request to the hub. if_exists is the call to make instead when the hub answers 409 (OURS:
    the resource exists already)."""

    endpoint: endpoints.Endpoint
    params: dict
    body: Any
    if_exists: "Call | None" = None


@dataclass
class Plan:
    """What one send does: its calls (none when the hub is up to date), the body the hub holds once they
    succeed, and what to do then."""

    calls: list[Call]
    acked_body: Any = None
    on_done: Callable[[list], None] | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Resource:
    """One kind of hub resource."""

    kind: str
    model: type
    rank: int
    related: tuple = ()
    prefetch: tuple = ()

    def load(self, object_id):
        """The object with what its calls need, or None when it no longer exists."""
        queryset = self.model.objects.select_related(*self.related).prefetch_related(*self.prefetch)
        return queryset.filter(pk=object_id).first()

    def parents(self, obj):
        """The resources the hub must know before this one: (kind, object) pairs."""
        return []

    def plan(self, state, obj, *, full):
        """The calls that bring the hub up to date with obj (full: its whole state, a resync); raises
        PlanError when they cannot be built."""
        raise NotImplementedError

    def describe(self, obj):
        """How the hub and its logs name obj, for summaries."""
        return str(obj)


@dataclass(frozen=True)
class ContentResource(Resource):
    """Property, room type, rate plan model or rate plan: POST once, then PATCH what changed."""

    create: endpoints.Endpoint = None
    update: endpoints.Endpoint = None
    build: Any = None

    def parents(self, obj):
        return content_parents(obj)

    def describe(self, obj):
        return "/".join(path_params(obj).values())

    def plan(self, state, obj, *, full):
        body = self.build(obj)
        params = path_params(obj)
        if not state.known_to_hub:
            patch_all = Call(self.update, params, payloads.full_patch_body(self.kind, body))
            return Plan([Call(self.create, params, body, if_exists=patch_all)], acked_body=body)
        if full:
            send = payloads.full_patch_body(self.kind, body)
        else:
            send = payloads.patch_body(self.kind, state.acked_body, body)
        return Plan([Call(self.update, params, send)] if send else [], acked_body=body)


def path_params(obj):
    """The placeholders of the resource's paths (create and update)."""
    if isinstance(obj, Property):
        return {"pid": obj.vendor_id}
    if isinstance(obj, RoomType):
        return {"pid": obj.property.vendor_id, "rid": obj.vendor_id}
    if isinstance(obj, RatePlanModel):
        return {"pid": obj.property.vendor_id, "mid": obj.vendor_id}
    return {"pid": obj.property.vendor_id, "rid": obj.room_type.vendor_id, "rpid": obj.vendor_id}


def content_parents(obj):
    """The content the hub must know before obj: (kind, object) pairs."""
    if isinstance(obj, RoomType | RatePlanModel):
        return [(ResourceKind.PROPERTY, obj.property)]
    if isinstance(obj, RatePlan):
        return [(ResourceKind.ROOM_TYPE, obj.room_type), (ResourceKind.RATE_PLAN_MODEL, obj.model)]
    return []


RESOURCES = {
    ResourceKind.PROPERTY: ContentResource(
        kind=ResourceKind.PROPERTY,
        model=Property,
        rank=0,
        create=endpoints.PROPERTY_CREATE,
        update=endpoints.PROPERTY_UPDATE,
        build=payloads.build_property,
        prefetch=("translations", "photos"),
    ),
    ResourceKind.ROOM_TYPE: ContentResource(
        kind=ResourceKind.ROOM_TYPE,
        model=RoomType,
        rank=1,
        create=endpoints.ROOMTYPE_CREATE,
        update=endpoints.ROOMTYPE_UPDATE,
        build=payloads.build_roomtype,
        related=("property",),
        prefetch=("translations", "photos"),
    ),
    ResourceKind.RATE_PLAN_MODEL: ContentResource(
        kind=ResourceKind.RATE_PLAN_MODEL,
        model=RatePlanModel,
        rank=1,
        create=endpoints.RATEPLAN_MODEL_CREATE,
        update=endpoints.RATEPLAN_MODEL_UPDATE,
        build=payloads.build_rateplan_model,
        related=("property",),
        prefetch=("translations",),
    ),
    ResourceKind.RATE_PLAN: ContentResource(
        kind=ResourceKind.RATE_PLAN,
        model=RatePlan,
        rank=2,
        create=endpoints.RATEPLAN_CREATE,
        update=endpoints.RATEPLAN_UPDATE,
        build=payloads.build_rateplan,
        related=("property", "room_type", "model"),
    ),
}

#: The kind an object of each model is synced as when no kind is named (a rate plan's content, say,
#: rather than its rates).
KIND_OF_MODEL = {resource.model: kind for kind, resource in RESOURCES.items()}


def register(resource, *, default_for_model=True):
    """Add a kind of hub resource that another app owns (licenses, rates and availability); call it
    from the app's ready()."""
    RESOURCES[resource.kind] = resource
    if default_for_model:
        KIND_OF_MODEL.setdefault(resource.model, resource.kind)
