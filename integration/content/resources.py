"""Properties, room types, rate plan models and rate plans as kinds of hub resource: POST once, then PATCH
what changed (merge-patch)."""

from dataclasses import dataclass, field, replace
from typing import Any

from django.db.models import Exists, Q
from django.utils.translation import gettext_lazy as _

from ..catalog.selectors import hub_codes_read
from ..hub import endpoints, payloads
from ..sync.models import ResourceKind
from ..sync.resources import Call, Plan, PlanError, Resource, kinds_of_rank, register
from .choices import Locale, RatePlanType
from .models import Property, RatePlan, RatePlanModel, RoomType


@dataclass(frozen=True)
class ContentResource(Resource):
    """Property, room type, rate plan model or rate plan: POST once, then PATCH what changed."""

    create: endpoints.Endpoint = field(kw_only=True)
    update: endpoints.Endpoint = field(kw_only=True)
    build: Any = None
    #: Whether its body carries catalog codes (tag fields), which go out through the code mapping table.
    coded: bool = False

    def parents(self, obj):
        return content_parents(obj)

    def blocked(self, obj):
        return standalone_missing(obj)

    def children(self, state):
        if self.kind == ResourceKind.PROPERTY:
            return super().children(state)  # all of the property's next rank waits for the property
        others = [kind for kind in kinds_of_rank(self.rank + 1) if kind not in _NAMED_CHILDREN]
        children = content_children(state)
        return children | Q(property_id=state.property_id, kind__in=others) if others else children

    def describe(self, obj):
        return "/".join(path_params(obj).values())

    def body(self, obj):
        """The hub's full body of obj, its codes as the hub's; raises PlanError naming the codes that
        are neither mapped nor in the catalog, so that nothing is sent until staff fix them."""
        if not self.coded:
            return self.build(obj)
        hub_codes = hub_codes_read()
        body = self.build(obj, hub_codes=hub_codes)
        if hub_codes.unknown:
            raise PlanError(hub_codes.problem(self.model))
        return body

    def plan(self, state, obj, *, full):
        body = self.body(obj)
        params = path_params(obj)
        create = Call(self.create, params, body)
        if not state.known_to_hub:
            _require_korean(self.kind, body)
            patch_all = Call(self.update, params, payloads.full_patch_body(self.kind, body))
            return Plan([replace(create, if_exists=patch_all)], acked_body=body)
        _refuse_leaving_no_standalone(self.kind, state.acked_body, body)
        # A full resync, or a row whose acknowledged body was dropped (the drift check's re-send), does not
        # know what the hub holds: everything goes, and what we lack is cleared.
        send = payloads.patch_body(self.kind, None if full else state.acked_body, body)
        # A hub that answers 404 does not know the resource (another environment, say): create it there.
        return Plan([Call(self.update, params, send, if_missing=create)] if send else [], acked_body=body)


#: The kinds whose create body needs a ko-KR translation (SPEC; the sandbox refuses them without).
KOREAN_REQUIRED = {
    ResourceKind.PROPERTY: _("a property"),
    ResourceKind.ROOM_TYPE: _("a room type"),
    ResourceKind.RATE_PLAN_MODEL: _("a rate plan model"),
}


def _require_korean(kind, body):
    """Refuse to create, with a message staff can act on, what the hub would refuse for lack of Korean."""
    if kind in KOREAN_REQUIRED and Locale.KO_KR not in {entry["locale"] for entry in body.get("i18n", [])}:
        raise PlanError(
            _("Add a Korean (ko-KR) translation first: the hub requires one to create %(what)s.")
            % {"what": KOREAN_REQUIRED[kind]}
        )


def _refuse_leaving_no_standalone(kind, acked_body, body):
    """Refuse, with a message staff can act on, to turn the model the hub holds as the property's standalone
    one into a package: the hub keeps exactly one per property (SPEC), so it would refuse the PATCH, and no
    other model can take the role there (decision 0021)."""
    was = (acked_body or {}).get("type")
    if kind == ResourceKind.RATE_PLAN_MODEL and was == RatePlanType.STANDALONE and body.get("type") != was:
        raise PlanError(
            _(
                "The hub holds this model as the property's standalone rate plan model and keeps exactly one "
                "per property: set its type back to standalone (the role cannot move to another model there)."
            )
        )


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
    """The content the hub must know before obj: (kind, object) pairs. A package model, and a rate plan
    of one, also wait for the property's standalone model (SPEC: each property has exactly one)."""
    if isinstance(obj, RoomType):
        return [(ResourceKind.PROPERTY, obj.property)]
    parents: list[tuple[ResourceKind, Property | RoomType | RatePlanModel]]
    if isinstance(obj, RatePlanModel):
        parents, model = [(ResourceKind.PROPERTY, obj.property)], obj
    elif isinstance(obj, RatePlan):
        parents, model = [(ResourceKind.ROOM_TYPE, obj.room_type), (ResourceKind.RATE_PLAN_MODEL, obj.model)], obj.model
    else:
        return []
    standalone = _standalone_model(model)
    if standalone is not None and standalone.pk != model.pk:
        parents.append((ResourceKind.RATE_PLAN_MODEL, standalone))
    return parents


def content_children(state):
    """The rows that wait for a room type, rate plan model or rate plan (Resource.children): a room
    type's rate plans and availability, a model's rate plans (and a standalone model's package models),
    a rate plan's rates and business days."""
    kind, object_id = state.kind, state.object_id
    if kind == ResourceKind.ROOM_TYPE:
        plans = RatePlan.objects.filter(room_type_id=object_id).values("pk")
        availability = Q(kind=ResourceKind.ARI_AVAILS, object_id=object_id)
        return Q(kind=ResourceKind.RATE_PLAN, object_id__in=plans) | availability
    if kind == ResourceKind.RATE_PLAN_MODEL:
        plans = RatePlan.objects.filter(model_id=object_id).values("pk")
        is_standalone = Exists(RatePlanModel.objects.filter(pk=object_id, type=RatePlanType.STANDALONE))
        packages = RatePlanModel.objects.filter(is_standalone, property_id=state.property_id, type=RatePlanType.PACKAGE)
        return Q(kind=ResourceKind.RATE_PLAN, object_id__in=plans) | Q(
            kind=ResourceKind.RATE_PLAN_MODEL, object_id__in=packages.values("pk")
        )
    return Q(kind=ResourceKind.ARI_RATES, object_id=object_id)


#: The kinds content_children names exactly; other areas' kinds (channel settings and mappings, which
#: wait for the room types and rate plans they name) are released by property, as they are few.
_NAMED_CHILDREN = {
    ResourceKind.RATE_PLAN,
    ResourceKind.RATE_PLAN_MODEL,
    ResourceKind.ARI_AVAILS,
    ResourceKind.ARI_RATES,
}


def _standalone_model(model):
    """The standalone model of model's property (model itself when it is the one), or None."""
    if model.type == RatePlanType.STANDALONE:
        return model
    return RatePlanModel.objects.filter(property_id=model.property_id, type=RatePlanType.STANDALONE).first()


def standalone_missing(obj):
    """Why a rate plan model or rate plan cannot go to the hub yet: its property has no standalone model
    (SPEC: exactly one per property; the hub checks it when rate plans arrive); "" otherwise."""
    model = obj.model if isinstance(obj, RatePlan) else obj if isinstance(obj, RatePlanModel) else None
    if model is None or _standalone_model(model) is not None:
        return ""
    return str(
        _(
            "Add the property's standalone rate plan model first: the hub requires exactly one per property, "
            "so its package models and rate plans wait until it has one."
        )
    )


def register_content_resources():
    """Add properties, room types, rate plan models and rate plans to the kinds the sync engine sends (from
    the app's ready(); they come first, so each is its model's kind by default)."""
    register(
        ContentResource(
            kind=ResourceKind.PROPERTY,
            model=Property,
            rank=0,
            create=endpoints.PROPERTY_CREATE,
            update=endpoints.PROPERTY_UPDATE,
            build=payloads.build_property,
            coded=True,
            prefetch=("translations", "photos"),
        )
    )
    register(
        ContentResource(
            kind=ResourceKind.ROOM_TYPE,
            model=RoomType,
            rank=1,
            create=endpoints.ROOMTYPE_CREATE,
            update=endpoints.ROOMTYPE_UPDATE,
            build=payloads.build_roomtype,
            coded=True,
            related=("property",),
            prefetch=("translations", "photos"),
        )
    )
    register(
        ContentResource(
            kind=ResourceKind.RATE_PLAN_MODEL,
            model=RatePlanModel,
            rank=1,
            create=endpoints.RATEPLAN_MODEL_CREATE,
            update=endpoints.RATEPLAN_MODEL_UPDATE,
            build=payloads.build_rateplan_model,
            related=("property",),
            prefetch=("translations",),
        )
    )
    register(
        ContentResource(
            kind=ResourceKind.RATE_PLAN,
            model=RatePlan,
            rank=2,
            create=endpoints.RATEPLAN_CREATE,
            update=endpoints.RATEPLAN_UPDATE,
            build=payloads.build_rateplan,
            related=("property", "room_type", "model"),
        )
    )
