"""Enumerations of the integration app."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class MembershipRole(models.TextChoices):
    """What a person may do for one property: staff edit content, rates and availability and read
    bookings; managers also handle licenses, settlement and channels."""

    STAFF = "staff", _("Staff")
    MANAGER = "manager", _("Manager")


class Locale(models.TextChoices):
    """The hub's locales; ko-KR is required wherever translations are."""

    KO_KR = "ko-KR", _("Korean")
    EN_US = "en-US", _("English")
    ZH_CN = "zh-CN", _("Chinese (Simplified)")
    JA_JP = "ja-JP", _("Japanese")
    VN_VN = "vn-VN", _("Vietnamese")
    TH_TH = "th-TH", _("Thai")
    ZH_TW = "zh-TW", _("Chinese (Traditional)")


class ContentStatus(models.TextChoices):
    """Whether the hub sells a property, room type or rate plan."""

    ENABLED = "enabled", _("Enabled")
    DISABLED = "disabled", _("Disabled")


class RatePlanType(models.TextChoices):
    """A standalone model carries the base rate; a package model a difference against it."""

    STANDALONE = "standalone", _("Standalone")
    PACKAGE = "package", _("Package")


class CatalogGroup(models.TextChoices):
    """The eight groups of the hub's code catalog."""

    CLASSIFICATION = "classification", _("Classification")
    PROPERTY = "property", _("Property")
    FACILITY = "facility", _("Facility")
    SERVICE = "service", _("Service")
    ATTRACTION = "attraction", _("Attraction")
    ROOMTYPE = "roomtype", _("Room type")
    AMENITY = "amenity", _("Amenity")
    # A context, so that the catalog group is not translated as Django's "View" button.
    VIEW = "view", pgettext_lazy("catalog group", "View")


class SyncStatus(models.TextChoices):
    """Where a resource stands with the hub."""

    PENDING = "pending", _("Pending")
    SYNCED = "synced", _("Synced")
    FAILED = "failed", _("Failed")
