"""Writes of the sandbox hub's content, with the hub's rules.

Each function validates the body (ValidationError, 400), looks up the path's parents (NotFound, 404),
refuses a create of an existing id (Conflict, 409) and applies a PATCH as an RFC 7396 merge patch.
Writes under a property lock its row first, so that checks across its resources (exactly one standalone
model once rate plans arrive, one rate plan per room type and model) hold under concurrent requests.
"""

from django.db import IntegrityError, transaction

from . import selectors
from .errors import Conflict
from .hubs import current_hub
from .models import RateplanModelType, SandboxProperty, SandboxRateplan, SandboxRateplanModel, SandboxRoomtype
from .validation import (
    ValidationError,
    validate_property,
    validate_rateplan,
    validate_rateplan_model,
    validate_roomtype,
    validate_sale_window,
)

# What a resource holds for the fields its create body left out. The spec's read shapes require
# status, the tag lists, photos and (for models) type and refundable, but its create bodies require
# only id (and i18n for models); these defaults are OURS (decision 0021).
PROPERTY_DEFAULTS = {
    "status": "enabled",
    "i18n": [],
    "classifications": [],
    "property_tags": [],
    "facility_tags": [],
    "service_tags": [],
    "attraction_tags": [],
    "photos": [],
}
ROOMTYPE_DEFAULTS = {
    "status": "enabled",
    "i18n": [],
    "roomtype_tags": [],
    "amenity_tags": [],
    "view_tags": [],
    "photos": [],
}
RATEPLAN_MODEL_DEFAULTS = {"refundable": False}
RATEPLAN_MODEL_DEFAULT_TYPE = RateplanModelType.PACKAGE
RATEPLAN_DEFAULT_STATUS = "enabled"

# Fields that are objects with named members: a PATCH merges them member by member (RFC 7396). The
# spec's maps (refunds, details) and every array replace the stored value instead.
_PROPERTY_OBJECTS = frozenset({"settings"})
_ROOMTYPE_OBJECTS = frozenset({"bedtype"})


def merge_patch(stored: dict, patch: dict, *, objects: frozenset[str] = frozenset()) -> dict:
    """RFC 7396 as the spec applies it: null removes a field, the fields named in objects merge member
    by member, any other value (arrays and maps included) replaces. Returns a new dict."""
    merged = dict(stored)
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        elif key in objects:
            merged[key] = merge_patch(merged.get(key, {}), value)
        else:
            merged[key] = value
    return merged


# --- Properties --------------------------------------------------------------------------------


def property_create(*, body: dict) -> SandboxProperty:
    """POST /gds/vendor/properties."""
    cleaned = validate_property(body, create=True)
    vendor_id = cleaned.pop("id")
    content = merge_patch(PROPERTY_DEFAULTS, cleaned, objects=_PROPERTY_OBJECTS)
    try:
        with transaction.atomic():
            return SandboxProperty.objects.create(hub=current_hub(), vendor_id=vendor_id, content=content)
    except IntegrityError:
        raise Conflict(f"property {vendor_id!r} already exists") from None


def property_update(*, property_id: str, body: dict) -> SandboxProperty:
    """PATCH /gds/vendor/properties/{pid}."""
    with transaction.atomic():
        prop = selectors.property_get(property_id, for_update=True)
        cleaned = validate_property(body, create=False)
        prop.content = merge_patch(prop.content, cleaned, objects=_PROPERTY_OBJECTS)
        prop.save(update_fields=["content", "updated_at"])
    return prop


# --- Room types --------------------------------------------------------------------------------


def roomtype_create(*, property_id: str, body: dict) -> SandboxRoomtype:
    """POST /gds/vendor/properties/{pid}/roomtypes."""
    with transaction.atomic():
        prop = selectors.property_get(property_id, for_update=True)
        cleaned = validate_roomtype(body, create=True)
        vendor_id = cleaned.pop("id")
        if prop.roomtypes.filter(vendor_id=vendor_id).exists():
            raise Conflict(f"room type {vendor_id!r} already exists in property {property_id!r}")
        content = merge_patch(ROOMTYPE_DEFAULTS, cleaned, objects=_ROOMTYPE_OBJECTS)
        return SandboxRoomtype.objects.create(property=prop, vendor_id=vendor_id, content=content)


def roomtype_update(*, property_id: str, roomtype_id: str, body: dict) -> SandboxRoomtype:
    """PATCH /gds/vendor/properties/{pid}/roomtypes/{rid}."""
    with transaction.atomic():
        roomtype = selectors.roomtype_get(selectors.property_get(property_id, for_update=True), roomtype_id)
        cleaned = validate_roomtype(body, create=False)
        roomtype.content = merge_patch(roomtype.content, cleaned, objects=_ROOMTYPE_OBJECTS)
        roomtype.save(update_fields=["content", "updated_at"])
    return roomtype


# --- Rate plan models --------------------------------------------------------------------------


def _refuse_without_one_standalone(prop: SandboxProperty) -> None:
    """SPEC: "each property must have exactly one standalone model". A property cannot have one from its
    creation, so the hub checks it where it matters (OURS, decision 0021): when a rate plan arrives, since a plan's
    rates are the standalone plan's or a difference against them. A second standalone is refused on its own,
    and so is a PATCH that makes the standalone model a package (below): once a property has its standalone
    model, it keeps exactly one."""
    if not prop.rateplan_models.filter(type=RateplanModelType.STANDALONE).exists():
        raise ValidationError(
            f"vendor_rateplan_model_id: property {prop.vendor_id!r} has no standalone rate plan model; "
            "a property has exactly one, before any rate plan"
        )


def _refuse_second_standalone(prop: SandboxProperty, model_id: str) -> None:
    other = prop.rateplan_models.filter(type=RateplanModelType.STANDALONE).exclude(vendor_id=model_id).first()
    if other is not None:
        raise ValidationError(
            f"type: property {prop.vendor_id!r} already has a standalone rate plan model ({other.vendor_id!r}); "
            "a property has exactly one"
        )


def _refuse_leaving_none(prop: SandboxProperty, model_id: str) -> None:
    """SPEC: exactly one standalone model per property: the one a property has cannot become a package, as
    that would leave none (and a second one cannot be made standalone first), so the role stays with it."""
    raise ValidationError(
        f"type: rate plan model {model_id!r} is the standalone rate plan model of property {prop.vendor_id!r}; "
        "a property has exactly one, so it cannot become a package"
    )


def rateplan_model_create(*, property_id: str, body: dict) -> SandboxRateplanModel:
    """POST /gds/vendor/properties/{pid}/rateplan-models."""
    with transaction.atomic():
        prop = selectors.property_get(property_id, for_update=True)
        cleaned = validate_rateplan_model(body, create=True)
        vendor_id = cleaned.pop("id")
        model_type = cleaned.pop("type", RATEPLAN_MODEL_DEFAULT_TYPE)
        if prop.rateplan_models.filter(vendor_id=vendor_id).exists():
            raise Conflict(f"rate plan model {vendor_id!r} already exists in property {property_id!r}")
        if model_type == RateplanModelType.STANDALONE:
            _refuse_second_standalone(prop, vendor_id)
        content = merge_patch(RATEPLAN_MODEL_DEFAULTS, cleaned)
        validate_sale_window(content)
        return SandboxRateplanModel.objects.create(property=prop, vendor_id=vendor_id, type=model_type, content=content)


def rateplan_model_update(*, property_id: str, model_id: str, body: dict) -> SandboxRateplanModel:
    """PATCH /gds/vendor/properties/{pid}/rateplan-models/{mid}; the body must carry i18n."""
    with transaction.atomic():
        model = selectors.rateplan_model_get(selectors.property_get(property_id, for_update=True), model_id)
        cleaned = validate_rateplan_model(body, create=False)
        model_type = cleaned.pop("type", model.type)
        if model_type == RateplanModelType.STANDALONE:
            _refuse_second_standalone(model.property, model_id)
        elif model.type == RateplanModelType.STANDALONE:
            _refuse_leaving_none(model.property, model_id)
        model.type = model_type
        model.content = merge_patch(model.content, cleaned)
        validate_sale_window(model.content)
        model.save(update_fields=["type", "content", "updated_at"])
    return model


# --- Rate plans --------------------------------------------------------------------------------


def rateplan_create(*, property_id: str, roomtype_id: str, body: dict) -> SandboxRateplan:
    """POST /gds/vendor/properties/{pid}/roomtypes/{rid}/rateplans.

    Rate plan ids are unique within the property (the hub's channel settings name rate plans by id per
    property), and a room type has one rate plan per model (a rate plan is their combination): OURS (decision 0021).
    """
    with transaction.atomic():
        prop = selectors.property_get(property_id, for_update=True)
        roomtype = selectors.roomtype_get(prop, roomtype_id)
        cleaned = validate_rateplan(body, create=True)
        vendor_id, model_id = cleaned["id"], cleaned["vendor_rateplan_model_id"]
        model = prop.rateplan_models.filter(vendor_id=model_id).first()
        if model is None:
            raise ValidationError(
                f"vendor_rateplan_model_id: no rate plan model {model_id!r} in property {property_id!r}"
            )
        _refuse_without_one_standalone(prop)
        if prop.rateplans.filter(vendor_id=vendor_id).exists():
            raise Conflict(f"rate plan {vendor_id!r} already exists in property {property_id!r}")
        twin = roomtype.rateplans.filter(rateplan_model=model).first()
        if twin is not None:
            raise Conflict(
                f"room type {roomtype_id!r} already has rate plan {twin.vendor_id!r} for rate plan model {model_id!r}"
            )
        return SandboxRateplan.objects.create(
            property=prop,
            roomtype=roomtype,
            rateplan_model=model,
            vendor_id=vendor_id,
            content={"status": cleaned.get("status", RATEPLAN_DEFAULT_STATUS)},
        )


def rateplan_update(*, property_id: str, roomtype_id: str, rateplan_id: str, body: dict) -> SandboxRateplan:
    """PATCH /gds/vendor/properties/{pid}/roomtypes/{rid}/rateplans/{rpid}: status only."""
    with transaction.atomic():
        prop = selectors.property_get(property_id, for_update=True)
        rateplan = selectors.rateplan_get(selectors.roomtype_get(prop, roomtype_id), rateplan_id)
        cleaned = validate_rateplan(body, create=False)
        rateplan.content = merge_patch(rateplan.content, cleaned)
        rateplan.save(update_fields=["content", "updated_at"])
    return rateplan


# --- Changes behind the vendor's back ----------------------------------------------------------


def hub_copy_alter(
    *, resource: SandboxProperty | SandboxRoomtype | SandboxRateplanModel | SandboxRateplan, patch: dict
) -> SandboxProperty | SandboxRoomtype | SandboxRateplanModel | SandboxRateplan:
    """Change the hub's copy of a content resource as an operator at the hub might, behind the vendor's
    back: patch is merged as a PATCH would be (null removes a field) but without the hub's validation,
    and nothing tells the vendor. For the drift check's tests and demos."""
    objects = {SandboxProperty: _PROPERTY_OBJECTS, SandboxRoomtype: _ROOMTYPE_OBJECTS}.get(type(resource), frozenset())
    with transaction.atomic():
        resource.content = merge_patch(resource.content, patch, objects=objects)
        resource.save(update_fields=["content", "updated_at"])
    return resource
