"""Enumerations of the drift check."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class DriftCheckStatus(models.TextChoices):
    """Where one drift check of a property stands."""

    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Could not finish")
