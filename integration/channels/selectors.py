"""Reads of the sales channels area: which channels a property may use, and the rows of its channel screen."""

from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.utils.functional import Promise

from core.db.plain_sql import Columns

from ..content.models import Property, RatePlan, RoomType
from ..content.names import NAME_PREFETCHES, display_label
from ..sync.models import ResourceKind, SyncState
from .choices import ChannelStatus, RequestStatus
from .models import ChannelOpenRequest, PropertyChannel, SalesChannel

#: ({vendor id: label} of a property's room types, the same of its rate plans).
Labels = tuple[dict[str, str], dict[str, str]]


def property_ids_with_requests_under_review() -> "QuerySet[ChannelOpenRequest, int]":
    """Properties with an open request the hub has not reviewed yet (or not answered yet)."""
    return (
        ChannelOpenRequest.objects.filter(status__in=["", RequestStatus.PENDING])
        .values_list("property_id", flat=True)
        .distinct()
    )


def open_channels(prop: Property) -> QuerySet[SalesChannel]:
    """The channels the property is open on, by name: what rate plan models, the calendar's per-channel
    view and the per-channel rates and caps may use."""
    return SalesChannel.objects.filter(properties__property=prop, properties__status=ChannelStatus.OPEN).order_by(
        "name"
    )


def open_channels_of(properties: Any) -> list[SalesChannel]:
    """The channels open for any of the properties (a rate plan model's form before its property is chosen)."""
    return list(
        SalesChannel.objects.filter(properties__property__in=properties, properties__status=ChannelStatus.OPEN)
        .distinct()
        .order_by("name")
    )


def open_channel_ids(prop: Property) -> set[int]:
    """The hub ids of the channels the property is open on. Plain SQL: every rates and availability send
    reads them, and building the join through the ORM costs more CPU than the database spends on it."""
    channel, link = Columns(SalesChannel, "channel"), Columns(PropertyChannel, "link")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {channel.column('channel_id')} FROM {channel.table} JOIN {link.table}"  # noqa: S608
            f" ON {link.column('channel')} = {channel.column('pk')}"
            f" WHERE {link.column('property')} = %s AND {link.column('status')} = %s",
            [prop.pk, ChannelStatus.OPEN],
        )
        return {channel_id for (channel_id,) in cursor.fetchall()}


@dataclass
class ChannelRow:
    """One channel on a property's channel screen."""

    channel: SalesChannel
    link: PropertyChannel | None
    requests: list = field(default_factory=list)
    states: dict = field(default_factory=dict)
    #: Labels of the room types and rate plans the channel does not sell, and (label, code) of the mapped.
    rooms_off: list = field(default_factory=list)
    plans_off: list = field(default_factory=list)
    room_codes: list = field(default_factory=list)
    plan_codes: list = field(default_factory=list)

    @property
    def settings_state(self) -> SyncState | None:
        return self.states.get(ResourceKind.CHANNEL_SETTINGS)

    @property
    def mapping_state(self) -> SyncState | None:
        return self.states.get(ResourceKind.CHANNEL_MAPPING)

    @property
    def status(self) -> str:
        return self.link.status if self.link else ChannelStatus.CLOSED

    @property
    def status_label(self) -> str | Promise:
        return ChannelStatus(self.status).label

    @property
    def can_request(self) -> bool:
        return self.channel.listed and self.status in (ChannelStatus.CLOSED, ChannelStatus.REJECTED)


def property_channel_rows(prop: Property) -> list["ChannelRow"]:
    """Every listed channel (and any unlisted one the property was on) with the property's row, its open
    requests newest first, and the outbox rows of its settings and mapping; a fixed number of queries."""
    links = {row.channel_id: row for row in PropertyChannel.objects.filter(property=prop)}
    channels = SalesChannel.objects.filter(listed=True) | SalesChannel.objects.filter(pk__in=list(links))
    requests = (
        ChannelOpenRequest.objects.filter(property=prop).select_related("created_by").order_by("-created_at", "-id")
    )
    by_channel: dict[int, list[ChannelOpenRequest]] = {}
    for request in requests:
        by_channel.setdefault(request.channel_id, []).append(request)
    states = {
        (state.kind, state.object_id): state
        for state in SyncState.objects.filter(
            property=prop,
            kind__in=[ResourceKind.CHANNEL_SETTINGS, ResourceKind.CHANNEL_MAPPING, ResourceKind.CHANNEL_REQUEST],
        )
    }
    labels = _labels(prop)
    rows = []
    for channel in channels.distinct().order_by("name"):
        link = links.get(channel.pk)
        channel_requests = by_channel.get(channel.pk, [])
        for request in channel_requests:
            request.sync_state = states.get((ResourceKind.CHANNEL_REQUEST, request.pk))
        row = ChannelRow(channel, link, channel_requests, _link_states(link, states))
        if link is not None:
            _describe_link(row, link, labels)
        rows.append(row)
    return rows


def _labels(prop: Property) -> Labels:
    """({vendor id: label} of the property's room types, the same of its rate plans)."""
    rooms = RoomType.objects.filter(property=prop).prefetch_related(*NAME_PREFETCHES[RoomType])
    plans = (
        RatePlan.objects.filter(property=prop)
        .select_related("room_type", "model")
        .prefetch_related(*NAME_PREFETCHES[RatePlan])
    )
    return {room.vendor_id: display_label(room) for room in rooms}, {
        plan.vendor_id: display_label(plan) for plan in plans
    }


def _link_states(link: PropertyChannel | None, states: dict[tuple[str, int], SyncState]) -> dict[str, SyncState]:
    """{kind: outbox row} of the settings and mapping of the property's row on a channel (none without one)."""
    if link is None:
        return {}
    kinds = (ResourceKind.CHANNEL_SETTINGS, ResourceKind.CHANNEL_MAPPING)
    return {kind: states[(kind, link.pk)] for kind in kinds if (kind, link.pk) in states}


def _describe_link(row: "ChannelRow", link: PropertyChannel, labels: Labels) -> None:
    """What the property's row on the channel switches off and codes, by label."""
    room_labels, plan_labels = labels
    row.rooms_off = [room_labels.get(key, key) for key, sold in link.room_types.items() if not sold]
    row.plans_off = [plan_labels.get(key, key) for key, sold in link.rate_plans.items() if not sold]
    row.room_codes = [(room_labels.get(key, key), code) for key, code in sorted(link.room_type_codes.items())]
    row.plan_codes = [(plan_labels.get(key, key), code) for key, code in sorted(link.rate_plan_codes.items())]
