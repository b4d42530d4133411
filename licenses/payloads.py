"""License requests as the hub's JSON (spec, "License request"), and the hub's answers read back.

build_license_body() is the submission body; the file goes in as base64 text that the caller (the
sync resource) reads from private storage. The parse_* functions read the hub's submission result,
list item and detail into the fields LicenseRequest keeps.
"""

import re
from datetime import datetime

from .choices import LicenseType, ReviewStatus

#: SPEC: the reason of a request rejected because a newer one of the same document was submitted.
SUPERSEDED_REASON = re.compile(r"Superseded by request (\d+)")


def _optional(body, **fields):
    body.update({key: value for key, value in fields.items() if value not in (None, "")})
    return body


def build_license_body(request, *, file_base64):
    """The submission body (permit or business) of a license request, with the file given as base64."""
    if request.type == LicenseType.PERMIT:
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


def _timestamp(value):
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def _status(value):
    return value if value in ReviewStatus.values else ""


def parse_result(answer):
    """The fields of LicenseRequest that a submission result or list item sets (id, status, reason, times);
    missing or malformed values are left out."""
    if not isinstance(answer, dict):
        return {}
    fields = {
        "status": _status(answer.get("status")),
        "reason": answer.get("reason") if isinstance(answer.get("reason"), str) else "",
        "hub_created_at": _timestamp(answer.get("created_at")),
        "hub_updated_at": _timestamp(answer.get("updated_at")),
    }
    if isinstance(answer.get("id"), int) and not isinstance(answer.get("id"), bool):
        fields["hub_id"] = answer["id"]
    return {key: value for key, value in fields.items() if value is not None}


def parse_detail(answer):
    """parse_result's fields plus the history (newest first, as the hub lists it) and the masked number."""
    fields = parse_result(answer)
    histories = answer.get("histories") if isinstance(answer, dict) else None
    if isinstance(histories, list):
        fields["history"] = [
            {
                "status": _status(entry.get("status")),
                "reason": entry.get("reason") if isinstance(entry.get("reason"), str) else None,
                "created_at": entry.get("created_at") if isinstance(entry.get("created_at"), str) else None,
            }
            for entry in histories
            if isinstance(entry, dict)
        ]
    data = answer.get("data") if isinstance(answer, dict) else None
    if isinstance(data, dict) and answer.get("type") == LicenseType.BUSINESS and isinstance(data.get("number"), str):
        fields["hub_number"] = data["number"][:20]
    return fields


def superseding_hub_id(reason):
    """The hub id of the request that superseded this one, read from the reason, or None."""
    match = SUPERSEDED_REASON.fullmatch((reason or "").strip())
    return int(match[1]) if match else None
