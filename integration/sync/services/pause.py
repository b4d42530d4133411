"""Pausing and resuming distribution to the hub, for an incident at the hub: while paused nothing is sent
(the sender and the sweeper hold; nothing is lost or counted as a failure), changes and bookings are
accepted and queue up as pending rows; resuming sends them, availability first."""

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.audit import CHANGE, audit_record, audit_values
from core.background.jobs import job_queue

from ...hub.models import CONNECTION_PK, HubConnection
from ..choices import SyncStatus
from ..models import SyncState
from .outbox import sync_publish_in_order

#: The durable job that queues every pending send once distribution resumes (sync_resume_publish).
RESUME_TASK = "integration.sync.tasks.sync_resume_publish_task"


class PauseRefused(Exception):
    """Distribution is already in the state asked for; says so."""


def _connection_locked() -> HubConnection:
    connection, _created = HubConnection.objects.select_for_update(of=("self",)).get_or_create(pk=CONNECTION_PK)
    return connection


def hub_distribution_pause(*, user: User | None = None) -> HubConnection:
    """Stop sending to the hub from now on (a send already under way finishes its one call), recorded in the
    audit trail; raises PauseRefused when distribution is paused already."""
    with transaction.atomic():
        connection = _connection_locked()
        if connection.paused_at is not None:
            raise PauseRefused(_("Distribution to the hub is already paused."))
        before = audit_values(connection)
        connection.paused_at, connection.paused_by = timezone.now(), user
        connection.save(update_fields=["paused_at", "paused_by"])
        audit_record(user=user, obj=connection, action=CHANGE, before=before)
    return connection


def hub_distribution_resume(*, user: User | None = None) -> datetime:
    """Send to the hub again: every pending change is queued, availability first, by a durable job after the
    commit; recorded in the audit trail. Returns when distribution had been paused; raises PauseRefused
    when it is not paused."""
    with transaction.atomic():
        connection = _connection_locked()
        paused_at = connection.paused_at
        if paused_at is None:
            raise PauseRefused(_("Distribution to the hub is not paused."))
        before = audit_values(connection)
        connection.paused_at, connection.paused_by = None, None
        connection.save(update_fields=["paused_at", "paused_by"])
        audit_record(user=user, obj=connection, action=CHANGE, before=before)
        job_queue(RESUME_TASK)
    return paused_at


def sync_resume_publish() -> int:
    """Queue the send of every pending row, urgent ones (availability, closed days) first, then parents before
    children; returns how many. Rows waiting for a retry keep their backoff (sync_publish_in_order)."""
    return sync_publish_in_order(SyncState.objects.filter(status=SyncStatus.PENDING), urgent_first=True)
