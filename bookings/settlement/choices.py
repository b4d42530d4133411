"""Enumerations of settlement reconciliation."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from bookings.models import Booking


class Basis(models.TextChoices):
    """Which date of a booking places it in the period (the settlement list's `option`)."""

    CHECKIN = "checkin", pgettext_lazy("settlement basis", "Check-in date")
    CHECKOUT = "checkout", pgettext_lazy("settlement basis", "Check-out date")


class RunStatus(models.TextChoices):
    """Where a reconciliation is."""

    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class Category(models.TextChoices):
    """What one booking's comparison found. A row has one category: a status difference is shown before
    an amount difference (both may be true; the row shows both figures)."""

    MATCHED = "matched", _("Matched")
    STATUS_DIFFERS = "status", _("Status differs")
    AMOUNT_DIFFERS = "amount", _("Amount differs")
    HUB_ONLY = "hub_only", _("At the hub, not here")
    OURS_ONLY = "ours_only", _("Here, not at the hub")


#: OURS (decision 0008), in this one place (the spec shows no booking status values, and names ours only): the
#: words the hub's booking reads (the settlement list and the single booking) may use for a booking's
#: status, as ours. Ours are understood too; a word not listed stays as the hub wrote it, and differs.
HUB_STATUSES = {
    "pending": Booking.Status.PENDING,
    "requested": Booking.Status.PENDING,
    "confirmed": Booking.Status.CONFIRMED,
    "reserved": Booking.Status.CONFIRMED,
    "canceled": Booking.Status.CANCELED,
    "cancelled": Booking.Status.CANCELED,
}


def hub_status_as_ours(word):
    """The hub's status word as our Booking.Status value (any case, spaces around ignored); the word
    itself when it is none of HUB_STATUSES."""
    if not isinstance(word, str):
        return word
    return HUB_STATUSES.get(word.strip().lower(), word)
