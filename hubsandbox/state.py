"""What tests, benchmarks and demos use to look into the sandbox hub, and to empty it.

from hubsandbox import state
state.get_resource("roomtype", "prop-a", "room-1")   # the read shape the hub would answer, or None
state.get_resource("property", "prop-a", hub="production")  # the same at the production hub (hubs.py)
state.request_log(method="PATCH").count()
state.request_totals(path_prefix="/gds/vendor/properties")  # {"count": ..., "request_bytes": ..., ...}
state.rates_of("prop-a", "room-1", "plan-1")          # {date: {"rate": 120000, "business_day": True}, ...}
state.avails_of("prop-a", "room-1", channel_id=3)     # {date: 2, ...}
state.license_of(7)                                   # a license request's detail (the hub's read shape)
state.review_license(7, "reject", "Blurry scan")      # what the hub's reviewer does in the sandbox admin
state.alter_resource("property", "prop-a", patch={"email": "x@hub.example"})  # behind the vendor's back
state.forget_resource("roomtype", "prop-a", "room-1")  # the hub loses it (GET and PATCH answer 404)
state.review_open_request(3, "rejected", "No contract")  # the sandbox admin's review of a channel request
state.reset()
"""

import datetime
from typing import Any

from django.db import transaction
from django.db.models import Count, QuerySet, Sum

from . import ari, channels, licenses, services
from .errors import NotFound
from .hubs import STAGING, serving
from .models import (
    SandboxProperty,
    SandboxPropertyChannel,
    SandboxRateplan,
    SandboxRateplanModel,
    SandboxRequest,
    SandboxRoomtype,
)
from .selectors import ResourceKind, resource_get

_MODELS = {
    ResourceKind.PROPERTY: SandboxProperty,
    ResourceKind.ROOMTYPE: SandboxRoomtype,
    ResourceKind.RATEPLAN_MODEL: SandboxRateplanModel,
    ResourceKind.RATEPLAN: SandboxRateplan,
}


def get_resource(kind: ResourceKind | str, *path_ids: str, hub: str = STAGING) -> dict | None:
    """The read shape of a resource at hub, addressed by the ids of its hub path in order, or None if unknown.

    kind is "property" (pid), "roomtype" (pid, rid), "rateplan_model" (pid, mid) or "rateplan" (pid, rid, rpid).
    """
    try:
        with serving(hub):
            return resource_get(kind, *path_ids).as_hub_json()
    except NotFound:
        return None


def alter_resource(kind: ResourceKind | str, *path_ids: str, patch: dict) -> dict:
    """Change the hub's copy of a resource behind the vendor's back: patch is a merge patch (null removes
    a field) applied without the hub's validation. Returns the new read shape."""
    return services.hub_copy_alter(resource=resource_get(kind, *path_ids), patch=patch).as_hub_json()


def forget_resource(kind: ResourceKind | str, *path_ids: str) -> None:
    """The hub loses a resource and what hangs below it (a model's rate plans too)."""
    resource = resource_get(kind, *path_ids)
    with transaction.atomic():
        if isinstance(resource, SandboxRateplanModel):
            resource.rateplans.all().delete()
        resource.delete()


def list_resources(kind: ResourceKind | str, property_id: str | None = None, *, hub: str = STAGING) -> list[dict]:
    """The read shapes of every resource of a kind at hub, optionally of one property, ordered by ids."""
    kind = ResourceKind(kind)
    hub_lookup = "hub" if kind is ResourceKind.PROPERTY else "property__hub"
    queryset: QuerySet[Any] = _MODELS[kind]._default_manager.filter(**{hub_lookup: hub})
    if kind is not ResourceKind.PROPERTY:
        queryset = queryset.select_related("property")
    if kind is ResourceKind.RATEPLAN:
        queryset = queryset.select_related("roomtype", "rateplan_model")
    if property_id is not None:
        lookup = "vendor_id" if kind is ResourceKind.PROPERTY else "property__vendor_id"
        queryset = queryset.filter(**{lookup: property_id})
    return [resource.as_hub_json() for resource in queryset]


def request_log(
    *, method: str | None = None, path: str | None = None, path_prefix: str | None = None, hub: str | None = None
) -> QuerySet:
    """The requests the sandbox received (at hub, or at either), oldest first; paths are hub paths such as
    /gds/vendor/meta."""
    queryset = SandboxRequest.objects.order_by("received_at", "id")
    if hub is not None:
        queryset = queryset.filter(hub=hub)
    if method is not None:
        queryset = queryset.filter(method=method.upper())
    if path is not None:
        queryset = queryset.filter(path=path)
    if path_prefix is not None:
        queryset = queryset.filter(path__startswith=path_prefix)
    return queryset


def request_totals(**filters) -> dict[str, int]:
    """Request count and bytes in and out over request_log(**filters), for benchmarks."""
    totals = request_log(**filters).aggregate(
        count=Count("id"), request_bytes=Sum("request_bytes"), response_bytes=Sum("response_bytes")
    )
    return {name: value or 0 for name, value in totals.items()}


def rates_of(
    property_id: str, roomtype_id: str, rateplan_id: str, channel_id: int | None = None, *, hub: str = STAGING
) -> dict[datetime.date, dict]:
    """The rates and business days the hub holds for a rate plan, per day in date order:
    {date: {"rate" | "rate_modify": x, "business_day": b}}, a key absent while no entry has set it.

    channel_id None gives the values common to all channels, a channel id that channel's own values.
    Unknown ids give {}.
    """
    with serving(hub):
        return ari.rate_days(property_id, roomtype_id, rateplan_id, channel_id)


def avails_of(
    property_id: str, roomtype_id: str, channel_id: int | None = None, *, hub: str = STAGING
) -> dict[datetime.date, int]:
    """The availability the hub holds for a room type, {date: count} in date order; channel_id None
    gives the common counts, a channel id that channel's caps. Unknown ids give {}."""
    with serving(hub):
        return ari.avail_days(property_id, roomtype_id, channel_id)


def reset() -> None:
    """Forgets every resource and the request log of both hubs: empty hubs."""
    with transaction.atomic():
        SandboxRequest.objects.all().delete()
        ari.forget_all()
        licenses.forget_all()
        channels.forget_all()
        SandboxRateplan.objects.all().delete()
        SandboxRateplanModel.objects.all().delete()
        SandboxRoomtype.objects.all().delete()
        SandboxProperty.objects.all().delete()


def license_of(license_id: int) -> dict | None:
    """The detail the hub answers for a license request (with its history), or None if unknown."""
    lic = licenses.license_find(license_id)
    return licenses.license_detail_json(lic) if lic is not None else None


def review_license(license_id: int, status: str, reason: str | None = None) -> dict:
    """Confirm ("confirm") or reject ("reject", with a reason) a pending license request, as the hub's
    reviewer does; returns its detail."""
    licenses.license_review(license_id=license_id, status=status, reason=reason)
    detail = license_of(license_id)
    assert detail is not None  # license_review found it
    return detail


def open_requests_of(property_id: str) -> list[dict]:
    """The channel open requests the hub answers for a property, newest first (reviews due applied)."""
    return channels.open_request_list(property_id=property_id)


def review_open_request(request_id: int, status: str, reason: str | None = None) -> dict:
    """Approve ("approved") or reject ("rejected", with a reason) a pending channel open request, as the
    sandbox admin does; returns what the hub answers for it."""
    return channels.request_json(channels.open_request_review(request_id=request_id, status=status, reason=reason))


def channel_settings_of(property_id: str, channel_id: int) -> dict | None:
    """The sales settings and mapping the hub holds for a property on a channel, or None when it holds none:
    {"settings": {...}, "mappings": {...}}."""
    row = SandboxPropertyChannel.objects.filter(property__vendor_id=property_id, channel__channel_id=channel_id).first()
    return {"settings": row.settings, "mappings": row.mappings} if row else None
