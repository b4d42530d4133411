"""The drift checks of each property and the differences each found between our copy and the hub's."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ..content.models import Property
from ..sync.models import SyncState
from .choices import DriftCheckStatus


class DriftCheck(models.Model):
    """One comparison of a property's resources as we last sent them with what the hub answers today."""

    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="drift_checks"
    )
    status = models.CharField(
        _("status"), max_length=8, choices=DriftCheckStatus.choices, default=DriftCheckStatus.QUEUED
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text=_("Empty for the weekly check."),
    )
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("checked at"), null=True, blank=True, db_index=True)
    resources_checked = models.PositiveIntegerField(_("resources read"), default=0)
    difference_count = models.PositiveIntegerField(_("differences"), default=0)
    error = models.TextField(_("why it could not finish"), blank=True)

    class Meta:
        verbose_name = _("hub drift check")
        verbose_name_plural = _("hub drift checks")
        ordering = ["-requested_at", "-id"]
        indexes = [models.Index(fields=["status", "requested_at"], name="driftcheck_queue")]

    def __str__(self):
        return f"{self.property} · {self.requested_at:%Y-%m-%d %H:%M}"


class DriftDifference(models.Model):
    """One field where the hub's copy differs from the body it last acknowledged; or, with an empty field,
    a resource the hub no longer knows."""

    check_run = models.ForeignKey(
        DriftCheck, verbose_name=_("drift check"), on_delete=models.CASCADE, related_name="differences"
    )
    state = models.ForeignKey(
        SyncState, verbose_name=_("resource"), on_delete=models.CASCADE, related_name="drift_differences"
    )
    #: How the hub names the resource ("prop-a/room-1"), kept as it was when the check ran.
    resource = models.CharField(_("resource"), max_length=200)
    field = models.CharField(_("field"), max_length=200, blank=True)
    ours = models.JSONField(_("ours (last sent)"), null=True, blank=True)
    hubs = models.JSONField(_("the hub's"), null=True, blank=True)
    #: Whether ours or the hub's has the field at all (a JSON null is a value too).
    ours_present = models.BooleanField(default=True)
    hubs_present = models.BooleanField(default=True)
    resent_at = models.DateTimeField(_("re-sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("hub drift difference")
        verbose_name_plural = _("hub drift differences")
        ordering = ["check_run", "state__kind", "resource", "field", "id"]

    def __str__(self):
        return f"{self.resource} {self.field}".strip()

    @property
    def missing_at_hub(self):
        """The hub answered 404: it no longer knows the resource at all."""
        return not self.field
