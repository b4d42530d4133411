"""Our models as the hub's JSON bodies, and the RFC 7396 merge-patch between two bodies.

Each build_* function returns the full body the hub should hold for a resource (its create body).
patch_body() turns the last acknowledged body and the current one into the PATCH to send.
"""

from ..sync.models import ResourceKind

# Keys that carry secrets or file contents: an attempt record keeps their size, never their value.
_SECRET_KEYS = frozenset({"file", "token", "password", "secret", "authorization"})


def _i18n(translations, fields):
    """One entry per locale with only the fields that have text (an absent field keeps the hub's empty)."""
    entries = []
    for translation in sorted(translations, key=lambda t: t.locale):
        entry = {"locale": translation.locale}
        entry.update({field: getattr(translation, field) for field in fields if getattr(translation, field)})
        entries.append(entry)
    return entries


def _photos(photos):
    return [
        {"url": photo.url, **({"description": photo.description} if photo.description else {}), "order": photo.order}
        for photo in sorted(photos, key=lambda p: (p.order, p.pk or 0))
    ]


def _optional(body, **fields):
    """Add the fields that have a value; a missing one is absent, so a PATCH clears it with null."""
    body.update({key: value for key, value in fields.items() if value not in (None, "", [], {})})
    return body


def _hhmm(value):
    return value.strftime("%H:%M") if value else None


def _codes(obj, field, hub_codes):
    """A tag field's codes as the hub's: hub_codes(field, codes) applies the code mapping table
    (integration.catalog.selectors.HubCodes, given by the content resource); without it, as stored."""
    codes = list(getattr(obj, field))
    return hub_codes(field, codes) if hub_codes else codes


def build_property(prop, *, hub_codes=None):
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
        "settings": {"extra_adult_price": prop.extra_adult_price},
    }
    return _optional(
        body,
        email=prop.email,
        phone=prop.phone,
        sms_phone=prop.sms_phone,
        checkin=_hhmm(prop.checkin),
        checkout=_hhmm(prop.checkout),
        website=prop.website,
        refunds=dict(sorted(prop.refunds.items(), key=lambda item: int(item[0][:-1]))) if prop.refunds else None,
    )


def build_roomtype(room_type, *, hub_codes=None):
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
    }
    return _optional(
        body,
        min_stay=room_type.min_stay,
        max_stay=room_type.max_stay,
        size=float(room_type.size) if room_type.size is not None else None,
        standard_capacity=room_type.standard_capacity,
        max_capacity=room_type.max_capacity,
        details=dict(room_type.details) or None,
    )


def build_rateplan_model(model):
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


def build_rateplan(rate_plan):
    """PostRateplanBody for a rate plan."""
    return {
        "id": rate_plan.vendor_id,
        "vendor_rateplan_model_id": rate_plan.model.vendor_id,
        "status": rate_plan.status,
    }


def merge_patch(old, new):
    """The RFC 7396 patch from old to new, top level only: changed fields whole, removed fields null."""
    patch = {key: value for key, value in new.items() if old.get(key, object()) != value}
    patch.update(dict.fromkeys(old.keys() - new.keys()))
    return patch


def patch_body(kind, old, new):
    """The PATCH body for a resource of kind, or {} when the hub already holds new.

    The hub's patch bodies have no id; a rate plan's patch carries its status only (its model cannot
    change), and a rate plan model's patch always carries i18n, which the spec requires there.
    """
    patch = merge_patch(old or {}, new)
    patch.pop("id", None)
    if kind == ResourceKind.RATE_PLAN:
        patch = {key: value for key, value in patch.items() if key == "status"}
    if kind == ResourceKind.RATE_PLAN_MODEL and patch:
        patch["i18n"] = new["i18n"]
    return patch


def full_patch_body(kind, new):
    """The PATCH that re-sends a resource's whole state (full resync, or after a 409 on create)."""
    return patch_body(kind, {}, new)


def redact_body(body):
    """A copy of body fit for the attempt log: secret values and file contents replaced by a note."""
    if isinstance(body, dict):
        return {
            key: (
                f"[{len(value)} characters removed]"
                if key.lower() in _SECRET_KEYS and isinstance(value, str)
                else redact_body(value)
            )
            for key, value in body.items()
        }
    if isinstance(body, list):
        return [redact_body(item) for item in body]
    return body


#: OURS (contract section 2): at most this many range entries in one rates or availability request.
MAX_ARI_ENTRIES = 1000


def ari_runs(day_values):
    """[(date, values)] in date order as range entries: runs of consecutive days with equal values
    travel as one {"from", "to", **values}."""
    entries = []
    for day, values in day_values:
        last = entries[-1] if entries else None
        if last and last[1] == values and (day - last[0][1]).days == 1:
            last[0][1] = day
        else:
            entries.append(([day, day], values))
    return [{"from": start.isoformat(), "to": end.isoformat(), **values} for (start, end), values in entries]


def build_ari_bodies(section, common, channels):
    """The bodies of one rate plan's rates (section "rates") or one room type's availability ("avails"):
    the common entries and a channels array, split so that no body holds more than MAX_ARI_ENTRIES."""
    entries = [(None, entry) for entry in ari_runs(common)]
    for channel_id, values in sorted(channels.items()):
        entries.extend((channel_id, entry) for entry in ari_runs(values))
    bodies = []
    for start in range(0, len(entries), MAX_ARI_ENTRIES):
        chunk = entries[start : start + MAX_ARI_ENTRIES]
        body = {section: [entry for channel_id, entry in chunk if channel_id is None]}
        per_channel = {}
        for channel_id, entry in chunk:
            if channel_id is not None:
                per_channel.setdefault(channel_id, []).append(entry)
        if per_channel:
            body["channels"] = [{"channel_id": cid, section: items} for cid, items in per_channel.items()]
        bodies.append(body)
    return bodies
