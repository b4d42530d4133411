"""App configuration of settlement reconciliation."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SettlementConfig(AppConfig):
    """The hub's settlement list against our bookings, for managers."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "bookings.settlement"
    label = "settlement"
    verbose_name = _("Settlement")
