"""Choices of the sales channels area: a property's status on a channel, and an open request's review."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class ChannelStatus(models.TextChoices):
    """A property's status on a channel, as the hub answers it (decision 0009, operation 23)."""

    CLOSED = "closed", pgettext_lazy("channel status", "Closed")
    REQUESTED = "requested", pgettext_lazy("channel status", "Requested")
    OPEN = "open", pgettext_lazy("channel status", "Open")
    REJECTED = "rejected", pgettext_lazy("channel status", "Rejected")


class RequestStatus(models.TextChoices):
    """The hub's review of an open request (decision 0009, operations 24-26)."""

    PENDING = "pending", pgettext_lazy("open request", "Pending")
    APPROVED = "approved", pgettext_lazy("open request", "Approved")
    REJECTED = "rejected", pgettext_lazy("open request", "Rejected")


class ChannelType(models.TextChoices):
    """hub: the hub holds the contract with the channel; cms: the property contracts with it directly."""

    HUB = "hub", _("Hub contract")
    CMS = "cms", _("Direct contract (CMS)")
