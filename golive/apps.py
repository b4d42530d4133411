"""App configuration for going live."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GoLiveConfig(AppConfig):
    """The go-live checklist and the health page of a property: they read integration, licenses and
    bookings, so they sit above the three."""

    name = "golive"
    label = "golive"
    verbose_name = _("Going live")
