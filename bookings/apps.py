"""App configuration for bookings."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BookingsConfig(AppConfig):
    """Bookings and the vendor API."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "bookings"
    verbose_name = _("Bookings")
