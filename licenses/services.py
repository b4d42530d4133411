"""Writes of the licenses app, one function per use case.

Submitting stores the request and its file and marks it for the hub in the same transaction; the sync
engine delivers it (licenses.resources). Refreshing reads the hub's list and details first and then writes,
so that no transaction is held across a network call.
"""

import logging
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files import File
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.background.jobs import job_queue
from core.background.periodic import for_each_row
from core.files.storage import storage_save
from integration.hub import endpoints
from integration.hub.client import HubClient, HubError, get_hub_client
from integration.hub.payloads import parse_license_detail, parse_license_result
from integration.hub.selectors import hub_environment_active, hub_paused_refusal
from integration.models import Property, ResourceKind, SyncState
from integration.sync.services.outbox import sync_mark_changed, sync_request

from . import selectors
from .choices import ReviewStatus
from .files import license_file_check, license_file_name
from .models import BUSINESS_FIELDS, PERMIT_FIELDS, LicenseRequest
from .signals import license_reviewed

logger = logging.getLogger(__name__)

#: Requests asked per page of the hub's list (OURS, decision 0007: the hub's lists allow up to 1000).
LIST_PAGE_SIZE = 100
#: The Celery task that refreshes one property's requests (licenses.tasks), queued by name: the tasks
#: call these services, which never import them back.
REFRESH_TASK = "licenses.tasks.license_requests_refresh_task"


class LicenseAnswerInvalid(HubError):
    """The hub answered 2xx with something that is not the spec's license list or detail."""


# --- Submitting ---------------------------------------------------------------------------------


@transaction.atomic
def license_request_submit(
    *,
    property: Property,
    type: str,
    fields: dict[str, Any],
    file: File | None = None,
    user: User | None = None,
    resubmission_of: LicenseRequest | None = None,
) -> LicenseRequest:
    """Store a manager's license request for property and queue its submission to the hub.

    fields: the document fields of the type (PERMIT_FIELDS or BUSINESS_FIELDS, plus "comment").
    file: the uploaded file; None reuses the file of resubmission_of, the rejected request this one
    follows. Raises ValidationError (field name -> errors) when anything breaks a rule of the spec, or
    when the file cannot be stored (a full or unwritable storage); then nothing is stored and nothing is sent.
    """
    allowed = {*PERMIT_FIELDS, *BUSINESS_FIELDS, "comment"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValueError(f"not fields of a license request: {', '.join(sorted(unknown))}")
    request = LicenseRequest(property=property, type=type, created_by=user, resubmission_of=resubmission_of, **fields)
    if file is None:
        if resubmission_of is None or not resubmission_of.file:
            raise ValidationError({"file": _("Choose the license file.")})
        with resubmission_of.file.open("rb") as previous:
            file = ContentFile(previous.read(), name=resubmission_of.file_name or "license")
    try:
        file_format = license_file_check(file)
    except ValidationError as error:
        raise ValidationError({"file": error.error_list}) from None
    request.file = file
    request.file_name = (getattr(file, "name", "") or "")[-255:].rsplit("/", 1)[-1]
    request.file_size = file.size
    request.file_format = file_format
    request.full_clean(exclude=["file"])  # checked just above
    request.file = None
    try:
        with transaction.atomic():
            # The row first, for its id: the file is stored under our own name, <id>.<format>.
            request.save()
            field = LicenseRequest._meta.get_field("file")
            try:
                request.file = storage_save(
                    field.storage,
                    field.generate_filename(request, license_file_name(request)),
                    file,
                    max_length=field.max_length,
                )
            except ValidationError as error:  # the storage cannot be written: the row is rolled back too
                raise ValidationError({"file": error.error_list}) from None
            request.save(update_fields=["file"])
            sync_mark_changed(request, kind=ResourceKind.LICENSE)
    except Exception:
        # The file was written before the row failed: leave no unreferenced copy behind.
        if request.file.name:
            request.file.storage.delete(request.file.name)
        raise
    logger.info("license request %s (%s) stored for property %s", request.pk, request.type, property.pk)
    return request


@transaction.atomic
def license_request_record_submission(*, license_request_id: int, answer: Any, environment: str) -> None:
    """The hub of environment accepted a submission: keep its id, status, reason and times (the
    submission result), and which hub it was."""
    fields = parse_license_result(answer)
    if "hub_id" not in fields:
        logger.warning("the hub accepted license request %s without an id in its answer", license_request_id)
    if fields:
        LicenseRequest.objects.filter(pk=license_request_id).update(
            **fields, hub_environment=environment, updated_at=timezone.now()
        )


@transaction.atomic
def license_request_delete(*, license_request: LicenseRequest) -> None:
    """Remove a request, its outbox row and its stored file (superusers cleaning up; the hub keeps its copy)."""
    SyncState.objects.filter(kind=ResourceKind.LICENSE, object_id=license_request.pk).delete()
    name = license_request.file.name
    storage = license_request.file.storage
    license_request.delete()
    if name:
        transaction.on_commit(lambda: storage.delete(name))


def license_requests_retry(*, license_requests: Iterable[LicenseRequest]) -> int:
    """Send again requests whose submission failed (the hub refused it, or gave up after retries), as
    they are; returns how many were queued."""
    states = SyncState.objects.filter(
        kind=ResourceKind.LICENSE, object_id__in=[request.pk for request in license_requests]
    )
    return sync_request(list(states), retry_failed=True)


# --- Reading the review back --------------------------------------------------------------------


def _list_all(client: HubClient, prop: Property) -> list[dict[str, Any]]:
    """Every request the hub lists for the property, newest first (all pages)."""
    items: list[dict] = []
    offset = 0
    while True:
        page = client.call(
            endpoints.LICENSE_LIST,
            path_params={"pid": prop.vendor_id},
            query={"offset": offset, "limit": LIST_PAGE_SIZE},
        ).data
        if not isinstance(page, dict) or not isinstance(page.get("licenses"), list):
            raise LicenseAnswerInvalid("The hub's license list is not in the expected shape.")
        items.extend(item for item in page["licenses"] if isinstance(item, dict))
        offset += len(page["licenses"])
        count = page.get("count")
        if not page["licenses"] or not isinstance(count, int) or offset >= count:
            return items


def _read_detail(client: HubClient, prop: Property, hub_id: int) -> dict[str, Any]:
    detail = client.call(endpoints.LICENSE_READ, path_params={"pid": prop.vendor_id, "license_id": hub_id}).data
    if not isinstance(detail, dict) or detail.get("id") != hub_id:
        raise LicenseAnswerInvalid(f"The hub's detail of license request {hub_id} is not in the expected shape.")
    return detail


def _needs_detail(request: LicenseRequest, item: dict[str, Any]) -> bool:
    fields = parse_license_result(item)
    return (
        request.refreshed_at is None
        or fields.get("status", "") != request.status
        or fields.get("reason", "") != request.reason
        or fields.get("hub_updated_at") != request.hub_updated_at
    )


def license_requests_refresh(*, property: Property, client: HubClient | None = None) -> int:
    """Read the hub's list of the property's requests, and the detail (history, masked number) of each
    one that changed since the last read; store what the hub says. Returns how many requests were
    updated. Raises HubError when the hub cannot be read; then nothing is stored. Only the requests the
    active hub environment received are read (another environment's stay as that hub left them)."""
    environment = hub_environment_active()
    client = client or get_hub_client(environment)
    received = LicenseRequest.objects.filter(property=property, hub_id__isnull=False, hub_environment=environment)
    ours = {request.hub_id: request for request in received}
    items = [item for item in _list_all(client, property) if item.get("id") in ours]
    details = {
        item["id"]: _read_detail(client, property, item["id"])
        for item in items
        if _needs_detail(ours[item["id"]], item)
    }
    now = timezone.now()
    with transaction.atomic():
        for hub_id, detail in details.items():
            _store(ours[hub_id], parse_license_detail(detail), now)
        for item in items:
            if item["id"] not in details:
                LicenseRequest.objects.filter(pk=ours[item["id"]].pk).update(refreshed_at=now)
    return len(details)


def _store(request: LicenseRequest, fields: dict[str, Any], now: datetime) -> None:
    fields.pop("hub_id", None)
    was = request.status
    for name, value in fields.items():
        setattr(request, name, value)
    request.refreshed_at = now
    request.save(update_fields=[*fields, "refreshed_at", "updated_at"])
    if request.status != was and request.status in (ReviewStatus.CONFIRM, ReviewStatus.REJECT):
        license_reviewed.send(sender=LicenseRequest, license_request=request)


def license_requests_refresh_open(*, client: HubClient | None = None) -> int:
    """Refresh every property with a request under review (or never read back); a property the hub cannot
    answer for, or that fails otherwise, is logged and left for the next run. Returns how many requests
    were updated."""
    client = client or get_hub_client()
    property_ids = list(selectors.license_property_ids_to_refresh())
    return for_each_row(
        property_ids, lambda pk: _refresh_open(pk, client), what="license review refresh of a property", atomic=False
    )


def _refresh_open(property_id: int, client: HubClient) -> int:
    prop = Property.objects.filter(pk=property_id).first()
    if prop is None:
        return 0
    try:
        return license_requests_refresh(property=prop, client=client)
    except HubError as error:
        logger.warning("could not refresh the license requests of property %s: %s", prop.pk, error.message)
        return 0


def license_requests_queue_refresh(*, property_ids: Iterable[int]) -> int:
    """Queue a refresh of each property's requests from the hub, after the current transaction commits.
    Raises ValidationError while distribution is paused."""
    if (refusal := hub_paused_refusal()) is not None:
        raise ValidationError(refusal)
    property_ids = sorted(set(property_ids))
    for property_id in property_ids:
        job_queue(REFRESH_TASK, property_id)
    return len(property_ids)
