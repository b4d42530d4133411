"""Enumerations of content: locales, statuses, rate plan types."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


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

    # A context: Django's own forms say "Enabled"/"Disabled" (password-based login) in another sense.
    ENABLED = "enabled", pgettext_lazy("sale status", "Enabled")
    DISABLED = "disabled", pgettext_lazy("sale status", "Disabled")


class RatePlanType(models.TextChoices):
    """A standalone model carries the base rate; a package model a difference against it."""

    STANDALONE = "standalone", _("Standalone")
    PACKAGE = "package", _("Package")
