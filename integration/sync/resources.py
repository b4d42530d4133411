"""What the sync engine needs to know of each kind of hub resource: how to load it, its body, its
paths, its parent, and the order in which kinds go out (parents before children)."""

from dataclasses import dataclass
from typing import Any

from ..hub import endpoints, payloads
from ..models import Property, RatePlan, RatePlanModel, ResourceKind, RoomType


@dataclass(frozen=True)
class Resource:
    """One kind of hub resource."""

    kind: str
    model: type
    rank: int
    create: endpoints.Endpoint
    update: endpoints.Endpoint
    build: Any
    related: tuple = ()
    prefetch: tuple = ()

    def load(self, object_id):
        """The object with what its body needs, or None when it no longer exists."""
        queryset = self.model.objects.select_related(*self.related).prefetch_related(*self.prefetch)
        return queryset.filter(pk=object_id).first()


def path_params(obj):
    """The placeholders of the resource's paths (create and update)."""
    if isinstance(obj, Property):
        return {"pid": obj.vendor_id}
    if isinstance(obj, RoomType):
        return {"pid": obj.property.vendor_id, "rid": obj.vendor_id}
    if isinstance(obj, RatePlanModel):
        return {"pid": obj.property.vendor_id, "mid": obj.vendor_id}
    return {"pid": obj.property.vendor_id, "rid": obj.room_type.vendor_id, "rpid": obj.vendor_id}


def parents(obj):
    """The resources the hub must know before this one: (kind, object) pairs."""
    if isinstance(obj, RoomType | RatePlanModel):
        return [(ResourceKind.PROPERTY, obj.property)]
    if isinstance(obj, RatePlan):
        return [(ResourceKind.ROOM_TYPE, obj.room_type), (ResourceKind.RATE_PLAN_MODEL, obj.model)]
    return []


RESOURCES = {
    ResourceKind.PROPERTY: Resource(
        kind=ResourceKind.PROPERTY,
        model=Property,
        rank=0,
        create=endpoints.PROPERTY_CREATE,
        update=endpoints.PROPERTY_UPDATE,
        build=payloads.build_property,
        prefetch=("translations", "photos"),
    ),
    ResourceKind.ROOM_TYPE: Resource(
        kind=ResourceKind.ROOM_TYPE,
        model=RoomType,
        rank=1,
        create=endpoints.ROOMTYPE_CREATE,
        update=endpoints.ROOMTYPE_UPDATE,
        build=payloads.build_roomtype,
        related=("property",),
        prefetch=("translations", "photos"),
    ),
    ResourceKind.RATE_PLAN_MODEL: Resource(
        kind=ResourceKind.RATE_PLAN_MODEL,
        model=RatePlanModel,
        rank=1,
        create=endpoints.RATEPLAN_MODEL_CREATE,
        update=endpoints.RATEPLAN_MODEL_UPDATE,
        build=payloads.build_rateplan_model,
        related=("property",),
        prefetch=("translations",),
    ),
    ResourceKind.RATE_PLAN: Resource(
        kind=ResourceKind.RATE_PLAN,
        model=RatePlan,
        rank=2,
        create=endpoints.RATEPLAN_CREATE,
        update=endpoints.RATEPLAN_UPDATE,
        build=payloads.build_rateplan,
        related=("property", "room_type", "model"),
    ),
}

KIND_OF_MODEL = {resource.model: kind for kind, resource in RESOURCES.items()}
#: Kinds in the order a full send must follow.
KINDS_IN_ORDER = sorted(RESOURCES, key=lambda kind: RESOURCES[kind].rank)
