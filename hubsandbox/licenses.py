"""License requests at the sandbox hub (operations 16-18; spec "License request", decision 0016).

Submissions are validated rule by rule as the spec states them, each failure a 400 whose message names
the field: the business registration number's check digit, dates not in the future in Korea time, the
document fields and their lengths, and the file (base64 of a jpeg, png, gif, webp or pdf, judged by its
bytes, at most 10 MiB). The hub keeps what it needs of the file (format, size, SHA-256), never returns
it, and answers has_file. A new submission rejects the property's earlier pending requests of the same
type ("Superseded by request {id}"); people review the rest in the sandbox's admin (license_review).
"""

import base64
import binascii
import hashlib
import re
import zlib
from dataclasses import dataclass
from datetime import date
from typing import NoReturn
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from . import selectors
from .errors import NotFound
from .models import SandboxLicense, SandboxLicenseHistory
from .validation import Field, ValidationError, date_string, enum, obj, string

LICENSE_TYPES = ("permit", "business")
PERMIT_TYPES = (
    "general_lodging",
    "residential_lodging",
    "foreign_tourist_urban_homestay",
    "hanok_experience",
    "rural_homestay",
    "tourist_hotel",
    "floating_tourist_hotel",
    "korean_traditional_hotel",
    "family_hotel",
    "hostel",
    "small_hotel",
    "medical_tourism_hotel",
    "youth_hostel",
    "resort_condominium",
    "tourist_pension",
    "resort_pension",
    "general_campground",
    "auto_campground",
    "forest_lodge",
    "gosiwon",
    "shared_homestay",
    "specialized_resort",
)
BUSINESS_TYPES = ("corporation", "personal")
#: Required for a corporation, optional for a sole proprietor (personal).
CORPORATION_FIELDS = ("name", "address", "industry", "category")
COMMENT_MAX_LENGTH = 16000
#: OURS (decision 0016): at most 10 MiB before base64.
MAX_FILE_BYTES = 10 * 1024 * 1024
_MAX_FILE_BASE64 = 4 * ((MAX_FILE_BYTES + 2) // 3)
#: OURS (decision 0007): the list's limit, by default and at most (as for the settlement list).
LIST_DEFAULT_LIMIT = 100
LIST_MAX_LIMIT = 1000
#: SPEC: the reason given to a request that a newer one of the same document replaced.
SUPERSEDED_REASON = "Superseded by request {id}"

KOREA = ZoneInfo("Asia/Seoul")
_BUSINESS_NUMBER = re.compile(r"\d{3}-?\d{2}-?\d{5}", re.ASCII)
_CHECK_WEIGHTS = (1, 3, 7, 1, 3, 7, 1, 3, 5)


def _fail(path: str, problem: str) -> NoReturn:
    raise ValidationError(f"{path}: {problem}")


# --- Field checks ---------------------------------------------------------------------------------


def korea_today() -> date:
    """Today's date in Korea, which "not in the future" is judged by."""
    return timezone.localdate(timezone=KOREA)


def past_date(value, path):
    """A date written YYYY-MM-DD that is not after today in Korea."""
    date_string(value, path)
    today = korea_today()
    if date.fromisoformat(value) > today:
        _fail(path, f"must not be in the future (today in Korea is {today.isoformat()})")
    return value


def business_number_valid(digits: str) -> bool:
    """Whether ten digits carry a valid check digit (decision 0016)."""
    values = [int(digit) for digit in digits]
    total = sum(weight * value for weight, value in zip(_CHECK_WEIGHTS, values, strict=False))
    total += values[8] * 5 // 10
    return (10 - total % 10) % 10 == values[9]


def business_number(value, path):
    """A business registration number: 10 digits, hyphens optional (123-45-67891), valid check digit."""
    string()(value, path)
    if not _BUSINESS_NUMBER.fullmatch(value):
        _fail(path, "must be a 10-digit business registration number (hyphens optional, as 123-45-67891)")
    if not business_number_valid(value.replace("-", "")):
        _fail(path, "is not a valid business registration number (check digit mismatch)")
    return value


def _png(head):
    if not head.startswith(b"\x89PNG\r\n\x1a\n") or len(head) < 33 or head[8:16] != b"\x00\x00\x00\x0dIHDR":
        return False
    return zlib.crc32(head[12:29]) == int.from_bytes(head[29:33], "big")


_FORMATS = (
    ("jpeg", lambda head: len(head) >= 4 and head[:3] == b"\xff\xd8\xff" and 0xC0 <= head[3] <= 0xFE),
    ("png", _png),
    ("gif", lambda head: len(head) >= 13 and head[:6] in (b"GIF87a", b"GIF89a")),
    ("webp", lambda head: len(head) >= 16 and head[:4] == b"RIFF" and head[8:12] == b"WEBP"),
    ("pdf", lambda head: re.match(rb"%PDF-[12]\.\d", head) is not None),
)


def file_format(content: bytes) -> str | None:
    """jpeg, png, gif, webp or pdf, by the content's first bytes; None for anything else."""
    head = content[:64]
    return next((name for name, matches in _FORMATS if matches(head)), None)


@dataclass(frozen=True)
class ReceivedFile:
    """What the hub keeps of a submitted file."""

    format: str
    size: int
    sha256: str


def license_file(value, path):
    """The file: standard base64 (RFC 4648, no line breaks) of a jpeg, png, gif, webp or pdf of at most
    10 MiB. Returns a ReceivedFile."""
    string(non_empty=True)(value, path)
    if len(value) > _MAX_FILE_BASE64:
        _fail(path, f"the file must be at most {MAX_FILE_BYTES} bytes (10 MiB) before base64")
    try:
        content = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        _fail(path, "must be base64 (standard alphabet, padded, without line breaks)")
    if not content:
        _fail(path, "the file is empty")
    if len(content) > MAX_FILE_BYTES:
        _fail(path, f"the file must be at most {MAX_FILE_BYTES} bytes (10 MiB) before base64")
    found = file_format(content)
    if found is None:
        _fail(path, "the file must be a jpeg, png, gif, webp or pdf (judged by its contents)")
    return ReceivedFile(format=found, size=len(content), sha256=hashlib.sha256(content).hexdigest())


def _text(min_length, max_length):
    return string(non_empty=min_length > 0, max_length=max_length)


PERMIT_DATA = obj(
    {
        "type": Field(enum(PERMIT_TYPES)),
        "number": Field(_text(1, 254)),
        "date": Field(past_date),
        "file": Field(license_file),
    },
    required=("type", "number", "date", "file"),
)

BUSINESS_DATA = obj(
    {
        "type": Field(enum(BUSINESS_TYPES)),
        "number": Field(business_number),
        "owner_name": Field(_text(1, 128)),
        "open_date": Field(past_date),
        "file": Field(license_file),
        # null is taken as "not sent" for the fields a sole proprietor may leave out.
        "name": Field(_text(1, 254), nullable=True),
        "address": Field(_text(1, 254), nullable=True),
        "industry": Field(_text(1, 64), nullable=True),
        "category": Field(_text(1, 64), nullable=True),
    },
    required=("type", "number", "owner_name", "open_date", "file"),
)


def validate_license(body: dict) -> dict:
    """A permit or business submission body; returns it cleaned, data.file replaced by a ReceivedFile and
    nulls dropped."""
    if not isinstance(body, dict):
        _fail("body", "must be a JSON object")
    if "type" not in body:
        _fail("type", "is required")
    license_type = enum(LICENSE_TYPES)(body["type"], "type")
    schema = PERMIT_DATA if license_type == "permit" else BUSINESS_DATA
    passthrough = Field(lambda value, path: value)
    cleaned = obj(
        {
            "type": passthrough,
            "data": Field(schema),
            "comment": Field(string(max_length=COMMENT_MAX_LENGTH), nullable=True),
        },
        required=("type", "data"),
    )(body, "")
    cleaned["data"] = {key: value for key, value in cleaned["data"].items() if value is not None}
    if license_type == "business" and cleaned["data"]["type"] == "corporation":
        for name in CORPORATION_FIELDS:
            if name not in cleaned["data"]:
                _fail(f"data.{name}", "is required for a corporation")
    return cleaned


def _limit_param(value, name, *, default, minimum, maximum=None):
    if value is None or value == "":
        return default
    if (
        not (value.isascii() and value.isdigit())
        or int(value) < minimum
        or (maximum is not None and int(value) > maximum)
    ):
        bounds = f"from {minimum} to {maximum}" if maximum is not None else f">= {minimum}"
        _fail(name, f"must be an integer {bounds}")
    return int(value)


# --- Answers ----------------------------------------------------------------------------------------


def _time(value):
    return timezone.localtime(value, KOREA).isoformat(timespec="seconds")


def mask_number(number: str) -> str:
    """A business number with its last five digits masked, hyphens kept: 220-81-***** or 22081*****."""
    chars, left = list(number), 5
    for index in range(len(chars) - 1, -1, -1):
        if left and chars[index].isdigit():
            chars[index] = "*"
            left -= 1
    return "".join(chars)


def license_result(lic: SandboxLicense) -> dict:
    """The submission result: id, type, status, reason, created_at, updated_at."""
    return {
        "id": lic.pk,
        "type": lic.type,
        "status": lic.status,
        "reason": lic.reason,
        "created_at": _time(lic.created_at),
        "updated_at": _time(lic.updated_at),
    }


def license_item(lic: SandboxLicense) -> dict:
    """A list item (LicenseRequest): the result plus comment (null when none was sent)."""
    return {**license_result(lic), "comment": lic.comment}


def license_detail_json(lic: SandboxLicense) -> dict:
    """The detail: the list item, data (masked number, null for what was not sent), has_file and the
    history newest first. Never the file."""
    sent = lic.data
    if lic.type == "permit":
        data = {
            "type": sent.get("type") if sent.get("type") in PERMIT_TYPES else None,
            "number": sent.get("number"),
            "date": sent.get("date"),
        }
    else:
        data = {
            "type": sent.get("type"),
            "number": mask_number(sent["number"]) if sent.get("number") else None,
            **{name: sent.get(name) for name in ("owner_name", "open_date", *CORPORATION_FIELDS)},
        }
    histories = [
        {"status": entry.status, "reason": entry.reason, "created_at": _time(entry.created_at)}
        for entry in lic.histories.all()
    ]
    return {**license_item(lic), "data": data, "has_file": lic.file_bytes > 0, "histories": histories}


# --- Operations -------------------------------------------------------------------------------------


def license_submit(*, property_id: str, body: dict) -> SandboxLicense:
    """POST /gds/vendor/properties/{pid}/licenses: a new pending request; the property's earlier pending
    requests of the same type are rejected as superseded by it.

    OURS, decision 0016 (the spec leaves "which prior statuses a resubmission affects" open): only pending ones; a
    confirmed or rejected request keeps its review. Superseding adds a history entry, as a review does.
    """
    selectors.property_get(property_id)
    cleaned = validate_license(body)
    data = dict(cleaned["data"])
    received = data.pop("file")
    with transaction.atomic():
        prop = selectors.property_get(property_id, for_update=True)
        now = timezone.now()
        lic = SandboxLicense.objects.create(
            property=prop,
            type=cleaned["type"],
            comment=cleaned.get("comment"),
            data=data,
            file_format=received.format,
            file_bytes=received.size,
            file_sha256=received.sha256,
            created_at=now,
            updated_at=now,
        )
        reason = SUPERSEDED_REASON.format(id=lic.pk)
        earlier = prop.licenses.filter(type=lic.type, status=SandboxLicense.Status.PENDING).exclude(pk=lic.pk)
        for old in earlier.select_for_update():
            _set_status(old, SandboxLicense.Status.REJECT, reason, now)
    return lic


def _set_status(lic, status, reason, now):
    lic.status, lic.reason, lic.updated_at = status, reason, now
    lic.save(update_fields=["status", "reason", "updated_at"])
    SandboxLicenseHistory.objects.create(license=lic, status=status, reason=reason, created_at=now)


class ReviewRefused(ValueError):
    """A review the hub does not allow: of a request no longer pending, or a rejection without a reason."""


def license_review(*, license_id: int, status: str, reason: str | None = None) -> SandboxLicense:
    """The hub's reviewer confirms or rejects (with a reason) a pending request; adds a history entry."""
    if status not in (SandboxLicense.Status.CONFIRM, SandboxLicense.Status.REJECT):
        raise ReviewRefused(f"a review confirms or rejects, not {status!r}")
    reason = (reason or "").strip() or None
    if status == SandboxLicense.Status.REJECT and reason is None:
        raise ReviewRefused("a rejection needs a reason")
    with transaction.atomic():
        lic = SandboxLicense.objects.select_for_update().filter(pk=license_id).first()
        if lic is None:
            raise ReviewRefused(f"no license request {license_id}")
        if lic.status != SandboxLicense.Status.PENDING:
            raise ReviewRefused(f"license request {license_id} is {lic.status}, not pending")
        _set_status(lic, status, reason, timezone.now())
    return lic


def license_list(*, property_id: str, offset: str | None, limit: str | None) -> dict:
    """GET /gds/vendor/properties/{pid}/licenses?offset=&limit=: the property's requests, newest first."""
    offset_value = _limit_param(offset, "offset", default=0, minimum=0)
    limit_value = _limit_param(limit, "limit", default=LIST_DEFAULT_LIMIT, minimum=1, maximum=LIST_MAX_LIMIT)
    prop = selectors.property_get(property_id)
    requests = prop.licenses.order_by("-created_at", "-id").defer("data")
    return {
        "count": requests.count(),
        "offset": offset_value,
        "limit": limit_value,
        "licenses": [license_item(lic) for lic in requests[offset_value : offset_value + limit_value]],
    }


def license_get(*, property_id: str, license_id: int) -> SandboxLicense:
    """A request of the property; NotFound for another property's or an unknown id."""
    prop = selectors.property_get(property_id)
    lic = prop.licenses.prefetch_related("histories").filter(pk=license_id).first()
    if lic is None:
        raise NotFound(f"license request {license_id} not found in property {property_id!r}")
    return lic


def license_find(license_id: int) -> SandboxLicense | None:
    """A request by its id, whatever its property, or None."""
    return SandboxLicense.objects.prefetch_related("histories").filter(pk=license_id).first()


def forget_all() -> None:
    """Forget every license request (state.reset)."""
    SandboxLicense.objects.all().delete()
