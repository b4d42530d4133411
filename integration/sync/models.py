"""The outbox of the sync to the hub: one state row per hub resource, and every attempt to send it."""

from django.db import models
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from ..content.models import Property
from ..hub.environments import HubEnvironment
from .choices import SyncStatus


class ResourceKind(models.TextChoices):
    """The hub resources we push (integration.sync.resources knows how to send each)."""

    PROPERTY = "property", _("property")
    ROOM_TYPE = "roomtype", _("room type")
    RATE_PLAN_MODEL = "rateplan_model", _("rate plan model")
    RATE_PLAN = "rateplan", _("rate plan")
    ARI_RATES = "ari_rates", _("rates and business days")
    ARI_AVAILS = "ari_avails", _("availability")
    LICENSE = "license", _("license request")
    CHANNEL_REQUEST = "channel_request", _("channel open request")
    CHANNEL_SETTINGS = "channel_settings", _("channel sales settings")
    CHANNEL_MAPPING = "channel_mapping", _("channel mapping")


class SyncState(models.Model):
    """Where one resource stands with the hub: the body the hub last acknowledged, and whether ours
    has changed since (the outbox row, written in the same transaction as the change)."""

    kind = models.CharField(_("resource"), max_length=20, choices=ResourceKind.choices)
    object_id = models.PositiveBigIntegerField(_("object id"))
    # Indexed by syncstate_list, which starts with it.
    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="sync_states", db_index=False
    )
    status = models.CharField(_("sync status"), max_length=8, choices=SyncStatus.choices, default=SyncStatus.PENDING)
    #: The hub this row's knowledge (acked_body, known_to_hub, status) is of; a switch to another
    #: environment starts the row over there. Rows from before environments existed were staging's.
    environment = models.CharField(
        _("hub environment"), max_length=12, choices=HubEnvironment.choices, default=HubEnvironment.STAGING
    )
    #: Bumped by every change; the sender notes the version it built its body from.
    version = models.PositiveIntegerField(_("version"), default=1)
    sent_version = models.PositiveIntegerField(_("sent version"), default=0)
    #: The last body the hub answered 2xx to; None until the hub knows the resource.
    acked_body = models.JSONField(_("body the hub acknowledged"), null=True, blank=True)
    known_to_hub = models.BooleanField(_("known to the hub"), default=False)
    last_error = models.TextField(_("last error"), blank=True)
    last_status_code = models.PositiveSmallIntegerField(_("last HTTP status"), null=True, blank=True)
    failures = models.PositiveSmallIntegerField(_("failures in a row"), default=0)
    last_synced_at = models.DateTimeField(_("last synced at"), null=True, blank=True)
    #: A change that moves availability or closes a day waits for the hub: sent ahead of every other pending
    #: row (the sender takes it first), so that a bulk rate edit draining does not hold back what prevents an
    #: overbooking. Cleared once the hub has the version.
    urgent = models.BooleanField(_("availability first"), default=False)
    #: When the oldest change the hub does not have yet was made; None once the hub has them all.
    pending_since = models.DateTimeField(_("pending since"), null=True, blank=True)
    next_attempt_at = models.DateTimeField(_("next attempt at"), null=True, blank=True, db_index=True)
    #: When a task for this row was last put on the queue; the sweeper re-queues rows left too long.
    queued_at = models.DateTimeField(_("queued at"), null=True, blank=True)
    #: A worker sending this row holds it until then, so two never send the same resource at once.
    lease_until = models.DateTimeField(_("held by the worker until"), null=True, blank=True)
    #: The Celery node name of the worker holding the lease (none for a command sending in-process).
    lease_owner = models.CharField(_("sending worker"), max_length=200, blank=True, null=True)  # noqa: DJ001
    #: The Celery task id of the send holding the lease: its retry takes the lease back (core.background.leases).
    lease_task = models.CharField(_("sending task"), max_length=200, blank=True, null=True)  # noqa: DJ001
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("hub sync state")
        verbose_name_plural = _("hub sync states")
        ordering = ["property", "kind", "object_id"]
        constraints = [models.UniqueConstraint(fields=["kind", "object_id"], name="syncstate_one_per_resource")]
        indexes = [
            models.Index(fields=["status", "next_attempt_at"], name="syncstate_due"),
            # The admin's list (and one property's): its order, read from the index rather than sorted.
            models.Index(fields=["property", "kind", "object_id"], name="syncstate_list"),
            # The few urgent rows, oldest change first, which every send looks at (sender._send_urgent_first).
            models.Index(fields=["pending_since"], condition=models.Q(urgent=True), name="syncstate_urgent"),
        ]

    def __str__(self) -> str:
        return f"{self.subject_label()}: {self.get_status_display()}"

    def waiting_for_hub(self) -> bool:
        """Pending after a failure the hub gets over by itself (no answer, 5xx, 429): tried again alone."""
        # A row waiting for its parents or its request budget has a next attempt too, without a failure.
        return self.status == SyncStatus.PENDING and self.next_attempt_at is not None and self.failures > 0

    def subject_label(self) -> str:
        """The object this state stands for, as "Room type 대청 스위트"; by its id until the admin sets
        subject_name (loading the names of a whole page at once)."""
        name = getattr(self, "subject_name", None) or f"#{self.object_id}"
        return f"{capfirst(self.get_kind_display())} {name}"


class SyncAttempt(models.Model):
    """One HTTP exchange with the hub for a resource, as sent (secrets removed) and answered."""

    class Outcome(models.TextChoices):
        SUCCESS = "success", _("Success")
        RETRY = "retry", _("Will retry")
        FAILED = "failed", _("Failed")

    state = models.ForeignKey(
        SyncState, verbose_name=_("sync state"), on_delete=models.CASCADE, related_name="attempts"
    )
    # Indexed by syncattempt_property_recent, which starts with it.
    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="sync_attempts", db_index=False
    )
    method = models.CharField(_("method"), max_length=6)
    path = models.CharField(_("path"), max_length=500)
    request_body = models.JSONField(_("request body"), null=True, blank=True)
    status_code = models.PositiveSmallIntegerField(_("HTTP status"), null=True, blank=True)
    hub_message = models.TextField(_("hub message"), blank=True)
    outcome = models.CharField(_("outcome"), max_length=8, choices=Outcome.choices)
    duration_ms = models.PositiveIntegerField(_("duration (ms)"))
    #: The request (or task) the send ran for, also sent to the hub as X-Request-ID (core.request_id).
    request_id = models.CharField(_("request id"), max_length=128, blank=True)
    created_at = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("hub sync attempt")
        verbose_name_plural = _("hub sync attempts")
        ordering = ["-created_at", "-id"]
        indexes = [
            # The log of one property (the property filter, a staff member's, the calendar's link), in
            # the list's order and with its date drill-down's ranges, without reading other properties'.
            models.Index(fields=["property", "-created_at", "-id"], name="syncattempt_property_recent"),
            # What went wrong (the outcome filter), of every property and of one, newest first: found in
            # the index however rare among the successes it is.
            models.Index(fields=["outcome", "-created_at"], name="syncattempt_outcome_recent"),
            models.Index(fields=["property", "outcome", "-created_at"], name="syncattempt_property_outcome"),
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} → {self.status_code or self.hub_message}"
