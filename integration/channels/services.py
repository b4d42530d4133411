"""Writes of the sales channels area, one function per use case.

Changes a manager makes (an open request, sales settings, a cms channel's mapping) are stored and marked
for the hub in the same transaction; the sync engine sends them (integration.channels.resources) with
the same retries and attempt log as content. What the hub decides (its channel list, a property's status
on each channel, the review of its requests) is read back here: the hub is read first, then the rows
are written, so that no transaction is held across a network call.
"""

import logging
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.audit import audit_record, audit_values
from core.background.jobs import job_queue
from core.background.periodic import for_each_row

from ..content.models import Property, RatePlan, RoomType
from ..hub import endpoints
from ..hub.client import HubClient, HubError, HubHTTPError, get_hub_client
from ..hub.payloads import (
    build_channel_list,
    build_channel_mappings,
    build_channel_settings,
    parse_channel_statuses,
    parse_open_request,
)
from ..hub.selectors import hub_paused_refusal
from ..sync.choices import SyncStatus
from ..sync.models import ResourceKind, SyncState
from ..sync.selectors import sync_known_to_hub
from ..sync.services.outbox import sync_mark_changed
from . import selectors
from .choices import ChannelStatus, RequestStatus
from .models import ChannelOpenRequest, PropertyChannel, SalesChannel
from .policy import CHANNEL_STATUSES_READ_BEFORE_BOOKING
from .signals import channel_opened

logger = logging.getLogger(__name__)

#: Celery tasks (integration.channels.tasks), queued by name: the tasks call these services, which never
#: import them back.
REFRESH_LIST_TASK = "integration.channels.tasks.sales_channels_refresh_task"
REFRESH_PROPERTY_TASK = "integration.channels.tasks.property_channels_refresh_task"

_STATUS_OF_REVIEW: dict[str | None, str] = {
    RequestStatus.PENDING: ChannelStatus.REQUESTED,
    RequestStatus.APPROVED: ChannelStatus.OPEN,
    RequestStatus.REJECTED: ChannelStatus.REJECTED,
}


class ChannelAnswerInvalid(HubError):
    """The hub answered 2xx with something that is not the channel list or statuses of decision 0009."""


# --- The hub's channel list ----------------------------------------------------------------------


def sales_channels_refresh(*, client: HubClient | None = None) -> tuple[int, int, int]:
    """Read the hub's channel list (operation 21) and make our SalesChannel rows match it: new channels
    are added, names and types follow the hub, and a channel the hub no longer lists is kept (bookings
    and per-channel values refer to it) but marked unlisted. Returns (added, updated, unlisted)."""
    client = client or get_hub_client()
    answer = client.call(endpoints.CHANNEL_LIST).data
    listed = build_channel_list(answer)
    if not isinstance(answer, list):
        raise ChannelAnswerInvalid(_("The hub's channel list is not in the expected shape."))
    now = timezone.now()
    added = updated = 0
    with transaction.atomic():
        existing = {
            channel.channel_id: channel
            for channel in SalesChannel.objects.select_for_update(of=("self",)).order_by("channel_id")
        }
        for channel_id, name, kind in listed:
            channel = existing.get(channel_id)
            if channel is None:
                SalesChannel.objects.create(
                    channel_id=channel_id, name=name, channel_type=kind, listed=True, refreshed_at=now
                )
                added += 1
                continue
            if (channel.name, channel.channel_type, channel.listed) != (name, kind, True):
                updated += 1
            channel.name, channel.channel_type, channel.listed, channel.refreshed_at = name, kind, True, now
            channel.save(update_fields=["name", "channel_type", "listed", "refreshed_at"])
        gone = SalesChannel.objects.exclude(channel_id__in=[channel_id for channel_id, _n, _k in listed])
        unlisted = gone.filter(listed=True).update(listed=False)
    logger.info("sales channels refreshed: %d added, %d updated, %d unlisted", added, updated, unlisted)
    return added, updated, unlisted


# --- A property's status on each channel, and its requests -----------------------------------------


def property_channels_refresh(*, property: Property, client: HubClient | None = None) -> int:
    """Read the property's status on every channel (operation 23) and its open requests (operation 25,
    and 26 for each one whose review changed) from the hub, and store them. A channel the hub names that
    we do not have yet is read (operation 22) and added. A channel that has just opened takes the hub's
    sales settings and mapping (operations 27 and 29) as what the hub holds. A property the hub does not
    know yet keeps what we have, and the hub is not asked: before our create of it succeeded (after a
    switch, say) the hub would answer 404 to a request it must not get (its statuses are read once the
    create succeeds: property_channels_after_create); a 404 all the same (lost at the hub) is taken alike.
    Returns how many channels changed status."""
    if not sync_known_to_hub(ResourceKind.PROPERTY, property.pk):
        return 0
    client = client or get_hub_client()
    pid = {"pid": property.vendor_id}
    try:
        statuses = parse_channel_statuses(client.call(endpoints.PROPERTY_CHANNELS, path_params=pid).data)
        listed = client.call(endpoints.OPEN_REQUEST_LIST, path_params=pid).data
    except HubHTTPError as error:
        if error.status == 404:
            return 0
        raise
    known = set(SalesChannel.objects.filter(channel_id__in=statuses).values_list("channel_id", flat=True))
    new_channels = [_read_channel(client, channel_id) for channel_id in sorted(set(statuses) - known)]
    before = dict(PropertyChannel.objects.filter(property=property).values_list("channel__channel_id", "status"))
    opened = [cid for cid, status in statuses.items() if status == ChannelStatus.OPEN and before.get(cid) != status]
    held = {cid: _read_hub_copy(client, property, cid) for cid in opened}
    ours = dict(
        ChannelOpenRequest.objects.filter(property=property, hub_id__isnull=False).values_list("hub_id", "status")
    )
    details = []
    for answer in listed if isinstance(listed, list) else []:
        fields = parse_open_request(answer)
        if fields.get("hub_id") in ours and fields.get("status") != ours[fields["hub_id"]]:
            path = {**pid, "request_id": fields["hub_id"]}
            details.append(parse_open_request(client.call(endpoints.OPEN_REQUEST_READ, path_params=path).data))
    return _store_statuses(property, statuses, new_channels, held, details)


def _read_channel(client: HubClient, channel_id: int) -> tuple[int, str, str]:
    answer = client.call(endpoints.CHANNEL_READ, path_params={"channel_id": channel_id}).data
    found = build_channel_list([answer])
    if not found:
        raise ChannelAnswerInvalid(_("The hub's channel %(id)s is not in the expected shape.") % {"id": channel_id})
    return found[0]


def _read_hub_copy(client: HubClient, prop: Property, channel_id: int) -> dict[str, Any]:
    """What the hub holds of a channel that just opened: its settings, and a cms channel's mapping."""
    params = {"pid": prop.vendor_id, "channel_id": channel_id}
    copy = {"settings": client.call(endpoints.CHANNEL_SETTINGS_READ, path_params=params).data}
    channel = SalesChannel.objects.filter(channel_id=channel_id).first()
    if channel is None or channel.is_cms:
        copy["mappings"] = client.call(endpoints.CHANNEL_MAPPINGS_READ, path_params=params).data
    return copy


@transaction.atomic
def _store_statuses(
    prop: Property,
    statuses: dict[int, str],
    new_channels: list[tuple[int, str, str]],
    held: dict[int, dict[str, Any]],
    details: list[dict[str, Any]],
) -> int:
    """Store what a refresh read: the new channels, the property's status on each, and its requests."""
    now = timezone.now()
    for channel_id, name, kind in new_channels:
        SalesChannel.objects.get_or_create(
            channel_id=channel_id, defaults={"name": name, "channel_type": kind, "refreshed_at": now}
        )
    channels = {channel.channel_id: channel for channel in SalesChannel.objects.filter(channel_id__in=statuses)}
    rows = {
        row.channel_id: row
        for row in PropertyChannel.objects.select_for_update(of=("self",)).filter(property=prop).order_by("channel_id")
    }
    changed = 0
    for channel_id, status in statuses.items():
        channel = channels[channel_id]
        row = rows.get(channel.pk) or PropertyChannel(property=prop, channel=channel)
        changed += row.status != status
        row.status, row.status_read_at = status, now
        if channel_id in held:
            _store_opened(row, prop, channel, held[channel_id])
        else:
            row.save()
    for fields in details:
        hub_id = fields.pop("hub_id", None)
        if hub_id is not None and fields:
            ChannelOpenRequest.objects.filter(property=prop, hub_id=hub_id).update(**fields, updated_at=now)
    return changed


def _store_opened(row: PropertyChannel, prop: Property, channel: SalesChannel, copy: dict[str, Any]) -> None:
    """A channel that has just opened for the property: it sends what was prepared for it while it was
    requested, or else takes the hub's copy as acknowledged."""
    prepared = _prepared_kinds(row) if row.pk is not None else []
    if not prepared:
        _adopt_hub_copy(row, copy)
    row.save()
    channel_opened.send(sender=PropertyChannel, property=prop, channel=channel)
    if not prepared:
        _acknowledge(row, copy)
    # Set while the request was under review: what we prepared goes to the hub now.
    for kind in prepared:
        sync_mark_changed(row, kind=kind)


def _prepared_kinds(row: PropertyChannel) -> list[str]:
    """The settings and mapping a manager set while the channel was requested, never yet sent."""
    return list(
        SyncState.objects.filter(
            kind__in=[ResourceKind.CHANNEL_SETTINGS, ResourceKind.CHANNEL_MAPPING],
            object_id=row.pk,
            acked_body__isnull=True,
        ).values_list("kind", flat=True)
    )


def _adopt_hub_copy(row: PropertyChannel, copy: dict[str, Any]) -> None:
    """A channel that just opened sells what the hub says it does (its defaults), coded as the hub holds."""
    settings = _mapping(copy.get("settings"))
    row.on_sale = settings.get("on_sale") is True
    row.room_types = _switched_off(settings.get("roomtypes"))
    row.rate_plans = _switched_off(settings.get("rateplans"))
    mappings = _mapping(copy.get("mappings"))
    row.room_type_codes = _channel_codes(mappings.get("roomtypes"), "vendor_roomtype_id")
    row.rate_plan_codes = _channel_codes(mappings.get("rateplans"), "vendor_rateplan_id")


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _switched_off(sale_map: dict[str, Any] | None) -> dict[str, bool]:
    """{id: False} of the ones a settings map switches off."""
    return {key: False for key, value in (sale_map or {}).items() if value is False}


def _channel_codes(entries: list[Any] | None, id_key: str) -> dict[str, str]:
    """{our id: channel code} of a mapping's entries, leaving out those not in the contract's shape."""
    return {
        entry[id_key]: entry["channel_code"]
        for entry in entries or []
        if isinstance(entry, dict) and {id_key, "channel_code"} <= entry.keys()
    }


def _acknowledge(row: PropertyChannel, copy: dict[str, Any]) -> None:
    """Record the hub's copy as acknowledged, so that the next change sends only what differs from it."""
    kinds = [(ResourceKind.CHANNEL_SETTINGS, build_channel_settings(row))]
    if "mappings" in copy:
        kinds.append((ResourceKind.CHANNEL_MAPPING, build_channel_mappings(row)))
    for kind, body in kinds:
        SyncState.objects.update_or_create(
            kind=kind,
            object_id=row.pk,
            defaults={
                "property_id": row.property_id,
                "acked_body": body,
                "known_to_hub": True,
                "status": SyncStatus.SYNCED,
                "last_error": "",
                "last_synced_at": timezone.now(),
            },
        )


def property_channels_refresh_requested(*, client: HubClient | None = None) -> int:
    """Refresh every property with a request under review (periodic): a property the hub cannot answer
    for, or that fails otherwise, is logged and left for the next run. Returns how many changed."""
    client = client or get_hub_client()
    return for_each_row(
        list(selectors.property_ids_with_requests_under_review()),
        lambda pk: _refresh_one(pk, client),
        what="channel status refresh of a property",
        atomic=False,
    )


def _refresh_one(property_id: int, client: HubClient) -> int:
    prop = Property.objects.filter(pk=property_id).first()
    if prop is None:
        return 0
    try:
        return property_channels_refresh(property=prop, client=client)
    except HubError as error:
        logger.warning("could not refresh the channels of property %s: %s", prop.pk, error.message)
        return 0


def property_channels_refresh_for_booking(*, property: Property, status: str | None) -> bool:
    """A booking is about to be refused: its channel does not sell for the property by what we hold there
    (status; None when we hold none). When that status warrants it (CHANNEL_STATUSES_READ_BEFORE_BOOKING),
    read the property's statuses from the hub first, as the read-back does (a channel found open opens as
    usual). Waits for the hub within the client's timeouts: call it outside any transaction. True when a
    status changed (read the row again); False otherwise, or when the hub could not be read (logged)."""
    if status not in CHANNEL_STATUSES_READ_BEFORE_BOOKING or hub_paused_refusal() is not None:
        return False  # distribution paused: the hub in incident is not read on a booking's path either
    try:
        return property_channels_refresh(property=property) > 0
    except HubError as error:
        logger.warning("booking: could not read the channel statuses of property %s: %s", property.pk, error.message)
    except Exception:
        # Whatever else failed (another read-back storing the same rows at the same moment, an answer that
        # could not be stored), the booking is decided on what we hold: the read never turns it into a 1000.
        logger.exception("booking: could not read the channel statuses of property %s", property.pk)
    return False


def sales_channels_queue_refresh() -> None:
    """Queue a refresh of the hub's channel list, after the current transaction commits (the button).
    Raises ValidationError while distribution is paused."""
    _refuse_while_paused()
    job_queue(REFRESH_LIST_TASK)


def _refuse_while_paused() -> None:
    if (refusal := hub_paused_refusal()) is not None:
        raise ValidationError(refusal)


def property_channels_forget_hub() -> None:
    """After a switch to another hub: the statuses we hold were the old hub's. Every channel is closed for
    every property until the new hub says otherwise (each property's statuses are read from it once the
    property is created there: property_channels_after_create); what was prepared (sales settings,
    mappings) is kept and sent when a channel opens there. Requests the old hub received stay with it:
    managers ask the new hub again, as for license documents."""
    PropertyChannel.objects.exclude(status=ChannelStatus.CLOSED).update(status=ChannelStatus.CLOSED)


def property_channels_after_create(*, property_id: int) -> None:
    """The hub has just created the property: a property that has channel rows (the statuses a switch
    closed, say) has them read from this hub now; a new property has none to read back."""
    if PropertyChannel.objects.filter(property_id=property_id).exists():
        job_queue(REFRESH_PROPERTY_TASK, property_id)


def property_channels_queue_refresh(*, property: Property) -> None:
    """Queue a refresh of a property's channel statuses and requests, after the current transaction commits.
    Raises ValidationError while distribution is paused."""
    _refuse_while_paused()
    job_queue(REFRESH_PROPERTY_TASK, property.pk)


# --- Opening a channel --------------------------------------------------------------------------


def property_channel_ensure(*, property: Property, channel: SalesChannel) -> PropertyChannel:
    """The property's row for the channel, created closed when it has none."""
    row, _created = PropertyChannel.objects.get_or_create(property=property, channel=channel)
    return row


@transaction.atomic
def channel_open_request(
    *,
    property: Property,
    channel: SalesChannel,
    comment: str = "",
    cms_account_id: str = "",
    cms_property_code: str = "",
    user: User | None = None,
) -> ChannelOpenRequest:
    """Ask the hub to open channel for property, and queue the request. A cms channel needs the channel
    account's id and the property's code there; a hub channel takes neither. Raises ValidationError
    (field -> errors) when the channel is already open or requested, or a field is missing or too long;
    then nothing is stored or sent."""
    row = (
        PropertyChannel.objects.select_for_update(of=("self",))
        .filter(pk=property_channel_ensure(property=property, channel=channel).pk)
        .get()
    )
    if row.status in (ChannelStatus.OPEN, ChannelStatus.REQUESTED):
        raise ValidationError(
            _("The property is already %(status)s on %(channel)s.")
            % {"status": row.get_status_display(), "channel": channel.name}
        )
    if not channel.listed:
        raise ValidationError(_("The hub no longer lists %(channel)s.") % {"channel": channel.name})
    comment, cms_account_id, cms_property_code = comment.strip(), cms_account_id.strip(), cms_property_code.strip()
    errors = {}
    if channel.is_cms:
        if not cms_account_id:
            errors["cms_account_id"] = _("A directly contracted (CMS) channel needs your account id at the channel.")
        if not cms_property_code:
            errors["cms_property_code"] = _("A directly contracted (CMS) channel needs the property's code there.")
    elif cms_account_id or cms_property_code:
        errors["cms_account_id"] = _("Only a directly contracted (CMS) channel takes a channel account.")
    if errors:
        raise ValidationError(errors)
    request = ChannelOpenRequest(
        property=property,
        channel=channel,
        comment=comment,
        cms_account_id=cms_account_id,
        cms_property_code=cms_property_code,
        created_by=user,
    )
    request.full_clean()
    request.save()
    row.status = ChannelStatus.REQUESTED
    row.save(update_fields=["status", "updated_at"])
    sync_mark_changed(request, kind=ResourceKind.CHANNEL_REQUEST)
    logger.info("channel %s open request %s stored for property %s", channel.channel_id, request.pk, property.pk)
    return request


@transaction.atomic
def channel_request_record_submission(*, request_id: int, answer: Any) -> None:
    """The hub accepted an open request: keep its id, review and times."""
    fields = parse_open_request(answer)
    if "hub_id" not in fields:
        logger.warning("the hub accepted channel open request %s without an id in its answer", request_id)
    if fields:
        ChannelOpenRequest.objects.filter(pk=request_id).update(**fields, updated_at=timezone.now())
    status = _STATUS_OF_REVIEW.get(fields.get("status"))
    request = ChannelOpenRequest.objects.filter(pk=request_id).first()
    if status and request is not None:
        PropertyChannel.objects.filter(property_id=request.property_id, channel_id=request.channel_id).update(
            status=status, status_read_at=timezone.now()
        )


# --- What an open channel sells, and a cms channel's mapping -----------------------------------------


def _require_open(row: PropertyChannel) -> None:
    """Settings and mapping are set on an open channel, or prepared while the request is under review
    (sent when the channel opens)."""
    if row.status not in (ChannelStatus.OPEN, ChannelStatus.REQUESTED):
        raise ValidationError(
            _("%(channel)s is not open for this property; open it first.") % {"channel": row.channel.name}
        )


@transaction.atomic
def channel_settings_update(
    *,
    property_channel: PropertyChannel,
    on_sale: bool,
    room_types_off: Iterable[RoomType] = (),
    rate_plans_off: Iterable[RatePlan] = (),
    user: User | None = None,
) -> PropertyChannel:
    """Set what the property sells on an open channel: on_sale, and the room types and rate plans it does
    not sell there (instances of the property); queues the PATCH. user, who changed it, goes in the audit
    trail."""
    row = PropertyChannel.objects.select_for_update(of=("self",)).select_related("channel").get(pk=property_channel.pk)
    before = audit_values(row)
    _require_open(row)
    _require_own(row, room_types_off, RoomType)
    _require_own(row, rate_plans_off, RatePlan)
    row.on_sale = bool(on_sale)
    row.room_types = {room.vendor_id: False for room in room_types_off}
    row.rate_plans = {plan.vendor_id: False for plan in rate_plans_off}
    row.save(update_fields=["on_sale", "room_types", "rate_plans", "updated_at"])
    sync_mark_changed(row, kind=ResourceKind.CHANNEL_SETTINGS)
    audit_record(user=user, obj=row, before=before)
    return row


@transaction.atomic
def channel_mapping_update(
    *,
    property_channel: PropertyChannel,
    room_type_codes: dict[RoomType, str],
    rate_plan_codes: dict[RatePlan, str],
    user: User | None = None,
) -> PropertyChannel:
    """Set a cms channel's code of each room type and rate plan ({instance: code}; an empty code removes
    it); queues the PUT of the whole mapping. user, who changed it, goes in the audit trail."""
    row = PropertyChannel.objects.select_for_update(of=("self",)).select_related("channel").get(pk=property_channel.pk)
    before = audit_values(row)
    _require_open(row)
    if not row.channel.is_cms:
        raise ValidationError(_("Only a directly contracted (CMS) channel has a mapping."))
    _require_own(row, room_type_codes, RoomType)
    _require_own(row, rate_plan_codes, RatePlan)
    row.room_type_codes = {room.vendor_id: code.strip() for room, code in room_type_codes.items() if code.strip()}
    row.rate_plan_codes = {plan.vendor_id: code.strip() for plan, code in rate_plan_codes.items() if code.strip()}
    row.save(update_fields=["room_type_codes", "rate_plan_codes", "updated_at"])
    sync_mark_changed(row, kind=ResourceKind.CHANNEL_MAPPING)
    audit_record(user=user, obj=row, before=before)
    return row


def _require_own(
    row: PropertyChannel, objects: Iterable[RoomType | RatePlan], model: type[RoomType | RatePlan]
) -> None:
    if any(not isinstance(obj, model) or obj.property_id != row.property_id for obj in objects):
        raise ValueError("room types and rate plans must be the property's own")
