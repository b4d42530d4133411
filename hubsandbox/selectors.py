"""Reads of the sandbox hub's content by the ids of the hub's paths; an unknown id is NotFound (404)."""

from enum import StrEnum

from .errors import NotFound
from .hubs import current_hub
from .models import SandboxProperty, SandboxRateplan, SandboxRateplanModel, SandboxRoomtype


class ResourceKind(StrEnum):
    """The four kinds of content; the ids that address one follow its path (see resource_get)."""

    PROPERTY = "property"
    ROOMTYPE = "roomtype"
    RATEPLAN_MODEL = "rateplan_model"
    RATEPLAN = "rateplan"


def property_get(property_id: str, *, for_update: bool = False) -> SandboxProperty:
    """The property at the current hub; with for_update, its row stays locked until the transaction ends."""
    queryset = SandboxProperty.objects.select_for_update() if for_update else SandboxProperty.objects
    found = queryset.filter(hub=current_hub(), vendor_id=property_id).first()
    if found is None:
        raise NotFound(f"property {property_id!r} not found")
    return found


def roomtype_get(prop: SandboxProperty, roomtype_id: str) -> SandboxRoomtype:
    """A room type of the property."""
    found = prop.roomtypes.filter(vendor_id=roomtype_id).first()
    if found is None:
        raise NotFound(f"room type {roomtype_id!r} not found in property {prop.vendor_id!r}")
    found.property = prop
    return found


def rateplan_model_get(prop: SandboxProperty, model_id: str) -> SandboxRateplanModel:
    """A rate plan model of the property."""
    found = prop.rateplan_models.filter(vendor_id=model_id).first()
    if found is None:
        raise NotFound(f"rate plan model {model_id!r} not found in property {prop.vendor_id!r}")
    found.property = prop
    return found


def rateplan_get(roomtype: SandboxRoomtype, rateplan_id: str) -> SandboxRateplan:
    """A rate plan of the room type, with what its read shape needs."""
    found = roomtype.rateplans.select_related("property", "rateplan_model").filter(vendor_id=rateplan_id).first()
    if found is None:
        raise NotFound(
            f"rate plan {rateplan_id!r} not found in room type {roomtype.vendor_id!r} "
            f"of property {roomtype.property.vendor_id!r}"
        )
    found.roomtype = roomtype
    return found


def resource_get(
    kind: ResourceKind | str, *path_ids: str
) -> SandboxProperty | SandboxRoomtype | SandboxRateplanModel | SandboxRateplan:
    """The resource that the ids of its hub path name, in path order, e.g.

    ("p1",) for a property, ("p1", "r1") for a room type, ("p1", "m1") for a rate plan model,
    ("p1", "r1", "rp1") for a rate plan. Raises NotFound naming the first id that is unknown.
    """
    kind = ResourceKind(kind)
    expected = {ResourceKind.PROPERTY: 1, ResourceKind.RATEPLAN: 3}.get(kind, 2)
    if len(path_ids) != expected:
        raise TypeError(f"a {kind} is addressed by {expected} ids, got {len(path_ids)}")
    prop = property_get(path_ids[0])
    if kind is ResourceKind.PROPERTY:
        return prop
    if kind is ResourceKind.RATEPLAN_MODEL:
        return rateplan_model_get(prop, path_ids[1])
    roomtype = roomtype_get(prop, path_ids[1])
    if kind is ResourceKind.ROOMTYPE:
        return roomtype
    return rateplan_get(roomtype, path_ids[2])
