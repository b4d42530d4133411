"""App configuration of the reports."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReportsConfig(AppConfig):
    """Occupancy, ADR, RevPAR, pickup, pace and channel mix from daily figures kept as bookings change."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "bookings.reports"
    label = "reports"
    verbose_name = _("Reports")
