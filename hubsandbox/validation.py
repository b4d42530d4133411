"""Validation of what vendors send to the sandbox hub, rule by rule as the spec states it.

Every check raises ValidationError (HTTP 400) whose message names the field, e.g.
"i18n[0].locale: must be one of ko-KR, en-US, ...". The validate_* functions return the cleaned body:
the same fields, with integral numbers such as 2.0 turned into 2 and "channels": [] turned into None
(both mean "all channels"). A None value left in a cleaned body means "clear this field".

Null (RFC 7396: remove the member) is accepted only where the spec marks a field nullable: a property's
settings.extra_adult_price, and a rate plan model's sale_from, sale_to, min_los, max_los and channels.
Anywhere else null is refused, as the spec's "null clears where the schema allows null" has it: a map or
array is cleared by sending it empty, a plain text by an empty string, and a field with a format (email,
phone, checkin, website, a room type's size or stays...) cannot be cleared once set
(decision 0004).
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any, NoReturn
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email

from .catalog import LOCALES, valid_codes
from .errors import HubError, UnsupportedMediaType

CONTENT_STATUSES = ("enabled", "disabled")
RATEPLAN_MODEL_TYPES = ("standalone", "package")
MEALS = ("breakfast", "lunch", "dinner")
BED_COUNTS = ("single_beds", "double_beds", "bunk_beds")
ID_MAX_LENGTH = 40
#: Media types a body may be sent as; RFC 7396 names the second for merge patches.
JSON_CONTENT_TYPES = ("application/json", "application/merge-patch+json")

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIME = re.compile(r"(\d{2}):(\d{2})")
# Days before check-in: 0d, 1d, 2d... (no leading zero, a lowercase d).
_REFUND_DAYS = re.compile(r"(0|[1-9][0-9]*)d")
# Line breaks, for the fields the spec keeps on one line (str.splitlines() splits on each of these).
_LINE_BREAK = re.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")
# An absolute URI (RFC 3986): a scheme, a colon, then URI characters only (no spaces, no raw non-ASCII).
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")


class ValidationError(HubError):
    """A request body or parameter breaks a rule of the spec; the message names the field."""

    status = 400


Check = Callable[[Any, str], Any]


@dataclass(frozen=True)
class Field:
    """One field of an object: how to check its value, and whether null is allowed (null clears it)."""

    check: Check
    nullable: bool = False


def _fail(path: str, problem: str) -> NoReturn:
    raise ValidationError(f"{path}: {problem}")


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


# --- Scalars -----------------------------------------------------------------------------------


def string(*, non_empty: bool = False, max_length: int | None = None) -> Check:
    """A string, optionally non-empty and of limited length."""

    def check(value, path):
        if not isinstance(value, str):
            _fail(path, "must be a string")
        if non_empty and not value:
            _fail(path, "must not be empty")
        if max_length is not None and len(value) > max_length:
            _fail(path, f"must be at most {max_length} characters long")
        return value

    return check


def single_line(value, path):
    """A string on one line (the spec's "single line")."""
    string()(value, path)
    if _LINE_BREAK.search(value):
        _fail(path, "must be a single line (no line breaks)")
    return value


def integer(*, minimum: int) -> Check:
    """An integer >= minimum. Booleans are not integers; 2.0 is (JSON numbers do not tell them apart)."""

    def check(value, path):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            _fail(path, f"must be an integer >= {minimum}")
        return value

    return check


def number(*, between: tuple[float, float] | None = None) -> Check:
    """A JSON number (not a boolean), optionally within inclusive bounds."""

    def check(value, path):
        if isinstance(value, bool) or not isinstance(value, int | float):
            _fail(path, "must be a number")
        if between is not None and not between[0] <= value <= between[1]:
            _fail(path, f"must be a number from {between[0]} to {between[1]}")
        return value

    return check


def boolean(value, path):
    """true or false."""
    if not isinstance(value, bool):
        _fail(path, "must be a boolean")
    return value


def enum(choices: tuple[str, ...]) -> Check:
    """One of a fixed set of strings."""

    def check(value, path):
        if not isinstance(value, str) or value not in choices:
            _fail(path, f"must be one of {', '.join(choices)}")
        return value

    return check


def date_string(value, path):
    """A calendar date written YYYY-MM-DD."""
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        _fail(path, "must be a date written YYYY-MM-DD")
    try:
        date.fromisoformat(value)
    except ValueError:
        _fail(path, f"{value} is not a valid date")
    return value


def time_string(value, path):
    """A time of day written HH:mm (two digits, colon, two digits)."""
    match = _TIME.fullmatch(value) if isinstance(value, str) else None
    if not match or int(match[1]) > 23 or int(match[2]) > 59:
        _fail(path, "must be a time written HH:mm, from 00:00 to 23:59")
    return value


def email(value, path):
    """An email address."""
    string()(value, path)
    try:
        validate_email(value)
    except DjangoValidationError:
        _fail(path, "must be a valid email address")
    return value


def uri(value, path):
    """An absolute URI; an http(s) URI needs a host. Non-ASCII characters must be percent-encoded."""
    string()(value, path)
    parts = urlsplit(value) if _URI.fullmatch(value) else None
    if parts is None or (parts.scheme.lower() in ("http", "https") and not parts.hostname):
        _fail(path, "must be an absolute URI such as https://example.com/a.jpg (percent-encode non-ASCII)")
    return value


# --- Containers --------------------------------------------------------------------------------


def array(item: Check, *, min_items: int = 0) -> Check:
    """A JSON array whose items all pass item."""

    def check(value, path):
        if not isinstance(value, list):
            _fail(path, "must be an array")
        if len(value) < min_items:
            _fail(path, f"must have at least {min_items} {'entry' if min_items == 1 else 'entries'}")
        return [item(entry, f"{path}[{index}]") for index, entry in enumerate(value)]

    return check


def string_map(*, key_pattern: re.Pattern | None, key_hint: str = "", value: Check) -> Check:
    """A JSON object used as a map: free keys (optionally matching a pattern), checked values."""

    def check(mapping, path):
        if not isinstance(mapping, dict):
            _fail(path, "must be an object")
        cleaned = {}
        for key, entry in mapping.items():
            if key_pattern is not None and not key_pattern.fullmatch(key):
                _fail(path, f"key {key!r} must be {key_hint}")
            cleaned[key] = value(entry, _join(path, key))
        return cleaned

    return check


def obj(fields: dict[str, Field], *, required: tuple[str, ...] = ()) -> Check:
    """A JSON object with a fixed set of fields: unknown fields, missing required ones and nulls are errors."""

    def check(value, path):
        if not isinstance(value, dict):
            _fail(path or "body", "must be a JSON object")
        for key in value:
            if key not in fields:
                _fail(_join(path, key), "unknown field")
        for key in required:
            if key not in value:
                _fail(_join(path, key), "is required")
        cleaned: dict[str, Any] = {}
        for key, entry in value.items():
            field_path = _join(path, key)
            if entry is None:
                if not fields[key].nullable:
                    _fail(field_path, "may not be null")
                cleaned[key] = None
            else:
                cleaned[key] = fields[key].check(entry, field_path)
        return cleaned

    return check


# --- Pieces of the hub's schemas -----------------------------------------------------------------

identifier = string(non_empty=True, max_length=ID_MAX_LENGTH)
status = enum(CONTENT_STATUSES)
locale = enum(LOCALES)
photo = obj(
    {"url": Field(uri), "description": Field(string()), "order": Field(integer(minimum=0))},
    required=("url", "order"),
)


def tags(group: str) -> Check:
    """An array of codes of one catalog group."""

    def check(value, path):
        codes = array(string())(value, path)
        known = valid_codes(group)
        for index, code in enumerate(codes):
            if code not in known:
                _fail(f"{path}[{index}]", f"unknown {group} code {code!r} (see GET /gds/vendor/meta)")
        return codes

    return check


#: The translation fields the spec keeps on one line.
SINGLE_LINE_FIELDS = frozenset({"address"})


def i18n(entry_fields: tuple[str, ...], *, min_items: int = 0) -> Check:
    """An array of translations, one entry per locale; address_detail needs address in the same entry."""
    entry = obj(
        {"locale": Field(locale)}
        | {name: Field(single_line if name in SINGLE_LINE_FIELDS else string()) for name in entry_fields},
        required=("locale",),
    )

    def check(value, path):
        entries = array(entry, min_items=min_items)(value, path)
        seen = set()
        for index, translation in enumerate(entries):
            if translation["locale"] in seen:
                _fail(f"{path}[{index}].locale", f"{translation['locale']} appears more than once")
            seen.add(translation["locale"])
            if "address_detail" in translation and "address" not in translation:
                _fail(f"{path}[{index}].address_detail", "requires address in the same entry")
        return entries

    return check


def _require_korean(cleaned: dict):
    """SPEC: ko-KR is required on create (property, room type) and on every rate plan model body. A
    create body without i18n has no ko-KR either: the same 400."""
    if "ko-KR" not in {entry["locale"] for entry in cleaned.get("i18n") or ()}:
        _fail("i18n", "must include an entry for ko-KR")


PROPERTY_FIELDS = {
    "status": Field(status),
    "i18n": Field(
        i18n(
            (
                "name",
                "description",
                "address",
                "address_detail",
                "notice",
                "reservation_description",
                "refunds_description",
            )
        )
    ),
    "email": Field(email),
    "phone": Field(string()),
    "sms_phone": Field(string()),
    "checkin": Field(time_string),
    "checkout": Field(time_string),
    "website": Field(uri),
    "refunds": Field(
        string_map(
            key_pattern=_REFUND_DAYS,
            key_hint="a number of days before check-in such as 0d, 1d, 2d (no leading zero, a lowercase d)",
            value=number(between=(0, 100)),
        )
    ),
    "classifications": Field(tags("classification")),
    "property_tags": Field(tags("property")),
    "facility_tags": Field(tags("facility")),
    "service_tags": Field(tags("service")),
    "attraction_tags": Field(tags("attraction")),
    "photos": Field(array(photo)),
    "settings": Field(obj({"extra_adult_price": Field(integer(minimum=0), nullable=True)})),
}

ROOMTYPE_FIELDS = {
    "status": Field(status),
    "i18n": Field(i18n(("name", "description"))),
    "min_stay": Field(integer(minimum=1)),
    "max_stay": Field(integer(minimum=1)),
    "size": Field(number()),
    "standard_capacity": Field(integer(minimum=1)),
    "max_capacity": Field(integer(minimum=1)),
    "roomtype_tags": Field(tags("roomtype")),
    "amenity_tags": Field(tags("amenity")),
    "view_tags": Field(tags("view")),
    "details": Field(string_map(key_pattern=None, value=number())),
    # SPEC: the three counts make the bed type; a part of it is refused.
    "bedtype": Field(obj({name: Field(integer(minimum=0)) for name in BED_COUNTS}, required=BED_COUNTS)),
    "photos": Field(array(photo)),
}

RATEPLAN_MODEL_FIELDS = {
    "type": Field(enum(RATEPLAN_MODEL_TYPES)),
    "i18n": Field(i18n(("name", "description"), min_items=1)),
    "sale_from": Field(date_string, nullable=True),
    "sale_to": Field(date_string, nullable=True),
    "min_los": Field(integer(minimum=1), nullable=True),
    "max_los": Field(integer(minimum=1), nullable=True),
    "refundable": Field(boolean),
    "meals": Field(
        obj(
            {meal: Field(boolean) for meal in ("breakfast", "lunch", "dinner")},
            required=("breakfast", "lunch", "dinner"),
        )
    ),
    "channels": Field(array(integer(minimum=1)), nullable=True),
}


# --- Bodies ------------------------------------------------------------------------------------


def parse_json(raw: bytes, content_type: str) -> dict:
    """The body of a POST or PATCH: JSON (UTF-8) holding an object. NaN and Infinity are not JSON."""
    if not raw:
        _fail("body", "is required (a JSON object)")
    if content_type not in JSON_CONTENT_TYPES:
        raise UnsupportedMediaType(f"Content-Type: must be {' or '.join(JSON_CONTENT_TYPES)}")
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError) as error:
        _fail("body", f"malformed JSON ({error})")
    if not isinstance(body, dict):
        _fail("body", "must be a JSON object")
    return body


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def validate_property(body: dict, *, create: bool) -> dict:
    """PostPropertyBody (create) or PatchPropertyBody: only id is required, ko-KR on create."""
    if create:
        cleaned = obj({"id": Field(identifier)} | PROPERTY_FIELDS, required=("id",))(body, "")
        _require_korean(cleaned)
        return cleaned
    return obj(PROPERTY_FIELDS)(body, "")


def validate_roomtype(body: dict, *, create: bool) -> dict:
    """PostRoomtypeBody (create) or PatchRoomtypeBody: only id is required, ko-KR on create."""
    if create:
        cleaned = obj({"id": Field(identifier)} | ROOMTYPE_FIELDS, required=("id",))(body, "")
        _require_korean(cleaned)
        return cleaned
    return obj(ROOMTYPE_FIELDS)(body, "")


def validate_rateplan_model(body: dict, *, create: bool) -> dict:
    """PostRateplanModelBody or PatchRateplanModelBody: i18n (with ko-KR) is required on both."""
    if create:
        cleaned = obj({"id": Field(identifier)} | RATEPLAN_MODEL_FIELDS, required=("id", "i18n"))(body, "")
    else:
        cleaned = obj(RATEPLAN_MODEL_FIELDS, required=("i18n",))(body, "")
    _require_korean(cleaned)
    if cleaned.get("channels") == []:
        cleaned["channels"] = None
    return cleaned


def validate_rateplan(body: dict, *, create: bool) -> dict:
    """PostRateplanBody (id, vendor_rateplan_model_id, optional status) or PatchRateplanBody (status only)."""
    if create:
        fields = {
            "id": Field(identifier),
            "vendor_rateplan_model_id": Field(identifier),
            "status": Field(status),
        }
        return obj(fields, required=("id", "vendor_rateplan_model_id"))(body, "")
    return obj({"status": Field(status)})(body, "")


def validate_sale_window(content: dict):
    """A rate plan model's sale window, as it stands once a body is applied: sale_from not after sale_to."""
    sale_from, sale_to = content.get("sale_from"), content.get("sale_to")
    if sale_from and sale_to and sale_from > sale_to:
        _fail("sale_to", f"{sale_to} is before sale_from {sale_from}: the sale window must end on or after its start")


def validate_no_query(query) -> None:
    """SPEC: the code catalog (GET /meta) takes no parameters; any is refused, named."""
    for name in query:
        _fail(name, "unknown query parameter (GET /gds/vendor/meta takes none)")
