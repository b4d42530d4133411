"""Enumerations of the sync engine."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class SyncStatus(models.TextChoices):
    """Where a resource stands with the hub."""

    PENDING = "pending", _("Pending")
    SYNCED = "synced", _("Synced")
    FAILED = "failed", _("Failed")
