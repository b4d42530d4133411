"""Reads of the licenses app."""

from django.db.models import Q, QuerySet

from integration.hub.payloads import superseding_hub_id
from integration.hub.selectors import hub_environment_active
from integration.models import ResourceKind, SyncState
from integration.sync.choices import SyncStatus

from .choices import ReviewStatus
from .models import LicenseRequest


def license_property_ids_to_refresh() -> "QuerySet[LicenseRequest, int]":
    """The properties with a request the active hub may still change (under review) or that was never read back."""
    received = LicenseRequest.objects.filter(hub_id__isnull=False, hub_environment=hub_environment_active())
    open_requests = received.filter(Q(status=ReviewStatus.PENDING) | Q(refreshed_at__isnull=True))
    return open_requests.values_list("property_id", flat=True).distinct()


def license_request_superseding(license_request: LicenseRequest, reason: str | None = None) -> LicenseRequest | None:
    """The newer request of the same property that superseded this one according to reason (by default the
    request's current reason), or None: not superseded, or the newer one was not submitted from here."""
    hub_id = superseding_hub_id(license_request.reason if reason is None else reason)
    if hub_id is None:
        return None
    return LicenseRequest.objects.filter(
        property_id=license_request.property_id, hub_environment=license_request.hub_environment, hub_id=hub_id
    ).first()


def license_request_sync_state(license_request: LicenseRequest) -> SyncState | None:
    """The outbox row of the request's submission, or None."""
    return SyncState.objects.filter(kind=ResourceKind.LICENSE, object_id=license_request.pk).first()


def license_request_can_resubmit(license_request: LicenseRequest, sync_status: str | None = None) -> bool:
    """Whether a new request may start from this one: the hub rejected it, or its submission failed."""
    return license_request.status == ReviewStatus.REJECT or sync_status == SyncStatus.FAILED
