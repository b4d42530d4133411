"""Enumerations of the inbox."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class EventKind(models.TextChoices):
    """What happened at a property that someone there must know of or act on, or to one person's login."""

    LICENSE_CONFIRMED = "license_confirmed", _("License confirmed")
    LICENSE_REJECTED = "license_rejected", _("License rejected")
    CHANNEL_OPENED = "channel_opened", _("Channel approved")
    SEND_FAILED = "send_failed", _("Send to the hub failed")
    DRIFT_FOUND = "drift_found", _("Drift found")
    BOOKING_CANCELED = "booking_canceled", _("Booking canceled")
    #: Personal: the reader's own user name was tried with wrong passwords from many addresses.
    LOGIN_TRIED = "login_tried", _("Login tried from many addresses")
    BOOKING_CREATED = "booking_created", _("New booking")
    BOOKING_UNMAPPED = "booking_unmapped", _("Booking without a rate plan")


#: Kinds each person turns on or off per property, for the inbox and for its e-mails (PropertyChoice). A
#: booking without a rate plan is not one of them: it asks for a look, like a failed send.
BOOKING_KINDS = (EventKind.BOOKING_CREATED, EventKind.BOOKING_CANCELED)

#: Kinds only managers see: licenses are the managers' (staff never see the license screen).
MANAGER_KINDS = (EventKind.LICENSE_CONFIRMED, EventKind.LICENSE_REJECTED)
