"""Sales channels at the sandbox hub (operations 21-30; decision 0009).

The hub lists its channels (hub or cms type). A property's status on a channel follows its latest open
request: none is `closed`, pending is `requested`, approved is `open`, rejected is `rejected`. A request
is reviewed by the sandbox's admin (approve, or reject with a reason), or by itself once it is
HUB_SANDBOX_CHANNEL_REVIEW_SECONDS old, as the channel's `auto_review` says: the review is applied
lazily, whenever a channel operation of that property is answered. Sales settings (27-28) are a
merge-patch (top-level keys; maps replace whole, as every patch, decision 0003) of
{on_sale, roomtypes, rateplans}; the mapping of a cms channel (29-30) is replaced by each PUT.
"""

from datetime import timedelta
from typing import NoReturn
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from . import selectors
from .errors import Conflict, NotFound
from .models import SandboxChannel, SandboxOpenRequest, SandboxPropertyChannel, SandboxRateplan
from .validation import Field, ValidationError, array, boolean, obj, string

KOREA = ZoneInfo("Asia/Seoul")
COMMENT_MAX_LENGTH = 1000
#: OURS (decision 0009): a cms account's id and property code, and a channel's code in a mapping: 1 to 40 characters.
CODE_MAX_LENGTH = 40
#: OURS (decision 0009): what a property newly open on a channel sells there: nothing until it turns on_sale on (a cms
#: channel needs its mapping first); a room type or rate plan absent from its map is on sale.
DEFAULT_SETTINGS = {"on_sale": False, "roomtypes": {}, "rateplans": {}}
DEFAULT_MAPPINGS: dict[str, list[dict[str, str]]] = {"roomtypes": [], "rateplans": []}

#: The hub's channels in the sandbox: hub and cms ones, and one of each automatic review. The ids match
#: what the demo, the tests and the benchmarks sell on (1, 2, 3, 5, 7).
SANDBOX_CHANNELS = [
    (1, "Hub OTA", "hub", "approve", ""),
    (2, "Travel Mall", "hub", "approve", ""),
    (3, "Direct channel (CMS)", "cms", "approve", ""),
    (5, "Global OTA", "hub", "manual", ""),
    (7, "Channel Seven", "hub", "approve", ""),
    (9, "Regional CMS", "cms", "reject", "The channel takes no new properties in this region."),
]

_STATUS_OF_REQUEST = {
    SandboxOpenRequest.Status.PENDING: "requested",
    SandboxOpenRequest.Status.APPROVED: "open",
    SandboxOpenRequest.Status.REJECTED: "rejected",
}


def _fail(path: str, problem: str) -> NoReturn:
    raise ValidationError(f"{path}: {problem}")


def _time(value):
    return timezone.localtime(value, KOREA).isoformat(timespec="seconds")


# --- Reads ------------------------------------------------------------------------------------------


def channel_json(channel: SandboxChannel) -> dict:
    """A channel as the hub lists it (operations 21-22)."""
    return {"id": channel.channel_id, "name": channel.name, "channel_type": channel.channel_type}


def channel_list() -> list[dict]:
    """GET /channels: every channel of the hub."""
    return [channel_json(channel) for channel in SandboxChannel.objects.order_by("channel_id")]


def channel_get(channel_id) -> SandboxChannel:
    """A channel by its id; NotFound for an unknown one (or an id that is not a positive integer)."""
    found = None
    if str(channel_id).isascii() and str(channel_id).isdigit():
        found = SandboxChannel.objects.filter(channel_id=int(channel_id)).first()
    if found is None:
        raise NotFound(f"channel {channel_id!r} not found")
    return found


def request_json(request: SandboxOpenRequest) -> dict:
    """An open request as the hub answers it (operations 24-26)."""
    return {
        "id": request.pk,
        "channel_id": request.channel.channel_id,
        "status": request.status,
        "reason": request.reason,
        "created_at": _time(request.created_at),
        "updated_at": _time(request.updated_at),
    }


def _latest_requests(prop) -> dict:
    latest = {}
    for request in prop.open_requests.select_related("channel").order_by("created_at", "id"):
        latest[request.channel.channel_id] = request
    return latest


def property_channel_statuses(*, property_id: str) -> list[dict]:
    """GET /properties/{pid}/channels: one entry per channel of the hub with the property's status."""
    prop = selectors.property_get(property_id)
    review_due(prop)
    latest = _latest_requests(prop)
    return [
        {
            "channel_id": channel.channel_id,
            "name": channel.name,
            "channel_type": channel.channel_type,
            "status": _STATUS_OF_REQUEST[latest[channel.channel_id].status]
            if channel.channel_id in latest
            else "closed",
        }
        for channel in SandboxChannel.objects.order_by("channel_id")
    ]


def status_of(prop, channel) -> str:
    """The property's status on the channel: closed, requested, open or rejected."""
    latest = prop.open_requests.filter(channel=channel).order_by("-created_at", "-id").first()
    return _STATUS_OF_REQUEST[latest.status] if latest else "closed"


def open_request_list(*, property_id: str) -> list[dict]:
    """GET /properties/{pid}/open-requests: the property's requests, newest first."""
    prop = selectors.property_get(property_id)
    review_due(prop)
    requests = prop.open_requests.select_related("channel").order_by("-created_at", "-id")
    return [request_json(request) for request in requests]


def open_request_get(*, property_id: str, request_id: int) -> SandboxOpenRequest:
    """A request of the property; NotFound for another property's or an unknown id."""
    prop = selectors.property_get(property_id)
    review_due(prop)
    found = prop.open_requests.select_related("channel").filter(pk=request_id).first()
    if found is None:
        raise NotFound(f"open request {request_id} not found in property {property_id!r}")
    return found


# --- Open requests and their review -----------------------------------------------------------------

_ACCOUNT = obj(
    {
        "account_id": Field(string(non_empty=True, max_length=CODE_MAX_LENGTH)),
        "property_code": Field(string(non_empty=True, max_length=CODE_MAX_LENGTH)),
    },
    required=("account_id", "property_code"),
)
_OPEN_REQUEST = obj(
    {
        "comment": Field(string(max_length=COMMENT_MAX_LENGTH), nullable=True),
        "cms_account": Field(_ACCOUNT, nullable=True),
    }
)


def open_request_create(*, property_id: str, channel_id, body: dict) -> SandboxOpenRequest:
    """POST /properties/{pid}/channels/{channel_id}/open-requests: a pending request. A cms channel needs
    cms_account (400), a hub channel takes none (400, OURS, decision 0009); a property already open on the channel or
    with a pending request there answers 409."""
    selectors.property_get(property_id)
    channel = channel_get(channel_id)
    cleaned = _OPEN_REQUEST(body, "")
    account = cleaned.get("cms_account")
    if channel.channel_type == SandboxChannel.Type.CMS and account is None:
        _fail("cms_account", "is required for a cms channel")
    if channel.channel_type == SandboxChannel.Type.HUB and account is not None:
        _fail("cms_account", "is only for cms channels")
    with transaction.atomic():
        prop = selectors.property_get(property_id, for_update=True)
        review_due(prop)
        status = status_of(prop, channel)
        if status in ("open", "requested"):
            raise Conflict(f"property {property_id!r} is already {status} on channel {channel.channel_id}")
        now = timezone.now()
        return SandboxOpenRequest.objects.create(
            property=prop,
            channel=channel,
            comment=cleaned.get("comment"),
            cms_account=account,
            created_at=now,
            updated_at=now,
        )


class ReviewRefused(ValueError):
    """A review the hub does not allow: of a request no longer pending, or a rejection without a reason."""


def open_request_review(*, request_id: int, status: str, reason: str | None = None) -> SandboxOpenRequest:
    """The hub's reviewer approves or rejects (with a reason) a pending request; approving opens the
    channel for the property with the default settings and an empty mapping."""
    if status not in (SandboxOpenRequest.Status.APPROVED, SandboxOpenRequest.Status.REJECTED):
        raise ReviewRefused(f"a review approves or rejects, not {status!r}")
    reason = (reason or "").strip() or None
    if status == SandboxOpenRequest.Status.REJECTED and reason is None:
        raise ReviewRefused("a rejection needs a reason")
    with transaction.atomic():
        request = SandboxOpenRequest.objects.select_for_update().filter(pk=request_id).first()
        if request is None:
            raise ReviewRefused(f"no open request {request_id}")
        if request.status != SandboxOpenRequest.Status.PENDING:
            raise ReviewRefused(f"open request {request_id} is {request.status}, not pending")
        request.status, request.reason, request.updated_at = status, reason, timezone.now()
        request.save(update_fields=["status", "reason", "updated_at"])
        if status == SandboxOpenRequest.Status.APPROVED:
            SandboxPropertyChannel.objects.update_or_create(
                property_id=request.property_id,
                channel_id=request.channel_id,
                defaults={"settings": dict(DEFAULT_SETTINGS), "mappings": dict(DEFAULT_MAPPINGS)},
            )
    return request


def review_due(prop, *, now=None) -> int:
    """Review the property's pending requests older than HUB_SANDBOX_CHANNEL_REVIEW_SECONDS as their
    channel's auto_review says (0 seconds: at once; a negative delay: never). Returns how many."""
    delay = settings.HUB_SANDBOX_CHANNEL_REVIEW_SECONDS
    if delay < 0:
        return 0
    due = prop.open_requests.filter(
        status=SandboxOpenRequest.Status.PENDING,
        created_at__lte=(now or timezone.now()) - timedelta(seconds=delay),
    ).exclude(channel__auto_review=SandboxChannel.AutoReview.MANUAL)
    done = 0
    for request in due.select_related("channel"):
        channel = request.channel
        try:
            if channel.auto_review == SandboxChannel.AutoReview.APPROVE:
                open_request_review(request_id=request.pk, status=SandboxOpenRequest.Status.APPROVED)
            else:
                reason = channel.reject_reason or "The channel does not take this property."
                open_request_review(request_id=request.pk, status=SandboxOpenRequest.Status.REJECTED, reason=reason)
        except ReviewRefused:
            # Another read of the same property's channels reviewed it first (the row lock decides): it was
            # answered 500 before, which the deployed journey met under load.
            continue
        done += 1
    return done


# --- Sales settings and mapping of an open channel ----------------------------------------------------


def _open_channel(property_id, channel_id, *, cms_only=False) -> SandboxPropertyChannel:
    """The property's row for a channel it is open on: 404 for an unknown property or channel, 400 for a
    hub channel where only cms channels apply, 409 when the property is not open on it."""
    prop = selectors.property_get(property_id)
    channel = channel_get(channel_id)
    if cms_only and channel.channel_type != SandboxChannel.Type.CMS:
        _fail("channel_id", f"channel {channel.channel_id} is a hub channel: only cms channels have a mapping")
    review_due(prop)
    status = status_of(prop, channel)
    row = SandboxPropertyChannel.objects.filter(property=prop, channel=channel).first()
    if status != "open" or row is None:
        raise Conflict(f"property {property_id!r} is not open on channel {channel.channel_id} (it is {status})")
    row.property, row.channel = prop, channel
    return row


def _id_map(known: set, what: str):
    def check(mapping, path):
        if not isinstance(mapping, dict):
            _fail(path, "must be an object")
        for key, value in mapping.items():
            if key not in known:
                _fail(f"{path}.{key}", f"no {what} {key!r} in this property")
            boolean(value, f"{path}.{key}")
        return mapping

    return check


def settings_get(*, property_id: str, channel_id) -> dict:
    """GET .../channels/{channel_id}/settings."""
    return _open_channel(property_id, channel_id).settings


def settings_patch(*, property_id: str, channel_id, body: dict) -> dict:
    """PATCH .../channels/{channel_id}/settings: merge-patch of on_sale, roomtypes and rateplans (a map
    replaces the stored one, null empties it); ids must exist at the hub for the property."""
    row = _open_channel(property_id, channel_id)
    prop = row.property
    roomtypes = set(prop.roomtypes.values_list("vendor_id", flat=True))
    rateplans = set(prop.rateplans.values_list("vendor_id", flat=True))
    cleaned = obj(
        {
            "on_sale": Field(boolean),
            "roomtypes": Field(_id_map(roomtypes, "room type"), nullable=True),
            "rateplans": Field(_id_map(rateplans, "rate plan"), nullable=True),
        }
    )(body, "")
    merged = {**row.settings}
    for key, value in cleaned.items():
        merged[key] = {} if value is None else value
    row.settings = merged
    row.save(update_fields=["settings", "updated_at"])
    return merged


def mappings_get(*, property_id: str, channel_id) -> dict:
    """GET .../channels/{channel_id}/mappings (cms channels only)."""
    return _open_channel(property_id, channel_id, cms_only=True).mappings


def _mapping_entries(known: set, id_key: str, what: str):
    entry = obj(
        {
            id_key: Field(string(non_empty=True)),
            "channel_code": Field(string(non_empty=True, max_length=CODE_MAX_LENGTH)),
        },
        required=(id_key, "channel_code"),
    )

    def check(value, path):
        entries = array(entry)(value, path)
        seen = set()
        for index, item in enumerate(entries):
            if item[id_key] not in known:
                _fail(f"{path}[{index}].{id_key}", f"no {what} {item[id_key]!r} in this property")
            if item[id_key] in seen:
                # OURS (decision 0021): one code per room type or rate plan on a channel.
                _fail(f"{path}[{index}].{id_key}", f"{item[id_key]!r} appears more than once")
            seen.add(item[id_key])
        return entries

    return check


def mappings_put(*, property_id: str, channel_id, body: dict) -> dict:
    """PUT .../channels/{channel_id}/mappings: the whole mapping, replacing the stored one."""
    row = _open_channel(property_id, channel_id, cms_only=True)
    prop = row.property
    roomtypes = set(prop.roomtypes.values_list("vendor_id", flat=True))
    rateplans = set(prop.rateplans.values_list("vendor_id", flat=True))
    cleaned = obj(
        {
            "roomtypes": Field(_mapping_entries(roomtypes, "vendor_roomtype_id", "room type")),
            "rateplans": Field(_mapping_entries(rateplans, "vendor_rateplan_id", "rate plan")),
        },
        required=("roomtypes", "rateplans"),
    )(body, "")
    row.mappings = cleaned
    row.save(update_fields=["mappings", "updated_at"])
    return cleaned


def selling_channel(*, property_id: str, roomtype_id: str, rateplan_id: str) -> SandboxChannel | None:
    """The first channel (by id) that sells this rate plan of the property, as the hub sells: open, on
    sale, the room type and rate plan not switched off, in its model's channels (none: every channel),
    and on a cms channel both mapped. None if none."""
    plan = SandboxRateplan.objects.filter(property__vendor_id=property_id, vendor_id=rateplan_id).first()
    model_channels = (plan.rateplan_model.content.get("channels") if plan else None) or []
    rows = SandboxPropertyChannel.objects.filter(property__vendor_id=property_id).select_related("property", "channel")
    if model_channels:
        rows = rows.filter(channel__channel_id__in=model_channels)
    for row in rows.order_by("channel__channel_id"):
        sold, mapped = row.settings, row.mappings
        if row.channel.channel_type == SandboxChannel.Type.CMS:
            room_ids = {entry["vendor_roomtype_id"] for entry in mapped.get("roomtypes", [])}
            plan_ids = {entry["vendor_rateplan_id"] for entry in mapped.get("rateplans", [])}
            if roomtype_id not in room_ids or rateplan_id not in plan_ids:
                continue
        if (
            sold.get("on_sale")
            and sold.get("roomtypes", {}).get(roomtype_id, True)
            and sold.get("rateplans", {}).get(rateplan_id, True)
            and status_of(row.property, row.channel) == "open"
        ):
            return row.channel
    return None


def channels_seed(channel_model=None) -> None:
    """The sandbox hub's channels exist (after migrate or flush); a channel edited in the admin keeps its edits."""
    channel_model = channel_model or SandboxChannel
    for channel_id, name, channel_type, auto_review, reason in SANDBOX_CHANNELS:
        channel_model.objects.get_or_create(
            channel_id=channel_id,
            defaults={"name": name, "channel_type": channel_type, "auto_review": auto_review, "reject_reason": reason},
        )


def forget_all() -> None:
    """Forget every open request, setting and mapping (state.reset); the channels stay."""
    SandboxPropertyChannel.objects.all().delete()
    SandboxOpenRequest.objects.all().delete()
