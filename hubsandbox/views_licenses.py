"""The sandbox hub's license endpoints (operations 16-18). Their request log leaves the file out."""

import json
import time

from . import faults, licenses
from .models import SandboxRequest
from .views import HubView, _hub_path

#: A body that is not JSON is logged only up to this size (it may be a file's base64 all the same).
_UNPARSED_LOG_LIMIT = 64 * 1024


def _loggable_body(raw_body: bytes | None) -> str:
    """The body for the request log: data.file's base64 replaced by its length, as the vendor's own
    attempt log does."""
    if not raw_body:
        return ""
    try:
        body = json.loads(raw_body)
    except ValueError:
        if len(raw_body) > _UNPARSED_LOG_LIMIT:
            return f"[{len(raw_body)} bytes that are not JSON: not logged]"
        return raw_body.decode("utf-8", errors="replace")
    data = body.get("data") if isinstance(body, dict) else None
    if isinstance(data, dict) and isinstance(data.get("file"), str):
        data["file"] = f"[{len(data['file'])} characters removed]"
    return json.dumps(body, ensure_ascii=False)


class LicenseHubView(HubView):
    """HubView whose request log never holds a license file."""

    def _record(self, request, raw_body, started, response, fault):
        SandboxRequest.objects.create(
            method=request.method,
            path=_hub_path(request)[:500],
            query=request.META.get("QUERY_STRING", "")[:1000],
            request_body=_loggable_body(raw_body),
            request_bytes=len(raw_body) if raw_body is not None else int(request.META.get("CONTENT_LENGTH") or 0),
            response_status=response.status_code if response is not None else None,
            response_body=response.content.decode("utf-8", errors="replace") if response is not None else "",
            response_bytes=len(response.content) if response is not None else 0,
            fault="" if fault is faults.Fault.OK else fault,
            duration_ms=(time.monotonic() - started) * 1000,
        )


class LicenseCollectionView(LicenseHubView):
    """POST and GET /gds/vendor/properties/{pid}/licenses: submit a request; list them, newest first."""

    def get(self, request, property_id):
        return licenses.license_list(
            property_id=property_id, offset=request.GET.get("offset"), limit=request.GET.get("limit")
        )

    def post(self, request, property_id, body):
        return licenses.license_result(licenses.license_submit(property_id=property_id, body=body))


class LicenseView(LicenseHubView):
    """GET /gds/vendor/properties/{pid}/licenses/{id}: the detail, with the history; never the file."""

    def get(self, request, property_id, license_id):
        return licenses.license_detail_json(licenses.license_get(property_id=property_id, license_id=license_id))
