"""Switching to another hub environment (staging to production, say): one confirmed operation that keeps
our content and starts a first sync of everything against the new hub (docs/staff/owner.md, "Go live")."""

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Now
from django.utils.translation import gettext as _

from core.audit import ADDITION, audit_record
from core.background.jobs import job_queue

from ...hub.environments import HubEnvironment, hub_address
from ...hub.models import CONNECTION_PK, HubConnection, HubSwitch
from ..choices import SyncStatus
from ..models import SyncState
from ..resources import RESOURCES
from ..signals import hub_switched
from .batch import sync_states_ensure_all
from .outbox import sync_publish_in_order

#: The durable job that queues the switch's sends (sync_switch_publish), on the hub queue.
PUBLISH_TASK = "integration.sync.tasks.sync_switch_publish_task"
#: The new hub's code catalog is fetched right after a switch (the go-live checklist's first item and the
#: code check of every send read it); queued by name, the sync engine knows no area.
CATALOG_TASK = "integration.catalog.tasks.catalog_refresh_task"


class SwitchRefused(Exception):
    """The switch cannot be made (the environment is not configured, or already active); says why."""


def hub_environment_switch(*, to: HubEnvironment | str, user: User | None = None) -> HubSwitch:
    """Make `to` the active hub environment and send everything there as never synced; returns the HubSwitch.

    Every resource gets an outbox row; every row of a kind that follows a switch (content, rates and
    availability), and every row the old hub never acknowledged, starts over against the new hub:
    pending, no acknowledged body, so that the first send is a POST, in one statement. The sends are
    queued by a durable job after the commit (sync_switch_publish), not in the caller's request. The
    HubConnection row is locked, so that two switches never interleave.
    """
    to = HubEnvironment(to)
    if not hub_address(to).configured:
        raise SwitchRefused(
            _(
                "The %(environment)s hub has no base URL or token configured; set them first"
                " (docs: Configuration, the hub and the vendor API)."
            )
            % {"environment": to.label}
        )
    with transaction.atomic():
        connection, _created = HubConnection.objects.select_for_update(of=("self",)).get_or_create(pk=CONNECTION_PK)
        if connection.environment == to:
            raise SwitchRefused(_("The %(environment)s hub is already the active one.") % {"environment": to.label})
        sync_states_ensure_all()
        following = [kind for kind, resource in RESOURCES.items() if resource.follows_switch]
        switch = HubSwitch.objects.create(from_environment=connection.environment, to_environment=to, switched_by=user)
        moving = SyncState.objects.filter(Q(kind__in=following) | Q(known_to_hub=False))
        switch.resources = moving.update(
            environment=to,
            status=SyncStatus.PENDING,
            pending_since=Now(),
            version=F("version") + 1,
            sent_version=0,
            acked_body=None,
            known_to_hub=False,
            last_error="",
            last_status_code=None,
            failures=0,
            last_synced_at=None,
            next_attempt_at=None,
            # Marked queued by this switch: its job publishes them, and the sweeper only once it is overdue.
            queued_at=switch.switched_at,
        )
        switch.save(update_fields=["resources"])
        audit_record(user=user, obj=switch, action=ADDITION)
        connection.environment = to
        connection.switched_at = switch.switched_at
        connection.save(update_fields=["environment", "switched_at"])
        job_queue(CATALOG_TASK)
        hub_switched.send(sender=HubSwitch, environment=to)
        job_queue(PUBLISH_TASK, switch.pk)
    return switch


def sync_switch_publish(switch_id: int) -> int:
    """Queue the sends of the rows a switch moved and nothing has queued since, parents first, over one
    broker connection; returns how many. A row the broker did not take stays marked queued by the switch,
    for the sweeper once it is overdue."""
    switch = HubSwitch.objects.get(pk=switch_id)
    return sync_publish_in_order(
        SyncState.objects.filter(
            environment=switch.to_environment, status=SyncStatus.PENDING, queued_at=switch.switched_at
        )
    )
