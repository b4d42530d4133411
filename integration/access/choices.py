"""Enumerations of access: the roles a person holds at a property."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class MembershipRole(models.TextChoices):
    """What a person may do for one property: staff edit content, rates and availability and read
    bookings; managers also handle licenses, settlement and channels."""

    STAFF = "staff", _("Staff")
    MANAGER = "manager", _("Manager")
