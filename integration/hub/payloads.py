"""Every body the hub takes or answers, in one place (one file to correct when a decision record changes):
our models as the hub's JSON bodies, the hub's answers read back, and the RFC 7396 merge-patch between
two bodies. The areas and apps hand their instances in; nothing here imports them.

Each build_* function returns the full body the hub should hold for a resource (its create body).
patch_body() turns the last acknowledged body and the current one into the PATCH to send, clearing
what we no longer hold as decision 0004 says (see "Clearing a field at the hub" below).
"""

import contextlib
import re
from collections.abc import Callable, Iterable
from datetime import date, datetime, time
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit, urlunsplit

from django.utils.encoding import iri_to_uri

from ..sync.models import ResourceKind

if TYPE_CHECKING:
    from ..content.models import Property, RatePlan, RatePlanModel, RoomType
    from ..content.models.properties import Photo, Translation

#: A JSON object the hub takes or answers.
Body = dict[str, Any]
#: Our codes of a tag field as the hub's (integration.catalog.selectors.HubCodes): (field, codes) -> codes.
HubCodesFor = Callable[[str, list[str]], list[str]]


class PropertyChannelFields(Protocol):
    """What the channel bodies read of a property's row on a channel (integration.channels.models)."""

    on_sale: bool
    room_types: dict[str, bool]
    rate_plans: dict[str, bool]
    room_type_codes: dict[str, str]
    rate_plan_codes: dict[str, str]


class OpenRequestFields(Protocol):
    """What the open request body reads of a request to open a channel (integration.channels.models)."""

    comment: str
    cms_account_id: str
    cms_property_code: str


# Keys that carry secrets or file contents: an attempt record keeps their size, never their value.
_SECRET_KEYS = frozenset({"file", "token", "password", "secret", "authorization"})


def _i18n(translations: Iterable["Translation"], fields: list[str]) -> list[Body]:
    """One entry per locale with only the fields that have text (an absent field keeps the hub's empty)."""
    entries = []
    for translation in sorted(translations, key=lambda t: t.locale):
        entry = {"locale": translation.locale}
        entry.update({field: getattr(translation, field) for field in fields if getattr(translation, field)})
        entries.append(entry)
    return entries


def hub_uri(url: str) -> str:
    """A URL as the hub's URI fields take it (OURS, decision 0017): an IRI such as
    https://img.example.com/객실.jpg goes as the URI it stands for (RFC 3987 3.1): a non-ASCII host in IDNA
    (punycode), every other non-ASCII character percent-encoded as UTF-8. An ASCII URL goes as it is."""
    if not url or url.isascii():
        return url
    parts = urlsplit(url)
    userinfo, at, hostport = parts.netloc.rpartition("@")
    host, colon, port = hostport.partition(":")
    # A name IDNA cannot write stays as it is: percent-encoded below, for the hub to judge.
    with contextlib.suppress(UnicodeError):
        host = host.encode("idna").decode("ascii")
    return iri_to_uri(urlunsplit((parts.scheme, f"{userinfo}{at}{host}{colon}{port}", *parts[2:])))


def _photos(photos: Iterable["Photo"]) -> list[Body]:
    return [
        {
            "url": hub_uri(photo.url),
            **({"description": photo.description} if photo.description else {}),
            "order": photo.order,
        }
        for photo in sorted(photos, key=lambda p: (p.order, p.pk or 0))
    ]


def _optional(body: Body, **fields: Any) -> Body:
    """Add the fields that have a value; a missing one is absent, and a PATCH clears it at the hub as
    far as the contract lets it (patch_body)."""
    body.update({key: value for key, value in fields.items() if value not in (None, "", [], {})})
    return body


def _hhmm(value: time | None) -> str | None:
    return value.strftime("%H:%M") if value else None


def _codes(obj: "Property | RoomType", field: str, hub_codes: HubCodesFor | None) -> list[str]:
    """A tag field's codes as the hub's: hub_codes(field, codes) applies the code mapping table
    (integration.catalog.selectors.HubCodes, given by the content resource); without it, as stored."""
    codes = list(getattr(obj, field))
    return hub_codes(field, codes) if hub_codes else codes


def build_property(prop: "Property", *, hub_codes: HubCodesFor | None = None) -> Body:
    """PostPropertyBody for a property (translations and photos prefetched or loaded); hub_codes
    translates its codes (see _codes)."""
    body = {
        "id": prop.vendor_id,
        "status": prop.status,
        "i18n": _i18n(
            prop.translations.all(),
            [
                "name",
                "description",
                "address",
                "address_detail",
                "notice",
                "reservation_description",
                "refunds_description",
            ],
        ),
        "classifications": _codes(prop, "classifications", hub_codes),
        "property_tags": _codes(prop, "property_tags", hub_codes),
        "facility_tags": _codes(prop, "facility_tags", hub_codes),
        "service_tags": _codes(prop, "service_tags", hub_codes),
        "attraction_tags": _codes(prop, "attraction_tags", hub_codes),
        "photos": _photos(prop.photos.all()),
        "refunds": dict(sorted(prop.refunds.items(), key=lambda item: int(item[0][:-1]))),
        "settings": {"extra_adult_price": prop.extra_adult_price},
    }
    return _optional(
        body,
        email=prop.email,
        phone=prop.phone,
        sms_phone=prop.sms_phone,
        checkin=_hhmm(prop.checkin),
        checkout=_hhmm(prop.checkout),
        website=hub_uri(prop.website),
    )


def build_roomtype(room_type: "RoomType", *, hub_codes: HubCodesFor | None = None) -> Body:
    """PostRoomtypeBody for a room type; hub_codes translates its codes (see _codes)."""
    body = {
        "id": room_type.vendor_id,
        "status": room_type.status,
        "i18n": _i18n(room_type.translations.all(), ["name", "description"]),
        "roomtype_tags": _codes(room_type, "roomtype_tags", hub_codes),
        "amenity_tags": _codes(room_type, "amenity_tags", hub_codes),
        "view_tags": _codes(room_type, "view_tags", hub_codes),
        "photos": _photos(room_type.photos.all()),
        "bedtype": {
            "single_beds": room_type.single_beds,
            "double_beds": room_type.double_beds,
            "bunk_beds": room_type.bunk_beds,
        },
        "details": dict(room_type.details),
    }
    return _optional(
        body,
        min_stay=room_type.min_stay,
        max_stay=room_type.max_stay,
        size=float(room_type.size) if room_type.size is not None else None,
        standard_capacity=room_type.standard_capacity,
        max_capacity=room_type.max_capacity,
    )


def build_rateplan_model(model: "RatePlanModel") -> Body:
    """PostRateplanModelBody for a rate plan model; no channels means every channel."""
    body = {
        "id": model.vendor_id,
        "type": model.type,
        "i18n": _i18n(model.translations.all(), ["name", "description"]),
        "refundable": model.refundable,
        "meals": {"breakfast": model.breakfast, "lunch": model.lunch, "dinner": model.dinner},
    }
    return _optional(
        body,
        sale_from=model.sale_from.isoformat() if model.sale_from else None,
        sale_to=model.sale_to.isoformat() if model.sale_to else None,
        min_los=model.min_los,
        max_los=model.max_los,
        channels=sorted(model.channels) if model.channels else None,
    )


def build_rateplan(rate_plan: "RatePlan") -> Body:
    """PostRateplanBody for a rate plan."""
    return {
        "id": rate_plan.vendor_id,
        "vendor_rateplan_model_id": rate_plan.model.vendor_id,
        "status": rate_plan.status,
    }


def merge_patch(old: Body, new: Body) -> Body:
    """The RFC 7396 patch from old to new, top level only: changed fields whole, removed fields null."""
    patch = {key: value for key, value in new.items() if old.get(key, object()) != value}
    patch.update(dict.fromkeys(old.keys() - new.keys()))
    return patch


# --- Clearing a field at the hub (decision 0004) -------------------------------------------------
#
# Our bodies leave out an optional field we hold no value for. Where the hub may hold one (we sent it
# before; or we do not know what the hub holds: a full resync, the PATCH after a 409 on create, the drift
# check's re-send), a PATCH clears it the one way decision 0004 allows for its kind of field:
# - null, only where the spec marks the field nullable (NULLABLE; settings.extra_adult_price travels
#   inside settings, always, as its number or null);
# - a map or an array by sending it empty: our bodies always carry them whole (refunds {}, details {},
#   tags [], photos []), so nothing more is needed;
# - a plain text field by an empty string: our text travels in the i18n array, which is always sent whole
#   and replaces the hub's (a translation without a description clears it), so no other field needs it;
# - a field with a format (email, phone, URI, HH:mm, numbers) cannot be cleared: the hub keeps its last
#   value, and the object's screen says so (HUB_KEEPS).

#: SPEC: the top-level fields of each kind that a PATCH may set to null (null clears them).
NULLABLE: dict[str, frozenset[str]] = {
    ResourceKind.RATE_PLAN_MODEL: frozenset({"sale_from", "sale_to", "min_los", "max_los", "channels"}),
}
#: The optional fields of each kind that the hub keeps once sent: emptied here, the hub still holds its
#: last value (the formatted fields of decision 0004). The content screens name them.
HUB_KEEPS = {
    ResourceKind.PROPERTY: ("email", "phone", "sms_phone", "checkin", "checkout", "website"),
    ResourceKind.ROOM_TYPE: ("min_stay", "max_stay", "size", "standard_capacity", "max_capacity"),
}

#: A field a body does not have (JSON null is a value).
_ABSENT = object()


def patch_body(kind: str, old: Body | None, new: Body) -> Body:
    """The PATCH body for a resource of kind from the body the hub acknowledged (old) to ours (new), or {}
    when the hub already holds new. old None means that what the hub holds is unknown: every field goes,
    and every nullable field we lack is cleared (a full resync).

    A field we no longer hold is cleared as decision 0004 says (above): null where the spec allows it;
    a field the hub keeps is left out. The hub's patch bodies have no id; a rate plan's patch carries its
    status only (its model cannot change), and a rate plan model's patch always carries i18n, which the
    spec requires there.
    """
    gone: set[str] | frozenset[str]
    if old is None:
        patch, gone = dict(new), NULLABLE.get(kind, frozenset()) - new.keys()
    else:
        patch = {key: value for key, value in new.items() if old.get(key, _ABSENT) != value}
        gone = old.keys() - new.keys()
    patch.update(dict.fromkeys(gone & NULLABLE.get(kind, frozenset())))
    patch.pop("id", None)
    if kind == ResourceKind.RATE_PLAN:
        patch = {key: value for key, value in patch.items() if key == "status"}
    if kind == ResourceKind.RATE_PLAN_MODEL and patch:
        patch["i18n"] = new["i18n"]
    return patch


def full_patch_body(kind: str, new: Body) -> Body:
    """The PATCH that re-sends a resource's whole state and clears what we lack, whatever the hub holds
    (a full resync, the PATCH after a 409 on create, the drift check's re-send)."""
    return patch_body(kind, None, new)


def redact_body(body: Any) -> Any:
    """A copy of body fit for the attempt log: secret values and file contents replaced by a note."""
    # Scalars are kept without a call each: a year of rates is thousands of them per send.
    if isinstance(body, dict):
        return {
            key: (
                f"[{len(value)} characters removed]"
                if key.lower() in _SECRET_KEYS and isinstance(value, str)
                else redact_body(value)
                if isinstance(value, dict | list)
                else value
            )
            for key, value in body.items()
        }
    if isinstance(body, list):
        return [redact_body(item) if isinstance(item, dict | list) else item for item in body]
    return body


#: OURS (decision 0006): at most this many range entries in one rates or availability request.
MAX_ARI_ENTRIES = 1000


def ari_runs(day_values: Iterable[tuple[date, Body]]) -> list[Body]:
    """[(date, values)] in date order as range entries: runs of consecutive days with equal values
    travel as one {"from", "to", **values}."""
    entries: list[tuple[list[date], dict]] = []
    for day, values in day_values:
        last = entries[-1] if entries else None
        if last and last[1] == values and (day - last[0][1]).days == 1:
            last[0][1] = day
        else:
            entries.append(([day, day], values))
    return [{"from": start.isoformat(), "to": end.isoformat(), **values} for (start, end), values in entries]


def build_ari_bodies(
    section: str, common: Iterable[tuple[date, Body]], channels: dict[str, Iterable[tuple[date, Body]]]
) -> list[Body]:
    """The bodies of one rate plan's rates (section "rates") or one room type's availability ("avails"):
    the common entries and a channels array, split so that no body holds more than MAX_ARI_ENTRIES."""
    entries: list[tuple[str | None, Body]] = [(None, entry) for entry in ari_runs(common)]
    for channel, values in sorted(channels.items()):
        entries.extend((channel, entry) for entry in ari_runs(values))
    bodies = []
    for start in range(0, len(entries), MAX_ARI_ENTRIES):
        chunk = entries[start : start + MAX_ARI_ENTRIES]
        body = {section: [entry for channel_id, entry in chunk if channel_id is None]}
        per_channel: dict[str, list[dict]] = {}
        for channel_id, entry in chunk:
            if channel_id is not None:
                per_channel.setdefault(channel_id, []).append(entry)
        if per_channel:
            body["channels"] = [{"channel_id": cid, section: items} for cid, items in per_channel.items()]
        bodies.append(body)
    return bodies


# --- Sales channels (decision 0009, operations 21-30) ----------------------------------------------
#
# Decisions where the spec is silent ("Fields of channel, channel open request, channel setting and
# mapping records: not shown"), in one place; decision 0009 fixes the paths and bodies:
# - OURS (decision 0009): an open request for a hub channel carries no cms_account (the hub refuses it, 400); a cms
#   channel's account id and property code, and a channel code in a mapping, are 1 to 40 characters.
# - OURS (decision 0009): the settings and mapping of a channel not open answer 409, as 27-28 do (29-30 too).
# - OURS (decision 0009): a property newly open on a channel sells nothing there until on_sale is set; a room type or
#   rate plan absent from the settings' maps is on sale (the maps list the ones switched off, false).
# - OURS (decision 0009): the settings PATCH is a top-level merge-patch like every other (maps travel whole).
# - OURS (decision 0009): bookings from a channel the property is not open on, or that does not sell that rate plan,
#   are refused with 4000 (no rooms available for booking), as a disabled rate plan is.
# The business decisions on selling (a cms channel's mapping and bookings, when a booking reads the
# channel statuses first) are the channels area's: integration.channels.policy.

#: See above: the longest cms account id, property code and channel code.
CHANNEL_CODE_MAX_LENGTH = 40
#: OURS (decision 0009): the longest comment of an open request.
CHANNEL_COMMENT_MAX_LENGTH = 1000


def build_channel_list(answer: Any) -> list[tuple[int, str, str]]:
    """[(channel_id, name, channel_type)] of the hub's channel list (operation 21); entries not in the
    contract's shape are left out."""
    channels: list[tuple[int, str, str]] = []
    for entry in answer if isinstance(answer, list) else []:
        if not isinstance(entry, dict):
            continue
        channel_id, name, kind = entry.get("id"), entry.get("name"), entry.get("channel_type")
        valid_id = isinstance(channel_id, int) and not isinstance(channel_id, bool) and channel_id > 0
        if valid_id and isinstance(name, str) and kind in ("hub", "cms"):
            channels.append((entry["id"], name[:100], kind))
    return channels


def parse_channel_statuses(answer: Any) -> dict[int, str]:
    """{channel_id: status} of a property's channel statuses (operation 23)."""
    statuses = {}
    for entry in answer if isinstance(answer, list) else []:
        if (
            isinstance(entry, dict)
            and entry.get("status") in ("closed", "requested", "open", "rejected")
            and isinstance(entry.get("channel_id"), int)
        ):
            statuses[entry["channel_id"]] = entry["status"]
    return statuses


def build_open_request(request: OpenRequestFields, *, cms: bool) -> Body:
    """The open request body (operation 24): comment when given, and cms_account for a cms channel."""
    body = _optional({}, comment=request.comment)
    if cms:
        body["cms_account"] = {"account_id": request.cms_account_id, "property_code": request.cms_property_code}
    return body


def _parse_time(value: Any) -> datetime | None:
    """An ISO 8601 time the hub wrote, or None when it is missing or malformed."""
    try:
        return datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def parse_open_request(answer: Any) -> Body:
    """The fields of ChannelOpenRequest an open request answer sets (operations 24-26); bad values left out."""
    if not isinstance(answer, dict):
        return {}
    fields = {
        "status": answer.get("status") if answer.get("status") in ("pending", "approved", "rejected") else None,
        "reason": answer.get("reason") or "" if isinstance(answer.get("reason"), str | None) else None,
        "hub_created_at": _parse_time(answer.get("created_at")),
        "hub_updated_at": _parse_time(answer.get("updated_at")),
    }
    if isinstance(answer.get("id"), int) and not isinstance(answer.get("id"), bool):
        fields["hub_id"] = answer["id"]
    return {key: value for key, value in fields.items() if value is not None}


def build_channel_settings(property_channel: PropertyChannelFields) -> Body:
    """The sales settings body (operations 27-28) of a property on a channel."""
    return {
        "on_sale": property_channel.on_sale,
        "roomtypes": dict(sorted(property_channel.room_types.items())),
        "rateplans": dict(sorted(property_channel.rate_plans.items())),
    }


def build_channel_mappings(property_channel: PropertyChannelFields) -> Body:
    """The mapping body (operations 29-30) of a property on a cms channel: every coded room type and plan."""
    return {
        "roomtypes": [
            {"vendor_roomtype_id": vendor_id, "channel_code": code}
            for vendor_id, code in sorted(property_channel.room_type_codes.items())
        ],
        "rateplans": [
            {"vendor_rateplan_id": vendor_id, "channel_code": code}
            for vendor_id, code in sorted(property_channel.rate_plan_codes.items())
        ],
    }


# --- License requests (spec, "License request") ----------------------------------------------------
# build_license_body() is the submission body; the file goes in as base64 text that the caller (the
# sync resource, licenses.resources) reads from private storage. The parse_* functions read the hub's
# submission result, list item and detail into the fields LicenseRequest keeps.

#: SPEC: the two types of license request, and the words of the hub's review (licenses.choices holds
#: them as the model's choices; a test keeps both in step).
LICENSE_PERMIT = "permit"
LICENSE_BUSINESS = "business"
LICENSE_REVIEW_STATUSES = frozenset({"pending", "confirm", "reject"})
#: SPEC: the reason of a request rejected because a newer one of the same document was submitted.
SUPERSEDED_REASON = re.compile(r"Superseded by request (\d+)")


def build_license_body(request: Any, *, file_base64: str) -> Body:
    """The submission body (permit or business) of a license request, with the file given as base64."""
    if request.type == LICENSE_PERMIT:
        data = {
            "type": request.permit_type,
            "number": request.permit_number,
            "date": request.permit_date.isoformat(),
            "file": file_base64,
        }
    else:
        data = _optional(
            {
                "type": request.business_type,
                "number": request.business_number,
                "owner_name": request.owner_name,
                "open_date": request.open_date.isoformat(),
                "file": file_base64,
            },
            name=request.business_name,
            address=request.business_address,
            industry=request.industry,
            category=request.category,
        )
    return _optional({"type": request.type, "data": data}, comment=request.comment)


def _review_status(value: Any) -> str:
    return value if value in LICENSE_REVIEW_STATUSES else ""


def parse_license_result(answer: Any) -> Body:
    """The fields of LicenseRequest that a submission result or list item sets (id, status, reason, times);
    missing or malformed values are left out."""
    if not isinstance(answer, dict):
        return {}
    fields = {
        "status": _review_status(answer.get("status")),
        "reason": answer.get("reason") if isinstance(answer.get("reason"), str) else "",
        "hub_created_at": _parse_time(answer.get("created_at")),
        "hub_updated_at": _parse_time(answer.get("updated_at")),
    }
    if isinstance(answer.get("id"), int) and not isinstance(answer.get("id"), bool):
        fields["hub_id"] = answer["id"]
    return {key: value for key, value in fields.items() if value is not None}


def parse_license_detail(answer: Any) -> Body:
    """parse_license_result's fields plus the history (newest first, as the hub lists it) and the masked
    number."""
    fields = parse_license_result(answer)
    histories = answer.get("histories") if isinstance(answer, dict) else None
    if isinstance(histories, list):
        fields["history"] = [
            {
                "status": _review_status(entry.get("status")),
                "reason": entry.get("reason") if isinstance(entry.get("reason"), str) else None,
                "created_at": entry.get("created_at") if isinstance(entry.get("created_at"), str) else None,
            }
            for entry in histories
            if isinstance(entry, dict)
        ]
    data = answer.get("data") if isinstance(answer, dict) else None
    if isinstance(data, dict) and answer.get("type") == LICENSE_BUSINESS and isinstance(data.get("number"), str):
        fields["hub_number"] = data["number"][:20]
    return fields


def superseding_hub_id(reason: str | None) -> int | None:
    """The hub id of the request that superseded this one, read from the reason, or None."""
    match = SUPERSEDED_REASON.fullmatch((reason or "").strip())
    return int(match[1]) if match else None
