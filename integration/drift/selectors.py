"""Reads of the drift check for the admin screens and for other areas (the property's health page)."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet

from ..content.models import Property
from .choices import DriftCheckStatus
from .models import DriftCheck, DriftDifference


@dataclass(frozen=True)
class DriftStatus:
    """Where a property stands with the drift check.

    checked_at: when its last check finished (None: never checked); differences: what that check found
    and has not been re-sent yet; failed: it could not finish (error says why); running: a check is
    queued or running now.
    """

    checked_at: datetime | None
    differences: int
    failed: bool
    error: str
    running: bool
    check_id: int | None


def property_drift_status(property: Property) -> DriftStatus:
    """The property's drift status: its latest finished check, and whether one is under way."""
    checks = DriftCheck.objects.filter(property=property)
    running = checks.filter(status__in=[DriftCheckStatus.QUEUED, DriftCheckStatus.RUNNING]).exists()
    last = checks.filter(finished_at__isnull=False).order_by("-finished_at", "-pk").first()
    if last is None:
        return DriftStatus(None, 0, False, "", running, None)
    return DriftStatus(
        checked_at=last.finished_at,
        differences=last.differences.filter(resent_at__isnull=True).count(),
        failed=last.status == DriftCheckStatus.FAILED,
        error=last.error,
        running=running,
        check_id=last.pk,
    )


def drift_report_rows(check: DriftCheck) -> QuerySet[DriftDifference]:
    """The check's differences in report order, with their resource's kind."""
    return check.differences.select_related("state").order_by("state__kind", "resource", "field", "pk")
